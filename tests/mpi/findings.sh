#!/bin/sh
# A single run says how sure it is (docs/output.md, "Findings"), on host
# buffers: UMB_TEST_SLOWER makes 256 B far slower once timed (a hook
# linked into tests/tools/umb_latency_slower only, never installed), in
# every iteration (a clean step: a finding that repeats) or in 60% of them
# (the median moves, the middle half of the iterations reaches the next
# size's: "seen once", with the command that would confirm it). That
# command runs as printed, and umb-findings then judges the step over its
# rounds. The rules themselves: tests/unit/test_findings.
. "$top_srcdir/tests/lib.sh"
lat=$top_builddir/tests/tools/umb_latency_slower
[ -x "$lat" ] || fail "$lat: not built (make check builds it)"
# A million times slower: beyond anything a loaded machine does to 512 B.
export UMB_TEST_SLOWER=256:1000000:100
run_mpi 2 "$lat" -m 256:512 -i 200 -x 10 H H
expect_rc 0 "a clean step"
grep -q '^# Findings: [1-9] (docs' "$tmp/out" || { cat "$tmp/out"; fail "count line"; }
grep -q '^# Finding inversion \[256,512\]: a step down from size 256 to the larger 512: .*stands clear of what moves a median between runs' \
    "$tmp/out" || { cat "$tmp/out"; fail "a clean step is a finding"; }
! grep -q '^# Seen once\|^#   confirm: ' "$tmp/out" || fail "a clean step seen once"

# 60% of the iterations: the unchanged 40% are the machine's, and a loaded
# machine may make even those slower than 512 B's (then the step repeats):
# up to three tries for the shape this test is about.
export UMB_TEST_SLOWER=256:1000000:60
seen_once() {
    for try in 1 2 3; do
        run_mpi 2 "$lat" -m 256:512 -i 200 -x 10 "$@" H H
        expect_rc 0 "a step in 60% of the iterations ($*)"
        grep -q 'in this run, a step down from size 256' "$tmp/out" && return 0
    done
    cat "$tmp/out"; fail "no step seen once in three tries ($*)"
}
seen_once
grep -q '^# Findings: .*; seen once: 1 (docs/output.md, "Findings")$' "$tmp/out" || { cat "$tmp/out"; fail "count line"; }
grep -q '^# Seen once inversion \[256,512\]: in this run, a step down .*one run cannot say the step repeats' "$tmp/out" \
    || { cat "$tmp/out"; fail "seen once"; }
grep -q "^#   confirm: umb-run --set full --match '^umb_latency H H\$' --rounds 6 --within off --out DIR -- -m 256:512 -i 200 -x 10; then umb-findings DIR" \
    "$tmp/out" || { cat "$tmp/out"; fail "the command that confirms it"; }
! grep -q '^# Finding inversion' "$tmp/out" || fail "a step seen once is a finding"

seen_once --format csv
sed -n '/^# findings$/,$p' "$tmp/out" | grep -q '^finding,rows,what,try,confidence,confirm$' || { cat "$tmp/out"; fail "csv findings columns"; }
grep -q '^inversion,"256,512",".*",seen once,"umb-run --set full ' "$tmp/out" || { cat "$tmp/out"; fail "csv seen once"; }

[ -n "${PYTHON3:-}" ] || exit 0
seen_once --format json
"$PYTHON3" - "$tmp/out" <<'PY' || fail "finding records (above)"
import json, sys
found = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "finding"]
inv = [f for f in found if f["finding"] == "inversion"]
assert len(inv) == 1 and inv[0]["confidence"] == "seen once" and inv[0]["rows"] == "256,512", found
assert inv[0]["confirm"].startswith("umb-run --set full --match '^umb_latency H H$' --rounds 6"), inv[0]
assert all(f["confidence"] == "fact" and f["confirm"] == "" for f in found if f is not inv[0]), found
PY
# The command as printed (DIR a folder), then umb-findings: the step is in
# every round's rows, so the pooled rule confirms it.
needs_scripts
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
mkdir "$tmp/bin" && cp "$lat" "$tmp/bin/umb_latency"  # umb-run runs a program by its name
"$PYTHON3" "$top_srcdir/scripts/umb-run" --bindir "$tmp/bin" --set full --match '^umb_latency H H$' --rounds 6 --within off --out "$tmp/r" \
    -- -m 256:512 -i 200 -x 10 >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; fail "umb-run as confirm says"; }
"$PYTHON3" "$top_srcdir/scripts/umb-findings" "$tmp/r" --json >"$tmp/f.json" || fail "umb-findings"
"$PYTHON3" - "$tmp/f.json" <<'PY' || fail "umb-findings over the rounds (above)"
import json, sys
inv = [f for f in json.load(open(sys.argv[1])) if f["finding"] == "inversion"]
assert len(inv) == 1 and inv[0]["rows"] == "256,512" and inv[0]["confirmed"] and inv[0]["seen"] == [6, 6], inv
assert "over 6 rounds, a step down from size 256 to the larger 512" in inv[0]["what"], inv
PY
exit 0
