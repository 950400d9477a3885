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
must_judge precision "$tmp/out"
# --launch-budget over two managed pairs (umb-run --within gives it): half
# a second for 46 sizes cannot hold a window of 4 MiB staged through the
# host, so sizes go unmeasured; each pair's record names the budget, and a
# row has a figure exactly where iterations ran.
run_mpi 2 "$PT2PT/umb_bw" --precision 5% --launch-budget 0.5 -m 1:4M --format json --timeout 120 MD MD MH MH
expect_rc 0 "umb_bw --launch-budget 0.5 MD MD MH MH"
must_judge launch-share "$tmp/out"
exit 0
