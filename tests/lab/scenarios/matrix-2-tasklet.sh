# matrix-2-tasklet: see tests/lab/matrix.sh.
. /lab/matrix.sh 2 tasklet
