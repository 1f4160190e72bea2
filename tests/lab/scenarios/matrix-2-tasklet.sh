# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# matrix-2-tasklet: see tests/lab/matrix.sh.
. /lab/matrix.sh 2 tasklet
