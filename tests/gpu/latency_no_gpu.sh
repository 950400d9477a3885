#!/bin/sh
# A GPU buffer without a GPU: one clear line and exit 77, on any machine
# (on a GPU machine the GPUs are hidden with CUDA_VISIBLE_DEVICES).
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency
export CUDA_VISIBLE_DEVICES=
run_mpi 2 "$lat" -m 1:8 -i 5 MD MH
expect_rc 77 "MD MH without a GPU"
grep -q '^umb_latency: buffers MD MH need a CUDA GPU, but rank 0 on .* has none: ' "$tmp/err" \
    || { cat "$tmp/err"; fail "no-GPU message"; }
[ "$(grep -c '^umb_latency: ' "$tmp/err")" -eq 1 ] || fail "more than one message line"
exit 0
