#!/bin/sh
# Bad input: one line naming the bad value, exit status 1, no hang.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency

bad() { names=$1; shift; usage_error 2 "$lat" "$names" "$@"; }
bad "'MX'" MX MD
bad "-m 10:1" -m 10:1
bad "-i -5" -i -5
bad "--format xml" --format xml
bad "--place-with magic" --place-with magic
bad "--bogus" --bogus
bad "'Z'" H H Z

run_mpi 3 "$lat" H H
expect_rc 1 "3 ranks"
grep -q '^umb_latency: needs exactly 2 ranks, got 3' "$tmp/err" || { cat "$tmp/err"; fail "3 ranks message"; }

run_mpi 1 "$lat" H H
expect_rc 1 "1 rank"
grep -q '^umb_latency: needs exactly 2 ranks, got 1' "$tmp/err" || { cat "$tmp/err"; fail "1 rank message"; }

run_mpi 2 "$lat" -h
expect_rc 0 "-h"
grep -q '^Usage: umb_latency' "$tmp/out" || fail "-h usage"
[ "$(grep -c '^Usage' "$tmp/out")" -eq 1 ] || fail "-h printed by more than rank 0"
run_mpi 2 "$lat" -v
expect_rc 0 "-v"
grep -q '^umb_latency (umbench) ' "$tmp/out" || fail "-v version"
exit 0
