#!/bin/sh
# --counters are real (GPU machine): an MD send through an MPI that is not
# CUDA-aware migrates at least the message to the host every iteration, and
# what placement moves back is counted apart; host buffers show no GPU
# faults. Skips without a GPU or without CUPTI.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency
grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h" || skip "built without CUPTI"
run_mpi 2 "$lat" -U -m 4:64K -i 40 -x 4 --place-with prefetch --format json MD H
[ "$rc" -ne 77 ] || skip "no GPU: $(cat "$tmp/err")"
expect_rc 0 "umb_latency -U --place-with prefetch MD H"
cp "$tmp/out" "$tmp/md.jsonl"
run_mpi 2 "$lat" -U -m 4:4K -i 40 -x 4 --format json H H
expect_rc 0 "umb_latency -U H H"
must_judge counters "$tmp/md.jsonl" "$tmp/out"
exit 0
