#   pairs: a latency matrix of every buffer pair, compute-sanitizer, the suite
# shellcheck shell=bash

section_pairs() {
step "every buffer pair, ob1: avg latency (us)"
: >"$out/pairs.jsonl"
for a in H P D MH MD; do for b in H P D MH MD; do
    timeout 300 mpirun -np 2 $ob1 "$lat" -m 8:1M -i 100 -x 10 -c --format json --timeout 60 $a $b \
        >>"$out/pairs.jsonl" 2>>"$out/pairs.err"
    echo "{\"type\":\"exit\",\"buffers\":\"$a $b\",\"status\":$?}" >>"$out/pairs.jsonl"
done; done
python3 - "$out/pairs.jsonl" <<'PY' | tee "$out/pairs-table.txt"
import json, sys
rows, status = {}, {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["type"] == "result":
        rows.setdefault(o["buffers"], {})[o["size"]] = (o["avg_latency_us"], o["validation"])
    elif o["type"] == "exit":
        status[o["buffers"]] = o["status"]
sizes = [8, 4096, 65536, 1048576]
print("%-8s" % "SRC DST" + "".join("%12s" % ("%d B" % s) for s in sizes) + "  validation / exit")
for pair, st in status.items():
    r = rows.get(pair, {})
    cells = "".join("%12.2f" % r[s][0] if s in r else "%12s" % "-" for s in sizes)
    v = "all pass" if r and all(x[1] == "pass" for x in r.values()) else ("refused (77)" if st == 77 else "FAIL")
    print("%-8s%s  %s / %d" % (pair, cells, v, st))
PY

step "compute-sanitizer memcheck, MD MD"
timeout 300 mpirun -np 2 $ob1 compute-sanitizer --tool memcheck --error-exitcode 9 "$lat" -m 1:64K -i 20 -x 2 -c MD MD \
    >"$out/memcheck.txt" 2>&1
echo "exit $?"; grep -E "ERROR SUMMARY|Validation|^[0-9]|Error|error" "$out/memcheck.txt" | tail -25

step "default suite (scripts/umb-suite, as make bench runs it, shorter)"
UMB_BINDIR=$build/mpi/pt2pt MPIEXEC_FLAGS="$ob1" timeout 200 "$top/scripts/umb-suite" -m 1:4K -i 1000 >"$out/bench.log" 2>&1
echo "exit $?"; grep -E '^# (\[|umb-suite)' "$out/bench.log"

step "MD MD placed with prefetch instead of a touch kernel"
timeout 120 mpirun -np 2 $ob1 "$lat" -f -m 1:64K -i 1000 --place-with prefetch --timeout 60 MD MD >"$out/latency-prefetch-MD-MD.txt" 2>&1
echo "exit $?"; grep -v '^#' "$out/latency-prefetch-MD-MD.txt"
}
