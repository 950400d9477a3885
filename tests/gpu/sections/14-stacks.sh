#   stacks: umb-run --set aware over every stack and the machine's Open MPI, umb-compare
#   stackcounters: --counters for MD MD, MD MH, MH MH through each configuration; UCX's protocols for MD
# shellcheck shell=bash

section_stacks() {
stacks_setup || return
step "umb-run --set aware over every configuration (2 ranks, one GPU)"
local dirs=() name stack flags
while IFS='|' read -r name stack flags; do
    with_stack "$name" "$stack" "$flags" bash -c "timeout 420 python3 '$top/scripts/umb-run' --set aware --out '$out/aware-$name' \
        --bindir \"\$BD\" -- --timeout 60 ${UMB_AWARE_EXTRA:-} >'$out/aware-$name.log' 2>&1; echo \"--- \$NAME: exit \$?\"; tail -1 '$out/aware-$name.log'"
    python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print("   ", m.get("cuda_aware", {}).get("line"))' "$out/aware-$name/run.json" 2>/dev/null
    dirs+=("$out/aware-$name")
done < <(stack_configs)
python3 "$top/scripts/umb-compare" "${dirs[@]}" --plot "$out/aware-compare.png" >"$out/aware-compare.txt"
grep -E '^# \[' "$out/aware-compare.txt"
}

# What MD and MH pages do inside each configuration: --counters per round
# trip (UCX_STACK_CONFIGS limits the list), and UCX's protocol choice for
# MD MD at 4 MiB through the wheel.
section_stackcounters() {
stacks_setup || return
step "--counters: MD MD, MD MH and MH MH latency through each configuration (8 B, 64 KiB, 4 MiB)"
while IFS='|' read -r name stack flags; do
    with_stack "$name" "$stack" "$flags" bash -c "for pair in 'MD MD' 'MD MH' 'MH MH'; do for m in 8 64K 4M; do
        timeout 120 \$MPIEXEC \$MPIEXEC_FLAGS -np 2 \$BD/mpi/pt2pt/umb_latency -m \$m:\$m -i 50 -x 5 -U --format json --timeout 60 \$pair \
            >>'$out/aware-counters-$name.jsonl' 2>>'$out/aware-counters-$name.err'; done; done" </dev/null  # mpirun reads stdin
done < <(stack_configs | grep -E "${UMB_STACK_CONFIGS:-.}")
python3 - "$out" <<'PY' | tee "$out/aware-counters.txt"
import glob, json, os, sys
print("%-16s %-6s %8s %10s %12s %12s %9s %9s" % ("config", "pair", "size", "p50 us", "DtoH B/it", "HtoD B/it", "CPU flt", "GPU flt"))
for path in sorted(glob.glob(os.path.join(sys.argv[1], "aware-counters-*.jsonl"))):
    name = os.path.basename(path)[len("aware-counters-"):-len(".jsonl")]
    for o in map(json.loads, open(path)):
        if o["type"] != "result": continue
        f = lambda k: "%12.0f" % o[k] if o.get(k) is not None else "%12s" % "n/a"
        print("%-16s %-6s %8d %10.2f %s %s %9.1f %9.1f" % (name, o["buffers"].replace(" ", "-"), o["size"], o["p50_latency_us"],
              f("dtoh_bytes_per_iter"), f("htod_bytes_per_iter"), o.get("cpu_faults_per_iter") or 0, o.get("gpu_fault_groups_per_iter") or 0))
PY
step "UCX's protocols for MD MD at 4 MiB through the wheel (UCX_PROTO_INFO=y)"
with_stack ompi5-wheel-ucx ompi5-wheel "$ucx" bash -c "UCX_PROTO_INFO=y timeout 120 \$MPIEXEC \$MPIEXEC_FLAGS -np 2 \$BD/mpi/pt2pt/umb_latency -m 4M:4M -i 20 -x 2 MD MD" \
    >"$out/proto-md.txt" 2>&1
grep -E 'cuda|host' "$out/proto-md.txt" | grep -v '^#' | sed 's/^\[[^]]*\] *\[[^]]*\] *//' | sort -u | head -30
}
