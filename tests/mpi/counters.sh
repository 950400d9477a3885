#!/bin/sh
# --counters (-U) on host buffers: the header says counting is on and what it
# costs, rows carry the counter columns, the per-rank table follows, and in
# JSON/CSV one row per rank and size. Built without CUPTI: one line, exit 1.
# (Real counts are checked on a GPU by tests/gpu/counters.sh.)
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency
if ! grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h"; then
    usage_error 2 "$lat" "--counters needs CUPTI" -U -m 1:8 -i 5 H H
    exit 0
fi

run_mpi 2 "$lat" -U -m 1:64 -i 20 -x 2 H H
expect_rc 0 "umb_latency -U H H"
grep -q '^# Counters: .*times include the cost of counting' "$tmp/out" || fail "no Counters header line"
grep -Eq '^# Size +Avg Latency\(us\) +GPU flt/it +CPU flt/it +HtoD B/it +DtoH B/it +minflt/it +majflt/it$' "$tmp/out" \
    || { cat "$tmp/out"; fail "counter columns"; }
[ "$(grep -Ec '^(1|64) ' "$tmp/out")" -eq 2 ] || fail "result rows"
grep -q '^# Counters per rank' "$tmp/out" || fail "no per-rank table"
grep -Eq '^# 0 +[^ ]+ +-?[0-9]+ ' "$tmp/out" && grep -Eq '^# 1 +[^ ]+ +-?[0-9]+ ' "$tmp/out" || fail "per-rank rows"
# No GPU here (CI): one note line on stderr, getrusage only.
if grep -q 'note: --counters' "$tmp/err"; then
    [ "$(grep -c 'note: --counters' "$tmp/err")" -eq 1 ] || fail "more than one note"
    grep -q 'n/a' "$tmp/out" || fail "unmeasured CUPTI columns not shown as n/a"
fi

run_mpi 2 "$lat" --counters -m 1:64 -i 20 -x 2 --format json H H
expect_rc 0 "umb_latency --counters --format json"
json_check --rows 7 --keys gpu_fault_groups_per_iter dtoh_bytes_per_iter minor_faults_per_iter place_htod_bytes_per_iter
"$PYTHON3" - "$tmp/out" <<'PY' || fail "rank_counters rows"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
rc = [o for o in objs if o["type"] == "rank_counters"]
assert len(rc) == 14, len(rc)                       # 7 sizes x 2 ranks
assert sorted({o["rank"] for o in rc}) == [0, 1]
for o in rc:
    assert o["iterations"] == 20 and o["minor_faults"] >= 0, o
    if o["cupti"]:
        assert o["gpu_fault_groups"] == 0, o        # host buffers: no GPU faults
    else:
        assert o["gpu_fault_groups"] is None, o     # not measured: null, not 0
PY

run_mpi 2 "$PT2PT/umb_bw" -U -m 4K:8K -i 5 -x 1 --format csv H H
expect_rc 0 "umb_bw -U --format csv"
grep -q '^size,avg_bandwidth_mbs,.*,gpu_fault_groups_per_iter,' "$tmp/out" || fail "CSV counter columns"
grep -q '^rank,host,gpu,cupti,size,iterations,gpu_fault_groups,' "$tmp/out" || fail "CSV per-rank block"
[ "$(grep -Ec '^[01],' "$tmp/out")" -eq 4 ] || fail "CSV per-rank rows"

run_mpi 2 "$top_builddir/mpi/collective/umb_bcast" -U -m 4:16 -i 5 -x 1 --buffer H
expect_rc 0 "umb_bcast -U"
grep -q '^# Counters per rank' "$tmp/out" || fail "umb_bcast per-rank table"
exit 0
