#!/bin/sh
# scripts/umbench/stats.py and umb-compare on synthetic rounds with known answers:
# equal distributions are "the same", a 10% shift with low noise is slower
# (latency) or faster (bandwidth), one round gives no verdict, A/A is shown
# and must be cleared; the interval's ranks are those of util/core/precision.c.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"

"$PYTHON3" - "$top_srcdir/scripts" <<'PY' || fail "umb_stats"
import random, sys
sys.path.insert(0, sys.argv[1])
from umbench import stats as u

# The same ranks as tests/unit/test_precision.c (published tables).
assert [u.median_interval_rank(n) for n in (5, 6, 9, 20, 100, 1000)] == [0, 1, 2, 6, 40, 469]
assert u.rounds_needed() == 6 and u.rounds_needed(0.90) == 5
assert abs(u.reached(list(range(1, 101))) - 10.5 / 50.5) < 1e-12 and u.reached([1, 2, 3]) == float("inf")

rng = random.Random(7)
def side(centre, noise, n):
    return {r: centre * (1 + rng.uniform(-noise, noise)) for r in range(1, n + 1)}

# Equal distributions: the same. A 10% shift with 1% noise: slower for a
# latency (higher is worse), faster for a bandwidth.
c = u.compare(side(10, 0.03, 9), side(10, 0.03, 9), higher_better=False)
assert c["verdict"] == "same within the noise", c
c = u.compare(side(10, 0.01, 9), side(11, 0.01, 9), higher_better=False)
assert c["verdict"] == "slower" and 1.07 < c["ratio"] < 1.13 and c["interval"][0] > 1, c
assert u.change(c["ratio"], False).startswith("-")
c = u.compare(side(10, 0.01, 9), side(11, 0.01, 9), higher_better=True)
assert c["verdict"] == "faster" and u.change(c["ratio"], True).startswith("+"), c
# One round, or too few for an interval: no verdict, whatever the ratio.
c = u.compare({1: 10.0}, {1: 20.0}, False)
assert c["verdict"].startswith("no verdict (1 round") and c["ratio"] == 2, c
c = u.compare(side(10, 0.01, 3), side(20, 0.01, 3), False)
assert c["verdict"] == "no verdict (3 rounds; a 95% interval needs 6)", c
# Rounds pair by number: a round that only one side has is left out.
c = u.compare({1: 1.0, 2: 1.0}, {2: 3.0, 3: 5.0}, False)
assert c["n"] == 1 and c["ratio"] == 3, c
# A 3% shift with 0.5% noise is slower, unless the floor (an A/A stray) is 5%.
b, o = side(10, 0.005, 9), side(10.3, 0.005, 9)
assert u.compare(b, o, False)["verdict"] == "slower" and u.compare(b, o, False, floor=0.05)["verdict"] == "same within the noise"
# Calibration: of 400 A/A comparisons at 9 rounds, at least 93% are "the
# same" (exactly 96.1% for a continuous distribution).
same = sum(u.compare(side(5, 0.1, 9), side(5, 0.1, 9), True)["verdict"] == "same within the noise" for _ in range(400))
assert same >= 0.93 * 400, same
# The sign test inverts the interval: p <= 5% exactly where the interval clears the floor.
for _ in range(300):
    n = rng.randint(6, 15)
    rs = [1 + rng.uniform(-0.05, 0.08) for _ in range(n)]
    c = u.compare({r: 1.0 for r in range(n)}, dict(enumerate(rs)), True, floor=0.01)
    assert (c["verdict"] != "same within the noise") == (u.sign_p(rs, 0.01) <= 0.05), (rs, c)
assert u.sign_p([1.2] * 6) == 2 / 64 and u.sign_p([]) == 1.0
# Benjamini-Hochberg: the step-up rule on known p-values.
assert u.false_discovery([0.01, 0.04, 0.03, 0.5]) == {0}  # 0.01 <= 0.05 * 1/4; 0.03 > 0.05 * 2/4
assert u.false_discovery([0.01, 0.02, 0.03, 0.04]) == {0, 1, 2, 3}  # 0.04 <= 0.05 * 4/4 keeps all below it
# A change at every size is kept at 6 rounds; at 2 sizes of 39 it is not
# (each alone p = 1/32, over 5% x 2/39), unless it is strong enough for more rounds.
assert len(u.false_discovery([1 / 32] * 39)) == 39 and u.false_discovery([1 / 32] * 2 + [0.5] * 37) == set()
# Calibration over whole tables: 300 A/A tables of 39 sizes at 6 rounds; the
# tables that name any change stay at most 5% (BH controls the error over
# the table when nothing changed); per size alone, about 1 - 0.95^39 would.
from umbench import stats
class Side:
    def __init__(self, rows):
        self.runs, self.settings = {("umb_latency", "H H"): {"metric": "avg_latency_us", "rows": rows}}, None
def table(centre_other=1.0, n=6, sizes=39):
    a = {s: side(10, 0.05, n) for s in range(sizes)}
    b = {s: side(10 * centre_other, 0.05, n) for s in range(sizes)}
    return stats.comparisons([Side(a), Side(b)], [("umb_latency", "H H")])
bad = sum(any(r["verdict"] != "same within the noise" for r in table()) for _ in range(300))
assert bad <= 0.05 * 300, bad
# A 20% shift with 5% noise at every size: slower everywhere.
assert all(r["verdict"] == "slower" for r in table(1.2)), table(1.2)
# Spread: (Q3 - Q1) / median.
assert abs(u.spread([1, 2, 3, 4, 5]) - 2 / 3) < 1e-12 and u.spread([3]) is None
PY

# umb-compare on folders umb-run could have written: a default, an A/A twin
# ("again", the same settings) and a slower configuration, 8 rounds.
"$PYTHON3" - "$tmp/f" <<'PY' || fail "synthetic folder"
import json, os, random, sys
d = sys.argv[1]; os.makedirs(d)
rng = random.Random(3)
configs = [{"name": "default", "env": {}, "launcher_flags": []}, {"name": "again", "env": {}, "launcher_flags": []},
           {"name": "slow", "env": {"X": "1"}, "launcher_flags": []}]
json.dump({"mpi_library": "Synthetic MPI 1.0", "configs": configs}, open(os.path.join(d, "run.json"), "w"))
for r in range(1, 9):
    for c, scale in (("default", 1.0), ("again", 1.0), ("slow", 1.25)):
        with open(os.path.join(d, "umb_latency-H-H.%s.r%d.jsonl" % (c, r)), "w") as f:
            f.write(json.dumps({"type": "header", "program": "umb_latency"}) + "\n")
            for size in (1, 1024):
                v = (2.0 + size / 1000) * scale * (1 + rng.uniform(-0.01, 0.01))
                f.write(json.dumps({"type": "result", "program": "umb_latency", "buffers": "H H", "size": size, "avg_latency_us": v}) + "\n")
            f.write(json.dumps({"type": "run", "round": r, "config": c, "env": {}, "launcher_flags": []}) + "\n")
PY
"$PYTHON3" "$top_srcdir/scripts/umb-compare" "$tmp/f" >"$tmp/cmp" || { cat "$tmp/cmp"; fail "umb-compare on one folder of configurations"; }
grep -q '^# \[2\] f/slow: Synthetic MPI 1.0 (1 benchmarks with results, 8 rounds)' "$tmp/cmp" || { cat "$tmp/cmp"; fail "umb-compare: sides"; }
grep -q ' A/A  verdict$' "$tmp/cmp" || { cat "$tmp/cmp"; fail "umb-compare: no A/A column"; }
[ "$(grep -c '^[0-9]* *\[1\] .*A/A: same within the noise$' "$tmp/cmp")" -eq 2 ] || { cat "$tmp/cmp"; fail "umb-compare: A/A rows"; }
[ "$(grep -c '^[0-9]* *\[2\] .* slower (-2[0-9]\.[0-9]%)$' "$tmp/cmp")" -eq 2 ] || { cat "$tmp/cmp"; fail "umb-compare: 25% slower not found"; }
grep -q '^# \[2\] against \[0\]: faster at 0 sizes, slower at 2, the same within the noise at 0, no verdict at 0$' "$tmp/cmp" \
    || { cat "$tmp/cmp"; fail "umb-compare: summary"; }
# --min-effect above the change: the same.
"$PYTHON3" "$top_srcdir/scripts/umb-compare" "$tmp/f" --min-effect 30% | grep -q '^# \[2\] against \[0\]: .* slower at 0, the same within the noise at 2' \
    || fail "umb-compare --min-effect 30%"
rc=0; "$PYTHON3" "$top_srcdir/scripts/umb-compare" "$tmp/f" --min-effect lots >"$tmp/o" 2>&1 || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/o")" -eq 1 ] && grep -q "min-effect lots" "$tmp/o" || { cat "$tmp/o"; fail "umb-compare --min-effect lots"; }
exit 0
