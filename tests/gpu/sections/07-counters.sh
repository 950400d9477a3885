#   counters: --counters on MD MD / MD MH, and what counting costs
# shellcheck shell=bash

# --counters on the closing note's runs (4 KiB, 64 KiB, 4 MiB),
# then their cost: the same runs with and without --counters.
section_counters() {
local pt=$build/mpi/pt2pt
step "--counters: umb_latency MD MD and umb_bw MD MH at 4K, 64K, 4M (ob1)"
for run in "umb_latency -i 200 -x 20 MD MD" "umb_bw -i 20 -x 2 MD MH" \
           "umb_latency -i 200 -x 20 --place-with prefetch MD MD" "umb_bw -i 20 -x 2 --place-with prefetch MD MH"; do
    set -- $run
    f=$out/counters-$(echo "$run" | tr -d ' -').txt
    : >"$f"
    for m in 4K 64K 4M; do
        timeout 200 mpirun -np 2 $ob1 "$pt/$1" -U -f -m $m:$m --timeout 60 "${@:2}" >>"$f" 2>&1
        echo "--- $run -m $m --counters: exit $?"
        grep -E '^(# Counters|# Size|[0-9]|# [0-9] |# Rank  )' "$f" | tail -5
    done
done
step "umb_um --counters: the policy matrix, 256 MiB, 2 runs: what each policy migrates"
timeout 200 "$build/c/umb_um" -U --matrix --repeat 2 --size 256M --format json >"$out/um-counters.jsonl" 2>"$out/um-counters.err"
echo "exit $?"
python3 - "$out/um-counters.jsonl" <<'PY' | tee "$out/um-counters.txt"
import json, sys
M = 1 << 20
print("%-32s %-14s %9s %9s %9s %9s %9s %9s %9s" % ("advice", "prefetch", "GiB/s r1", "GiB/s r2", "HtoD r1", "HtoD r2",
      "pf HtoD r1", "GPUflt r1", "remote r1"))
for o in map(json.loads, open(sys.argv[1])):
    if o["type"] != "result" or "fastest_for" in o: continue  # summary rows apart
    mb = lambda k: "%9.0f" % (o[k] / M) if o.get(k) is not None else "%9s" % "n/a"
    print("%-32s %-14s %9.2f %9.2f %s %s %s %9.0f %9.0f" % (o["advice"], o["prefetch"], o["run1_gibs"], o["run2_gibs"],
          mb("run1_htod_bytes"), mb("run2_htod_bytes"), mb("run1_place_htod_bytes"),
          o["run1_gpu_fault_groups"] or 0, o["run1_remote_maps"] or 0))
print("(HtoD in MiB; pf = the prefetch before the run)")
PY

step "the cost of --counters: p50 with and without, same runs"
for run in "umb_latency -m 8:8 -i 5000 H H" "umb_latency -m 4K:4K -i 500 --place-with prefetch MD MD" \
           "umb_latency -m 8:8 -i 5000 --place once MD MD" \
           "umb_bw -m 4M:4M -i 20 H H" "umb_bw -m 4M:4M -i 20 --place-with prefetch MD MH"; do
    set -- $run
    for u in "" "-U"; do
        r=$(timeout 200 mpirun -np 2 $ob1 "$pt/$1" -f --format json --timeout 60 $u "${@:2}" 2>/dev/null \
            | python3 -c 'import json,sys
for o in map(json.loads, sys.stdin):
    if o["type"] == "result": print("avg %.2f p50 %.2f" % (o.get("avg_latency_us", o.get("avg_bandwidth_mbs")), o.get("p50_latency_us", o.get("p50_bandwidth_mbs"))))')
        echo "$run ${u:-(no counters)}: $r" | tee -a "$out/counters-cost.txt"
    done
done
}
