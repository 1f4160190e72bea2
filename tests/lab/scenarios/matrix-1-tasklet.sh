# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# matrix-1-tasklet: see tests/lab/matrix.sh.
. /lab/matrix.sh 1 tasklet
