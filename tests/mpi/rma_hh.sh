#!/bin/sh
# The one-sided programs (umb_put_latency, umb_get_latency, umb_put_bw) on
# host buffers: OMB's loop and the handshake loop with -c, every byte
# checked (and a check that must fail: the test build's UMB_TEST_CORRUPT=size:N), JSON, the
# window line of the header; a library that cannot make a window says so
# in one line with what to try, and exits 77. Needs no GPU.
. "$top_srcdir/tests/lib.sh"
RMA=$top_builddir/mpi/rma
HOOKED=$top_builddir/tests/tools/hooked  # the programs with the -c hook (bench.c)
base_flags=$mpi_flags
window_flags
programs=$(programs_of rma)
[ -n "$programs" ] || fail "programs.txt lists no one-sided program"

# checked_but_16 WHAT: the last run's JSON rows all passed their check but
# 16 B's, which failed (UMB_TEST_CORRUPT=size:16).
checked_but_16() {
    grep '"type":"result"' "$tmp/out" >"$tmp/rows"
    grep '"size":16,' "$tmp/rows" | grep -q '"validation":"fail"' \
        && [ "$(grep -v '"size":16,' "$tmp/rows" | grep -vc '"validation":"pass"')" -eq 0 ] \
        || { cat "$tmp/out" "$tmp/err"; fail "$1: not every size passed its check but 16 B, which fails"; }
}

for path in $programs; do
    prog=${path##*/}
    run_mpi 2 "$RMA/$prog" -m 1:64K -i 50 -x 5 --timeout 60
    expect_rc 0 "$prog H H"
    grep -q '^# RMA window: MPI_Win_create over rank 1.s buffer (65536 bytes); MPI_Win_lock_all' "$tmp/out" || fail "$prog: no window line"
    grep -q '^# Loop: classic OMB: MPI_[PG][ue]t and MPI_Win_flush back to back$' "$tmp/out" || fail "$prog: H H should use the classic loop"
    [ "$(grep -vc '^#' "$tmp/out")" -eq 17 ] || { cat "$tmp/out"; fail "$prog: 17 rows"; }

    # -c, every byte checked, and in the same launch a check made to fail
    # at 16 B (the hooked build of the same program): exit 2, that row
    # says so and the reason names the hook; every other size passes.
    UMB_TEST_CORRUPT=size:16 run_mpi 2 "$HOOKED/$prog" -m 1:64K -i 20 -x 2 -c --format json --timeout 60
    expect_rc 2 "$prog -c json, with a check that fails at 16 B"
    json_check --rows 17
    checked_but_16 "$prog -c json"
    grep -q '"loop":"handshake: per iteration, both ranks place' "$tmp/out" || fail "$prog -c: the handshake loop"
    grep -q "^$prog: rank [01] on .*: size 16, message 0: failed on purpose (UMB_TEST_CORRUPT=size:16)" "$tmp/err" \
        || { cat "$tmp/out" "$tmp/err"; fail "$prog: a failed check"; }
done

# Every synchronisation of OMB's -s, and -w dynamic: each byte checked, the
# header names them, the loop and the units name the calls timed; a check
# made to fail must fail under each (the data is really checked after its
# epoch, not before).
for sync in flush flush_local lock lock_all fence pscw; do
    for win in create dynamic; do
        for path in $programs; do
            prog=${path##*/}
            W=; case $prog in *_bw) W="-W 4" ;; esac
            # umb_put_bw: its hooked build, with a check made to fail at 16 B in the same launch.
            case $prog in
            umb_put_bw) UMB_TEST_CORRUPT=size:16 run_mpi 2 "$HOOKED/$prog" -s $sync -w $win -m 1:4K -i 10 -x 1 $W -c --format json --timeout 60
                expect_rc 2 "$prog -s $sync -w $win -c, with a check that fails at 16 B"
                json_check --rows 13
                checked_but_16 "$prog -s $sync -w $win -c" ;;
            *) run_mpi 2 "$RMA/$prog" -s $sync -w $win -m 1:4K -i 10 -x 1 $W -c --format json --timeout 60
                expect_rc 0 "$prog -s $sync -w $win -c"
                json_check --rows 13 --validation pass ;;
            esac
            grep -q "\"rma_sync\":\"$sync\"" "$tmp/out" || { head -1 "$tmp/out"; fail "$prog -s $sync: rma_sync"; }
        done
    done
done
run_mpi 2 "$RMA/umb_put_latency" -s lock -w dynamic -m 8:8 -i 20 -x 2 --timeout 60
expect_rc 0 "umb_put_latency -s lock -w dynamic"
grep -q '^# RMA window: MPI_Win_create_dynamic with rank 1.s buffer attached (8 bytes); MPI_Win_lock (shared) and MPI_Win_unlock around each operation$' "$tmp/out" \
    && grep -q '^# Loop: classic OMB: MPI_Win_lock, MPI_Put and MPI_Win_unlock back to back$' "$tmp/out" \
    && grep -q '^# Units: latency in microseconds: from MPI_Win_lock to MPI_Win_unlock.s return$' "$tmp/out" \
    || { cat "$tmp/out"; fail "umb_put_latency -s lock -w dynamic: header"; }

# umb_put_bw: -W operations per flush, one slot each with -c, rates above 0.
# OMB's -w and -s, with the values umbench measures (others: tests/bad_input.txt).
run_mpi 2 "$RMA/umb_get_latency" -w create -s flush -m 8:8 -i 5 -x 1 --timeout 60
expect_rc 0 "umb_get_latency -w create -s flush"
run_mpi 2 "$RMA/umb_put_bw" -m 1K:1M -i 5 -x 1 -W 8 -c --format json --timeout 60
expect_rc 0 "umb_put_bw -W 8 -c"
json_check --rows 11 --validation pass --positive avg_bandwidth_mbs
grep -q '"window":8,"window_buffers":"8 per rank (one per operation: every slot placed and checked on its own)"' "$tmp/out" || { head -1 "$tmp/out"; fail "umb_put_bw: -W 8"; }

# Open MPI without an osc component that can make this window: one line, exit 77.
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI"; then
    rc=0
    timeout "$RUN_LIMIT" "$MPIEXEC" $base_flags --mca osc sm -np 2 "$RMA/umb_put_latency" -m 8:8 </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ $rc -eq 77 ] && [ "$(grep -c '^umb_put_latency: ' "$tmp/err")" -eq 1 ] \
        && grep -q "^umb_put_latency: rank [01] on .*: this MPI cannot make a window (MPI_Win_create: .*); Open MPI: try --mca osc ucx" "$tmp/err" \
        || { cat "$tmp/out" "$tmp/err"; fail "no window: exit $rc"; }
fi
exit 0
