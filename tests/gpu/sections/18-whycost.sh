#   whycost: what --path costs, tests/gpu/path.sh through a CUDA-aware stack, D D and MD MD under MPS
# shellcheck shell=bash

# What --path costs, tests/gpu/path.sh through a CUDA-aware stack, and D D
# and MD MD under MPS (one context for the two ranks).
section_whycost() {
stacks_setup || return
step "what --path costs: p50 with and without it, 3 interleaved rounds (ompi5-wheel over UCX, and ob1)"
for r in 1 2 3; do
    for cfg in "ompi5-wheel-ucx|ompi5-wheel|$ucx|D D" "ompi5-wheel-ucx|ompi5-wheel|$ucx|MD MD" "system-ob1|system|$ob1|H H"; do
        IFS='|' read -r name stack flags pair <<<"$cfg"
        for p in "" --path; do
            with_stack "$name" "$stack" "$flags" bash -c "timeout 120 \$MPIEXEC \$MPIEXEC_FLAGS -np 2 \$BD/mpi/pt2pt/umb_latency -m 8:4M -i 200 -x 20 $p --format json --timeout 60 $pair </dev/null" 2>/dev/null \
                | python3 -c "import json, sys
for o in map(json.loads, sys.stdin):
    if o['type'] == 'result' and o['size'] in (8, 4096, 65536, 4194304): print('round $r %-16s %-6s %-7s %8d %10.2f' % ('$name', '$pair', '${p:-plain}', o['size'], o['p50_latency_us']))"
        done
    done
done | tee "$out/why-cost.txt"
python3 - "$out/why-cost.txt" <<'PY' | tee -a "$out/why-cost.txt"
import collections, statistics, sys
v = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 8 and f[0] == "round": v[(f[2], f[3] + " " + f[4], int(f[6]), f[5])].append(float(f[7]))
print("median p50 over rounds, --path / plain:")
for key in sorted({k[:3] for k in v}):
    a, b = v.get(key + ("--path",)), v.get(key + ("plain",))
    if a and b: print("  %-16s %-6s %8d: %8.2f / %8.2f us = %.3f" % (key[0], key[1], key[2], statistics.median(a), statistics.median(b), statistics.median(a) / statistics.median(b)))
PY

step "tests/gpu/path.sh with a CUDA-aware stack (ompi5-wheel over UCX)"
with_stack ompi5-wheel-ucx ompi5-wheel "$ucx" bash -c "UMB_AWARE_MPIEXEC=\"\$MPIEXEC \$MPIEXEC_FLAGS\" UMB_AWARE_PT2PT=\$BD/mpi/pt2pt \
    top_builddir='$build' top_srcdir='$top' PYTHON3=python3 MPIEXEC=mpirun sh '$top/tests/gpu/path.sh'; echo \"path.sh: exit \$?\"" 2>&1 | tee "$out/why-path-test.txt"

command -v nvidia-cuda-mps-control >/dev/null || { echo "no nvidia-cuda-mps-control: MPS not tried"; return; }
step "under MPS (the two ranks share one context): D D and MD MD through ompi5-wheel and ompi4-cuda over UCX"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/umb-mps CUDA_MPS_LOG_DIRECTORY=/tmp/umb-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if timeout 30 nvidia-cuda-mps-control -d; then
    for cfg in "ompi5-wheel-ucx|ompi5-wheel|$ucx" "ompi4-cuda-ucx|ompi4-cuda|$ucx"; do
        IFS='|' read -r name stack flags <<<"$cfg"
        with_stack "$name" "$stack" "$flags" bash -c "$(declare -f why_runs); out='$out'; why_runs $name whymps 'umb_latency umb_bw' 'D-D MD-MD'"  # selection: as the why page
    done
    echo quit | timeout 60 nvidia-cuda-mps-control; sleep 2
    pgrep -f nvidia-cuda-mps >/dev/null && echo "MPS still running" || echo "MPS stopped"
    why_table whymps- | tee "$out/whymps-table.txt"
    cat "$out"/whymps-*.jsonl | grep '"type":"finding"' | python3 -c '
import json, sys
for o in map(json.loads, sys.stdin):
    print("  %s %s [%s] %s: %s" % (o["program"], o["buffers"], o["rows"], o["finding"], o["what"][:200]))' | tee "$out/whymps-findings.txt"
else
    echo "nvidia-cuda-mps-control -d failed: MPS not tried"
fi
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
