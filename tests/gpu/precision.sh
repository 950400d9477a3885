#!/bin/sh
# The precision default on the GPU machine: managed buffers placed before
# each iteration, without -i, run each size until +-5% (or 3 s), not OMB's
# 10000 placements. The placement check runs on every row, a retried size
# leaves one per-rank placement record per rank, of the row's own attempt,
# and every row met the target or is named at the end. Skips without a GPU.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
start=$(date +%s)
run_mpi 2 "$PT2PT/umb_latency" -m 1:1K --format json --timeout 120 MD MD
[ "$rc" -ne 77 ] || skip "no GPU: $(cat "$tmp/err")"
expect_rc 0 "umb_latency MD MD (default precision)"
echo "umb_latency MD MD -m 1:1K: $(( $(date +%s) - start )) s"
"$PYTHON3" - "$tmp/out" <<'PY' || fail "precision default (above)"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
head, rows = objs[0], [o for o in objs if o["type"] == "result"]
rec = [o for o in objs if o["type"] == "precision"]
assert "the default for managed buffers" in head["precision"], head.get("precision")
assert len(rows) == 11 and len(rec) == 1 and rec[0]["target_pct"] == 5, rec
missed = {m["size"] for m in rec[0]["not_converged"]}
for r in rows:
    p = r["precision_pct"]
    assert (p is not None and p <= 5) == (r["size"] not in missed), (r, missed)
    assert r["placed_pct"] is not None and r["not_placed"] is not None, r  # the check ran on every row
per_rank = [o for o in objs if o["type"] == "rank_placement"]
assert len(per_rank) == 2 * len(rows), len(per_rank)
# Each per-rank record is of the row's own attempt (the last): as many
# placements as the row's iterations and those left out.
by_size = {r["size"]: r for r in rows}
for o in per_rank:
    r = by_size[o["size"]]
    assert o["records"] == r["iterations"] + r["not_placed"], (o, r)
print("%-6s %10s %8s %10s" % ("size", "avg us", "+-%", "iterations"))
for r in rows:
    print("%-6d %10.2f %8s %10d" % (r["size"], r["avg_latency_us"], r["precision_pct"], r["iterations"]))
print("not converged:", sorted(missed) or "none")
PY
exit 0
