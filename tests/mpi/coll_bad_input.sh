#!/bin/sh
# Bad input for the collectives: one line naming it, exit 1.
. "$top_srcdir/tests/lib.sh"
COLL=$top_builddir/mpi/collective

bad() {  # bad NP PROGRAM NAMES ARGS...
    np=$1 prog=$2; shift 2
    usage_error "$np" "$COLL/$prog" "$@"
}
bad 4 umb_bcast "--buffers MD,MH,MH: 3 kinds for 4 ranks" --buffers MD,MH,MH
bad 2 umb_bcast "--buffers MD,XX" --buffers MD,XX
bad 2 umb_bcast "--buffer Q" --buffer Q
bad 2 umb_bcast "--root-buffer MM" --root-buffer MM
bad 2 umb_bcast "not both" --buffers H,H --buffer MD
bad 4 umb_bcast "-k fixed:4: no such rank" -k fixed:4
bad 2 umb_reduce "-k fixed:9: no such rank" -k fixed:9
bad 2 umb_bcast "-k middle" -k middle
bad 2 umb_bcast "-k fixed:-1" -k fixed:-1
bad 2 umb_bcast "-d rocm" -d rocm
bad 2 umb_bcast "'MD'" MD
bad 2 umb_allreduce "MIN (1) must be a multiple of 4" -m 1:64
bad 2 umb_reduce "MIN (6) must be a multiple of 4" -m 6:64
bad 2 umb_alltoall "-i 0" -i 0
bad 2 umb_allgather "--format yaml" --format yaml
# Point-to-point programs do not take the collectives' options.
run_mpi 2 "$top_builddir/mpi/pt2pt/umb_latency" --buffer MD
expect_rc 1 "umb_latency --buffer"
grep -q '^umb_latency: option --buffer is for the collectives' "$tmp/err" || { cat "$tmp/err"; fail "umb_latency --buffer message"; }
exit 0
