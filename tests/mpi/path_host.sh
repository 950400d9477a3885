#!/bin/sh
# --path and the findings on host buffers (any machine): every row carries a
# path, and says "unknown" where CUPTI recorded nothing (no GPU, or a build
# without CUPTI) with the reason in the header; the program ends with its
# findings, and a finding names its rows. The findings' rules themselves:
# tests/unit/test_findings.
. "$top_srcdir/tests/lib.sh"
run_mpi 2 "$PT2PT/umb_latency" --path -m 1:1K -i 20 -x 2 --format json H H
expect_rc 0 "umb_latency --path H H"
json_check --rows 11 --keys path copy_htod_bytes_per_iter copy_dtoh_bytes_per_iter copy_dtod_bytes_per_iter
"$PYTHON3" - "$tmp/out" <<'PY' || fail "path fields (above)"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
head, rows = objs[0], [o for o in objs if o["type"] == "result"]
assert "path" in head and "path_ucx" in head, head
for r in rows:
    # H H: no CUDA copies at all where CUPTI ran; unknown where it could not
    assert r["path"] in ("none", "unknown"), r
    if r["path"] == "unknown":
        assert r["copy_htod_bytes_per_iter"] is None and head.get("path_note"), (r, head)
per_rank = [o for o in objs if o["type"] == "rank_path"]
assert len(per_rank) == 2 * len(rows), len(per_rank)
for f in (o for o in objs if o["type"] == "finding"):
    assert f["finding"] and f["rows"] and f["what"], f
PY
# The table: the Path column, the per-rank table and the findings line.
run_mpi 2 "$PT2PT/umb_bw" --path -m 1:64 -i 5 -x 1 H H
expect_rc 0 "umb_bw --path H H"
grep -q '^# Size .* Path .*Bound GB/s .*% of bound' "$tmp/out" || { cat "$tmp/out"; fail "bandwidth columns of the path"; }
grep -q '^# Path per rank' "$tmp/out" || fail "per-rank path table"
grep -q '^# Findings: ' "$tmp/out" || fail "findings line"
# Without --path: no path columns, the findings still end the output.
run_mpi 2 "$PT2PT/umb_latency" -m 1:8 -i 20 H H
expect_rc 0 "umb_latency H H"
! grep -q ' Path ' "$tmp/out" || fail "path columns without --path"
# (how many findings fire depends on the machine's load: an inversion may;
# what follows the count line is findings, those seen once with the command
# that would confirm them, and their advice, nothing else)
sed -n '/^# Findings: /,$p' "$tmp/out" \
    | awk 'NR == 1 || /^# Finding / || /^# Seen once / || /^#   (try|confirm): / { next } { bad = 1 } END { exit bad || NR == 0 }' \
    || { cat "$tmp/out"; fail "findings at the end"; }
exit 0
