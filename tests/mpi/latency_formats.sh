#!/bin/sh
# umb_latency --format csv and json carry every field of the table and header.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency

run_mpi 2 "$lat" -m 1:256 -i 50 -c --format json H H
expect_rc 0 "json"
json_check --rows 9 --validation pass \
    --header program date mpi_library cuda_aware mpi_env ucx cuda nranks ranks buffers placement hints iterations validation loop units \
    --keys program buffers size avg_latency_us min_latency_us max_latency_us p50_latency_us p99_latency_us iterations validation \
    --positive avg_latency_us min_latency_us p50_latency_us iterations
grep -v -q '^#' "$tmp/out" || fail "json output has # lines"

run_mpi 2 "$lat" -m 8:64 -i 50 --format csv
expect_rc 0 "csv"
grep -q '^# MPI library: ' "$tmp/out" || fail "csv header comments"
sed '/^# findings$/,$d' "$tmp/out" | grep -v '^#' >"$tmp/csv"  # the table, without the findings section
head -1 "$tmp/csv" | grep -q '^size,avg_latency_us,min_latency_us,max_latency_us,p50_latency_us,p99_latency_us,iterations,validation$' \
    || fail "csv column line"
awk -F, 'NR > 1 { n++; if (NF != 8 || $2 <= 0 || $7 != 50 || $8 != "off") bad = 1 } END { exit !(n == 4 && !bad) }' "$tmp/csv" \
    || { cat "$tmp/csv"; fail "csv rows"; }

# The environment the header records, with a newline (a forged row), a
# carriage return, an escape sequence, a bell and a C1 CSI in its values:
# shown as \xNN on the one line of each format (strbuf.h, umb_show_char),
# the rows as many as without them, the JSON lines all parsed.
OMPI_MCA_umb_test_x=$(printf 'a\n1,2,3\r\033[31mred\007')
UCX_UMB_TEST_X=$(printf 'u\n4 5.00 6.00')
HWLOC_UMB_TEST_Y=$(printf 'h\302\233x')
# UCX (MPICH's ch4:ucx) names a variable it does not know on its standard
# output, its own line and not umbench's: UCX_WARN_UNUSED_ENV_VARS=n.
UCX_WARN_UNUSED_ENV_VARS=n
export OMPI_MCA_umb_test_x UCX_UMB_TEST_X HWLOC_UMB_TEST_Y UCX_WARN_UNUSED_ENV_VARS
for format in table csv json; do
    run_mpi 2 "$lat" -m 1:1 -i 2 -x 0 --format "$format"
    expect_rc 0 "$format, control characters in the environment"
    "$PYTHON3" - "$tmp/out" "$format" <<'PY' || fail "$format: a raw control byte or a forged row (above)"
import json, re, sys
lines, fmt = open(sys.argv[1], "rb").read().split(b"\n"), sys.argv[2]
assert lines[-1] == b"", "no newline at the end"
raw = [l for l in lines if re.search(rb"[\x00-\x1f\x7f]|\xc2[\x80-\x9f]", l)]
assert not raw, "raw control bytes: %r" % raw[:2]
env = [l for l in lines if b"umb_test_x" in l.lower()]
assert env and b"\\x0a" in env[0] and b"\\x1b" in env[0] or fmt == "json", env
table = lines[:lines.index(b"# findings")] if b"# findings" in lines else lines[:-1]
rows = [l for l in table if not l.startswith(b"#")]
if fmt == "json":
    assert [json.loads(l)["type"] for l in rows].count("result") == 1
else:
    assert len(rows) == (2 if fmt == "csv" else 1), rows  # csv: the column line and one size
PY
done
unset OMPI_MCA_umb_test_x UCX_UMB_TEST_X HWLOC_UMB_TEST_Y UCX_WARN_UNUSED_ENV_VARS
exit 0
