#!/bin/sh
# tests/tools/overhead and tests/tools/mpi_bare: the reference loops run
# with umbench's own iteration counts (the script refuses a mismatch), and
# every size gets a ratio row. The ratios themselves are the GPU machine's
# benchmark (tests/gpu/run-all overhead), not a pass condition here.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"

run_mpi 3 "$top_builddir/tests/tools/mpi_bare" latency
expect_rc 1 "mpi_bare latency on 3 ranks"
grep -q "latency and bw: 2 ranks" "$tmp/err" || fail "mpi_bare: no usage line for 3 ranks"

rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --rounds 2 --launch "$MPIEXEC $mpi_flags" \
    --max-latency 16K --max-bw 16K --max-bcast 1K --bcast-ranks 2 --json "$tmp/o.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "overhead: exit $rc"; }
for name in latency bw bcast; do
    grep -q "^# $name: worst median ratio [0-9.]* at [0-9]* B (target" "$tmp/out" || { cat "$tmp/out"; fail "$name: no summary line"; }
    grep -q "^# $name: missed beyond the noise (bootstrap 90% interval of the median past the target): .*; missed within it: " "$tmp/out" \
        || { cat "$tmp/out"; fail "$name: no noise verdict"; }
done
# 1 B .. 16 KiB for latency and bw (15 rows each), 1 B .. 1 KiB for bcast (11).
rows=$(grep -c '^ *[0-9][0-9]* ' "$tmp/out")
[ "$rows" -eq 41 ] || { cat "$tmp/out"; fail "overhead: $rows rows, expected 41"; }
"$PYTHON3" -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(d) == ['bcast', 'bw', 'latency'], d.keys()
assert all(len(r['reference']) == 2 and len(r['umbench']) == 2 and min(r['reference'] + r['umbench']) > 0 for v in d.values() for r in v)
" "$tmp/o.json" || fail "overhead --json"

rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --only latency,pingpong >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "pingpong" "$tmp/err" || { cat "$tmp/err"; fail "overhead --only pingpong: not one line, exit 1"; }
exit 0
