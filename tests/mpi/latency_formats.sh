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
exit 0
