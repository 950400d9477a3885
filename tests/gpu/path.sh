#!/bin/sh
# --path is real (GPU machine; skipped, 77, without a GPU or CUPTI):
#  1. MD MD through this build's MPI: when it is not CUDA-aware, every
#     round trip shows at least the message's size in staging copies or
#     page migration (--counters), and the row names that path.
#  2. D D through a CUDA-aware stack, where UMB_AWARE_MPIEXEC (the launcher
#     with its flags) and UMB_AWARE_PT2PT (that build's mpi/pt2pt) name one
#     (tests/gpu/run-all why): from 64 KiB up the bytes go GPU to GPU
#     (device-to-device or peer copies, at least the message per one-way
#     trip) and the row says "direct".
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot read JSON"
grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h" || skip "built without CUPTI"
lat=$PT2PT/umb_latency
run_mpi 2 "$lat" --path -U -m 8:256K -i 20 -x 2 --format json MD MD
[ "$rc" -ne 77 ] || skip "no GPU: $(cat "$tmp/err")"
expect_rc 0 "umb_latency --path -U MD MD"
must_judge path-md "$tmp/out" 16
if [ -n "${UMB_AWARE_MPIEXEC:-}" ] && [ -n "${UMB_AWARE_PT2PT:-}" ]; then
    rc=0
    timeout "$RUN_LIMIT" $UMB_AWARE_MPIEXEC -np 2 "$UMB_AWARE_PT2PT/umb_latency" --path -m 8:4M -i 20 -x 2 --format json D D \
        </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    expect_rc 0 "umb_latency --path D D through $UMB_AWARE_MPIEXEC"
    must_judge path-dd "$tmp/out" 65536
else
    echo "D D part not run: no CUDA-aware stack named (UMB_AWARE_MPIEXEC, UMB_AWARE_PT2PT)"
fi
exit 0
