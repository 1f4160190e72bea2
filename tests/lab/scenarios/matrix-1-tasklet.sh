# matrix-1-tasklet: see tests/lab/matrix.sh.
. /lab/matrix.sh 1 tasklet
