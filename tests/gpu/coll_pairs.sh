#!/bin/sh
# The collectives with GPU buffers, validated on every rank: bcast with
# root MD / others MH, all MD, all MH, a per-rank list, rotating root with
# two kinds; the others with MD and MH. Skipped (77) without a GPU.
. "$top_srcdir/tests/lib.sh"
COLL=$top_builddir/mpi/collective

run_mpi 2 "$COLL/umb_bcast" -m 8 -i 1 -x 0 --buffer MD
[ "$rc" -ne 77 ] || skip "$(grep '^umb_bcast' "$tmp/err")"
expect_rc 0 "probe"

ok() {  # ok NP PROGRAM ROWS ARGS...: runs, every row Pass
    np=$1 prog=$2 rows=$3; shift 3
    run_mpi "$np" "$COLL/$prog" -i 5 -x 1 -c --format json --timeout 120 "$@"
    expect_rc 0 "$prog $*"
    must_judge validated "$tmp/out" "$rows"
    echo "  (-np $np $*)"
}
for np in 2 4; do
    ok $np umb_bcast 17 -m 1:64K --root-buffer MD --buffer MH
    ok $np umb_bcast 17 -m 1:64K --buffer MD
    ok $np umb_bcast 17 -m 1:64K -d managed
    ok $np umb_bcast 17 -m 1:64K --buffer MD --place-with prefetch
    ok $np umb_bcast 9 -m 4:1K --root-buffer MD --buffer MH -k rotate
    ok $np umb_allreduce 15 -m 4:64K --buffer MD
    ok $np umb_reduce 15 -m 4:64K --root-buffer MH --buffer MD
    ok $np umb_allgather 17 -m 1:64K --buffer MD
    ok $np umb_alltoall 17 -m 1:64K --root-buffer MD --buffer MH
done
ok 4 umb_bcast 17 -m 1:64K --buffers MD,MH,MH,MD
ok 4 umb_allgather 17 -m 1:64K --buffers MH,MD,P,H
exit 0
