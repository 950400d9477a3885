#   precision: the whole umb-run --set quick (latency +-10%) against the old set (--precision off),
#             wall time and the precision reached; umb_latency H MD as --set full runs it
# shellcheck shell=bash

# The whole quick set now (latency: -i 1000, +-10%) against the old set
# (--precision off: bw and bcast did not change), wall time each; the
# latency rows' precision; then umb_latency H MD with --set full's options
# (none: the precision default; 80 s on the H200 with OMB's 10000).
section_precision() {
step "umb-run --set quick (latency: each size to +-10%, 1 s at most), then with --precision off (the old set)"
# UMB_PRECISION_OLD=0 skips the old set.
quick_set() {  # NAME [BENCHMARK OPTIONS]: the runs in $out/quick-NAME, with their wall time
    local name=$1 t0=$(date +%s); shift
    timeout 400 python3 "$top/scripts/umb-run" --set quick --bindir "$build" \
        --out "$out/quick-$name" -- "$@" </dev/null >"$out/quick-$name.log" 2>&1
    echo "--- the quick set ($name${*:+: $*}): exit $?, $(( $(date +%s) - t0 )) s"
    grep '^\[' "$out/quick-$name.log" | sed 's/^/    /'
}
quick_set now
[ "${UMB_PRECISION_OLD:-1}" = 1 ] && quick_set old --precision off
python3 - "$out" <<'PY' | tee "$out/quick-precision.txt"
import glob, json, os, sys
for how in ("now", "old"):
    for f in sorted(glob.glob(os.path.join(sys.argv[1], "quick-" + how, "umb_latency-*.jsonl"))):
        rows = [o for o in map(json.loads, open(f)) if o.get("type") == "result"]
        if not rows:
            continue
        p = [r.get("precision_pct") for r in rows]
        print("%-4s %-22s iterations %6d-%-6d  +-%% %s  avg us at 8 B %.2f, 64 KiB %.2f" % (how, os.path.basename(f)[:-6],
              min(r["iterations"] for r in rows), max(r["iterations"] for r in rows),
              "n/a" if all(x is None for x in p) else "%.1f-%.1f" % (min(x for x in p if x is not None), max(x for x in p if x is not None)),
              next(r["avg_latency_us"] for r in rows if r["size"] == 8), rows[-1]["avg_latency_us"]))
PY
step "umb_latency H MD as --set full runs it (OMB's sizes, the precision default)"
t0=$(date +%s)
timeout 200 mpirun -np 2 $ob1 "$lat" --timeout 60 H MD >"$out/latency-full-H-MD.txt" 2>&1
echo "--- exit $?, $(( $(date +%s) - t0 )) s"; grep -v '^# \(Date\|Rank\|MPI env\)' "$out/latency-full-H-MD.txt" | tail -32
}
