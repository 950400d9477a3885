#!/bin/sh
# tests/tools/overhead and tests/tools/mpi_bare: the reference loops run
# with umbench's own iteration counts (the script refuses a mismatch), and
# every size gets a ratio row with its interval and verdict. Those ratios
# are a benchmark (tests/gpu/run-all overhead, docs/results/overhead.md),
# never a pass condition: nothing here depends on a timing, so this runs
# beside the other tests, at tiny counts (--iterations) wherever the rows,
# not OMB's counts, are what is checked. The timed comparisons are
# tests/mpi/overhead.sh, which runs alone.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"

run_mpi 3 "$top_builddir/tests/tools/mpi_bare" latency
expect_rc 1 "mpi_bare latency on 3 ranks"
grep -q "all but bcast: 2 ranks" "$tmp/err" || fail "mpi_bare: no usage line for 3 ranks"

rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" \
    --rounds 2 --iterations 20 --launch "$MPIEXEC $mpi_flags" \
    --max-latency 16K --max-bw 16K --max-bcast 1K --bcast-ranks 2 --json "$tmp/o.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "overhead: exit $rc"; }
for name in latency bw bcast; do
    grep -q "^# $name: worst median ratio [0-9.]* at [0-9]* B (target" "$tmp/out" || { cat "$tmp/out"; fail "$name: no summary line"; }
    grep -E -q "^# $name: 95% interval of the median ratio (>= 0.980|<= 1.020) at 0 of [0-9]+ sizes; MISSED: none; unresolved: none; no interval: 1, " "$tmp/out" \
        || { cat "$tmp/out"; fail "$name: 2 rounds: not every size without an interval"; }
done
grep -q "^# Load average (1, 5, 15 min) before the first round: [0-9.]* [0-9.]* [0-9.]* ([0-9]* CPUs); after the last: " "$tmp/out" \
    || { cat "$tmp/out"; fail "overhead: no load line"; }
# 1 B .. 16 KiB for latency and bw (15 rows each), 1 B .. 1 KiB for bcast (11).
rows=$(grep -c '^ *[0-9][0-9]* ' "$tmp/out")
[ "$rows" -eq 41 ] || { cat "$tmp/out"; fail "overhead: $rows rows, expected 41"; }
"$PYTHON3" -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(d) == ['bcast', 'bw', 'latency'], d.keys()
assert all(len(r['reference']) == 2 and len(r['umbench']) == 2 and min(r['reference'] + r['umbench']) > 0 for v in d.values() for r in v)
" "$tmp/o.json" || fail "overhead --json"

# One count for every size (ITERS WARMUP), as umbench's -i and -x.
run_mpi 2 "$top_builddir/tests/tools/mpi_bare" handshake 4 7 1
expect_rc 0 "mpi_bare handshake 4 7 1"
[ "$(grep -c '^[1-4] [0-9.]* 7$' "$tmp/out")" -eq 3 ] || { cat "$tmp/out"; fail "mpi_bare handshake 4 7 1: not 3 rows of 7 iterations"; }
run_mpi 2 "$top_builddir/tests/tools/mpi_bare" bw 8 5x 1
expect_rc 1 "mpi_bare bw 8 5x 1"
grep -q "got 'bw 8 5x 1'" "$tmp/err" || fail "mpi_bare bw 8 5x 1: the usage line does not name the arguments"

# --aa: the reference a second time in each round, an A/A column; --iterations
# for both; --before: an earlier build's programs in the same rounds, a second
# table. 6 rounds have a 95% interval: it holds the median, and the verdict
# is one of three words.
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --rounds 6 --launch "$MPIEXEC $mpi_flags" \
    --only bw --max-bw 1K --iterations 20 --aa --before "$top_builddir" --json "$tmp/aa.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "overhead --aa --before --iterations 20: exit $rc"; }
[ "$(grep -c "^# .*umb_bw H H against mpi_bare bw, 2 ranks, 6 rounds interleaved, 20 iterations at every size" "$tmp/out")" -eq 2 ] \
    || { cat "$tmp/out"; fail "overhead --iterations --before: not two tables, each naming its iterations"; }
grep -q "Ref noise    A/A  Verdict" "$tmp/out" || { cat "$tmp/out"; fail "overhead --aa: no A/A column"; }
awk '/^ *[0-9]+ / { n++; if (!($5 <= $4 && $4 <= $6 && $9 ~ /^(met|MISSED|unresolved)$/)) bad++ }
     END { exit !(n == 22 && !bad) }' "$tmp/out" || { cat "$tmp/out"; fail "overhead: a row whose interval misses its median, or another verdict"; }
"$PYTHON3" -c "
import json, sys
d = json.load(open(sys.argv[1]))['bw']
assert [r['size'] for r in d] == [1 << k for k in range(11)], d
assert all(len(r[k]) == 6 and min(r[k]) > 0 for r in d for k in ('reference', 'umbench', 'reference_again', 'before'))
" "$tmp/aa.json" || fail "overhead --aa --before --json"

# --budget: no round starts that would end past it; the tables say how many ran.
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" \
    --rounds 50 --budget 0.001 --iterations 20 --launch "$MPIEXEC $mpi_flags" \
    --only latency,bw --max-latency 4 --max-bw 4 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && grep -q "^# Stopped after 1 of 50 rounds: one more would end past --budget 0.001 s" "$tmp/out" \
    && [ "$(grep -c "against mpi_bare [a-z]*, 2 ranks, 1 round interleaved" "$tmp/out")" -eq 2 ] \
    || { cat "$tmp/out" "$tmp/err"; fail "overhead --budget: not stopped after one round of each program (exit $rc)"; }

# --min: the tables start there (umbench's -m MIN:MAX; mpi_bare's smaller rows left out).
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" \
    --rounds 1 --iterations 20 --min 4 --only latency --max-latency 16 \
    --launch "$MPIEXEC $mpi_flags" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && [ "$(grep '^ *[0-9][0-9]* ' "$tmp/out" | awk '{ printf "%s ", $1 }')" = "4 8 16 " ] \
    || { cat "$tmp/out" "$tmp/err"; fail "overhead --min 4 --max-latency 16: exit $rc or not the rows 4, 8, 16"; }
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --min 2M --only bcast >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^overhead: --min 2097152: above --max-bcast 1048576" "$tmp/err" \
    || { cat "$tmp/err"; fail "overhead --min above --max-bcast: not one line, exit 1"; }

# --laps: mpi_bare's loops with umbench's per-iteration mark in umbench's place.
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" \
    --rounds 1 --iterations 20 --laps --only latency,bw --launch "$MPIEXEC $mpi_flags" \
    --max-latency 16 --max-bw 16 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c "^# mpi_bare \(latency\|bw\)-laps (its loop with umbench's marks) against mpi_bare" "$tmp/out")" -eq 2 ] \
    && [ "$(grep -c '^ *[0-9][0-9]* ' "$tmp/out")" -eq 10 ] || { cat "$tmp/out" "$tmp/err"; fail "overhead --laps: exit $rc or not two tables of 5 rows"; }
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --laps >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^overhead: --laps: latency and bw only" "$tmp/err" \
    || { cat "$tmp/err"; fail "overhead --laps with bcast: not one line, exit 1"; }

# --copy: a byte-for-byte copy of mpi_bare in umbench's place, removed at the end.
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" \
    --rounds 1 --iterations 20 --launch "$MPIEXEC $mpi_flags" \
    --only bw --max-bw 16 --copy >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && grep -q "mpi_bare_copy\.[0-9]* (a copy of mpi_bare) against mpi_bare bw" "$tmp/out" \
    || { cat "$tmp/out" "$tmp/err"; fail "overhead --copy: exit $rc or no copy named"; }
ls "$top_builddir"/tests/tools/mpi_bare_copy.* 2>/dev/null && fail "overhead --copy: the copy was left behind"

rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --only latency,pingpong >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "pingpong" "$tmp/err" || { cat "$tmp/err"; fail "overhead --only pingpong: not one line, exit 1"; }

# Each bad value: one line naming it, exit 1, before anything runs.
# (Adversarial pass 7: a timeout past what the clock holds was a traceback,
# a size no power of two ran a round before it was refused.)
for bad in "--rounds 0|--rounds 0: accepted 1 to" "--iterations 0|--iterations 0: accepted 1 to" \
        "--bcast-ranks 1|--bcast-ranks 1: accepted 2 to" "--timeout 0|--timeout 0: accepted 1 to" \
        "--timeout 10000000000|--timeout 10000000000: accepted 1 to 86400" \
        "--max-latency 12|argument --max-latency: '12': accepted a power of two" \
        "--min ²|argument --min: '²': accepted a power of two" \
        "--budget -1|--budget -1: accepted seconds" "--wait-idle nan|--wait-idle nan: accepted" \
        "--before $tmp|--before $tmp: not an umbench build folder" "--json $tmp/no/such.json|--json $tmp/no/such.json: cannot write it" \
        "--json $tmp|--json '$tmp': accepted the name of a regular file" "--launch no-such-launcher|--launch no-such-launcher: no such program"; do
    rc=0
    # shellcheck disable=SC2086 # the option and its value, split on purpose
    "$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" ${bad%%|*} >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "^overhead: ${bad#*|}" "$tmp/err" && [ ! -s "$tmp/out" ] \
        || { cat "$tmp/out" "$tmp/err"; fail "overhead ${bad%%|*}: not one line naming it, exit 1 (exit $rc)"; }
done
# A refused command makes no --json file; a launcher's bytes that are not
# UTF-8 are a line, not a traceback; a link to the tool runs it.
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --laps --json "$tmp/new.json" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ ! -e "$tmp/new.json" ] || fail "overhead --laps --json: exit $rc, or the refused command made $tmp/new.json"
printf '#!/bin/sh\nprintf "\\377\\376 not text\\n" >&2\nexit 3\n' >"$tmp/garbled" && chmod +x "$tmp/garbled"
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --rounds 1 --only latency --max-latency 4 --launch "$tmp/garbled" \
    >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "exit 3" "$tmp/err" || { cat "$tmp/err"; fail "overhead with a launcher that writes bytes: exit $rc"; }
ln -s "$top_srcdir/tests/tools/overhead" "$tmp/overhead-link"
(cd / && "$PYTHON3" "$tmp/overhead-link" --build "$top_builddir" --rounds 0) >/dev/null 2>"$tmp/err" && fail "overhead through a link: --rounds 0 taken"
grep -q "^overhead: --rounds 0: accepted" "$tmp/err" || { cat "$tmp/err"; fail "overhead through a link did not run"; }
exit 0
