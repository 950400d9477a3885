#   ctxswitch: two CUDA contexts taking turns on one GPU (tests/tools/ctx_switch, ucx_perftest), then under MPS
# shellcheck shell=bash

# Why D buffers cost a flat ~150 us with 2 ranks on one GPU (docs/stacks.md):
# two CUDA contexts taking turns, with and without UCX, then under MPS
# (started here with private pipe and log folders, and quit at the end).
section_ctxswitch() {
local perf=/opt/umb-stacks/ucx-cu13/libucx/bin/ucx_perftest
( cd "$build" && make tests/tools/ctx_switch ) >>"$out/build.log" 2>&1 || { echo "ctx_switch: build failed"; status=1; return; }
step "two processes taking turns on one GPU, each with its own context (tests/tools/ctx_switch)"
"$build/tests/tools/ctx_switch" 2000 | tee "$out/ctx-switch.txt"
if [ -x "$perf" ]; then
    step "ucx_perftest tag_lat cuda-to-cuda: one process (loopback, one context) and two"
    ( export LD_LIBRARY_PATH=/opt/umb-stacks/ucx-cu13/libucx/lib
      for sz in 8 65536 4194304; do
        echo "loopback  -s $sz: $(timeout 60 $perf -l -t tag_lat -m cuda -s $sz -n 500 -w 50 2>&1 | tail -1)"
      done ) | tee "$out/perftest-loopback.txt"
fi
command -v nvidia-cuda-mps-control >/dev/null || { echo "no nvidia-cuda-mps-control: MPS not tried"; return; }
step "the same under MPS (one shared context on the GPU)"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/umb-mps CUDA_MPS_LOG_DIRECTORY=/tmp/umb-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if timeout 30 nvidia-cuda-mps-control -d; then
    "$build/tests/tools/ctx_switch" 2000 | tee "$out/ctx-switch-mps.txt"
    if [ -x "$perf" ]; then
        ( export LD_LIBRARY_PATH=/opt/umb-stacks/ucx-cu13/libucx/lib
          for sz in 8 65536 4194304; do
            timeout 60 $perf -t tag_lat -m cuda -s $sz -n 200 -w 20 -p 13338 >/dev/null 2>&1 &
            sleep 1
            echo "two processes under MPS -s $sz: $(timeout 60 $perf 127.0.0.1 -t tag_lat -m cuda -s $sz -n 200 -w 20 -p 13338 2>&1 | tail -1)"
            wait
          done ) | tee "$out/perftest-mps.txt"
    fi
    if stacks_setup >/dev/null; then
        with_stack ompi5-wheel-ucx ompi5-wheel "$ucx" bash -c "$(declare -f d_latency); out='$out'; d_latency under-MPS"
        with_stack system-ob1 system "$ob1" bash -c "timeout 120 mpirun $ob1 -np 2 $build/mpi/pt2pt/umb_latency -m 4K:4K -i 300 -x 20 -f --place-with prefetch MD MD 2>&1 | grep -E '^(# Size|4096)' | sed 's/^/MD MD under MPS, ob1: /'"
    fi
    echo quit | timeout 60 nvidia-cuda-mps-control; sleep 2
    pgrep -f nvidia-cuda-mps >/dev/null && echo "MPS still running" || echo "MPS stopped"
else
    echo "nvidia-cuda-mps-control -d failed: MPS not tried"
fi
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
