#!/bin/sh
# Bad input for the bandwidth programs: one line naming it, exit 1.
. "$top_srcdir/tests/lib.sh"

bad() {  # bad NP PROGRAM NAMES ARGS...
    np=$1 prog=$2; shift 2
    usage_error "$np" "$PT2PT/$prog" "$@"
}
for prog in umb_bw umb_bibw umb_mbw_mr; do
    bad 2 $prog "-W 0" -W 0
    bad 2 $prog "-W abc" -W abc
    bad 2 $prog "-W -4" -W -4
    bad 2 $prog "'XD'" XD H
    bad 2 $prog "memory limit" -c -m 16M -W 64
done
bad 3 umb_bw "needs exactly 2 ranks, got 3"
bad 3 umb_bibw "needs exactly 2 ranks, got 3"
bad 3 umb_mbw_mr "needs a multiple of 2 ranks, got 3"
bad 1 umb_mbw_mr "needs a multiple of 2 ranks, got 1"
bad 2 umb_latency "-W" -W 4
exit 0
