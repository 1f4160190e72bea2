# matrix-2-kthread: see tests/lab/matrix.sh.
. /lab/matrix.sh 2 kthread
