#   placement: the placement check's two views (latency, bw, bcast), its cost at 4 MiB, light counters
# shellcheck shell=bash

# The placement check (docs/method.md): both views of umb_latency, umb_bw
# and umb_bcast, what the check costs at 4 MiB, and the light counters.
section_placement() {
local pt=$build/mpi/pt2pt co=$build/mpi/collective
step "placement check: umb_latency -f MD MD, 1 B to 4 MiB, enforce (default) and observe"
for view in enforce observe; do
    timeout 300 mpirun -np 2 $ob1 "$pt/umb_latency" -f -m 1:4M -i 300 -x 20 --place-check $view --timeout 60 MD MD \
        >"$out/place-latency-$view.txt" 2>&1
    echo "--- umb_latency --place-check $view MD MD: exit $?"; grep -E '^(# Placement check|# UVM|# Size|[0-9]|# size|# [0-9] )' "$out/place-latency-$view.txt"
done
step "placement check: umb_bw -f MD MD, 1 B to 4 MiB, both views"
for view in enforce observe; do
    timeout 300 mpirun -np 2 $ob1 "$pt/umb_bw" -f -m 1:4M -i 20 -x 2 --place-check $view --timeout 60 MD MD \
        >"$out/place-bw-$view.txt" 2>&1
    echo "--- umb_bw --place-check $view MD MD: exit $?"; grep -E '^(# Size|[0-9]|# size|# [0-9] )' "$out/place-bw-$view.txt"
done
step "placement check: umb_bcast -f --root-buffer MD --buffer MH, 4 ranks, both views"
for view in enforce observe; do
    timeout 300 mpirun -np 4 $ob1 "$co/umb_bcast" -f -m 1:1M -i 300 -x 20 --place-check $view --timeout 60 \
        --root-buffer MD --buffer MH >"$out/place-bcast-$view.txt" 2>&1
    echo "--- umb_bcast --place-check $view root MD others MH: exit $?"; grep -E '^(# Size|[0-9]|# size|# [0-9] )' "$out/place-bcast-$view.txt"
done
step "the check's cost at 4 MiB: wall time of umb_latency -m 4M:4M -i 300 MD MD, check off / enforce, 3 rounds"
for r in 1 2 3; do for view in off enforce; do
    t0=$(date +%s.%N)
    timeout 200 mpirun -np 2 $ob1 "$pt/umb_latency" -m 4M:4M -i 300 -x 10 --place-check $view --format json \
        --timeout 60 MD MD >"$out/place-cost.jsonl" 2>/dev/null
    t1=$(date +%s.%N)
    python3 - "$out/place-cost.jsonl" "$view" "$r" "$t0" "$t1" <<'PY' | tee -a "$out/place-cost.txt"
import json, sys
rows = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "result"]
o = rows[0] if rows else {}
print("round %s %-8s wall %.2f s  p50 %.1f us  check p50 %s us  place p50 %s us" % (sys.argv[3], sys.argv[2],
      float(sys.argv[5]) - float(sys.argv[4]), o.get("p50_latency_us", float("nan")), o.get("check_p50_us"), o.get("place_p50_us")))
PY
done; done
step "the cost of counting: umb_latency --place-with prefetch MD MD at 4 KiB, none / light / full, 3 rounds"
for r in 1 2 3; do for u in "" "--counters=light" "--counters"; do
    timeout 200 mpirun -np 2 $ob1 "$pt/umb_latency" -m 4K:4K -i 1000 -x 50 --place-with prefetch --format json \
        --timeout 60 $u MD MD 2>/dev/null | python3 -c 'import json, sys
for o in map(json.loads, sys.stdin):
    if o["type"] == "result": print("round '$r' %-18s p50 %.2f us  avg %.2f us  minflt/it %s" % ("'"${u:-none}"'", o["p50_latency_us"], o["avg_latency_us"], o.get("minor_faults_per_iter")))' \
        | tee -a "$out/counting-cost.txt"
done; done
}
