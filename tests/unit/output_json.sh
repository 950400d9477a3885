#!/bin/sh
# The output writer: JSON Lines that parse, with escapes and non-finite
# values handled; CSV with one column per key; an OMB-style table.
. "$top_srcdir/tests/lib.sh"
prog=$top_builddir/tests/unit/test_output
# Every byte and every C1 control through the one rule that shows a value
# (strbuf.h), the header's lines and its JSON.
"$prog" shown >"$tmp/shown" 2>&1 || { cat "$tmp/shown"; fail "test_output shown"; }
"$prog" json >"$tmp/out" || fail "test_output json"
json_check --no-end --rows 2 --header program control nranks ranks \
    --keys size avg_latency_us min_latency_us max_latency_us p50_latency_us p99_latency_us iterations memory validation
"$PYTHON3" - "$tmp/out" <<'PY' || fail "JSON content"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[0]["program"] == 'umb_test "quoted" back\\slash tab\there', lines[0]
assert lines[0]["ranks"] == [{"rank": 0}, {"rank": 1}]
assert lines[1]["avg_latency_us"] == 1.5 and lines[1]["validation"] == "pass"
assert lines[1]["memory"] == "write-combined" and lines[2]["memory"] == "pinned"
assert lines[2]["avg_latency_us"] is None and lines[2]["validation"] == "fail"
assert lines[2]["size"] == 4194304 and lines[2]["buffers"] == "MD MH"
assert lines[2]["iterations"] == 1234567 and '"iterations":1234567,' in open(sys.argv[1]).read().split("\n")[2], lines[2]
PY
"$prog" csv >"$tmp/out" || fail "test_output csv"
grep -q '^size,avg_latency_us,min_latency_us,max_latency_us,p50_latency_us,p99_latency_us,iterations,memory,validation$' "$tmp/out" \
    || fail "CSV column line"
grep -q '^8,1.500,1.000,2.000,1.500,2.000,10,write-combined,pass$' "$tmp/out" || fail "CSV row"
"$prog" table >"$tmp/out" || fail "test_output table"
grep -q '^# Size       Avg Latency(us)   Min Latency(us)' "$tmp/out" || fail "table column line"
grep -Eq '^8 +1\.50 +1\.00 +2\.00 +1\.50 +2\.00 +10 +write-combined +Pass$' "$tmp/out" || fail "table row"
exit 0
