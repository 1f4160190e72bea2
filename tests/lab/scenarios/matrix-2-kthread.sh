# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# matrix-2-kthread: see tests/lab/matrix.sh.
. /lab/matrix.sh 2 kthread
