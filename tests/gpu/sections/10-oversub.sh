#   oversub: umb_oversub's patterns x modes, factors 0.1-0.9 and the refusal (~4.5 minutes on an H200 with a 256 GB host)
# shellcheck shell=bash

# umb_oversub over patterns, modes and factors 0.1 to 0.9 of free
# memory (only those whose pages fit in 70% of the host's available
# memory), and the refusal of 1.5. No oversubscription here. Apart from
# umb_um: with the build and make check they take about 8 minutes on an
# H200 with a 256 GB host (486 s), close to the GPU machine's 10-minute call.
section_oversub() {
local c=$build/c f
step "umb_oversub: every pattern x mode at 0.1 of free GPU memory"
timeout 120 "$c/umb_oversub" --factor 0.1 --mode demand,zerocopy,prefetch,stripe-2M --steps 32 >"$out/oversub-0.1.txt" 2>&1
echo "exit $?"; grep -E '^(# (GPU|Free|Sizes)|[0-9])' "$out/oversub-0.1.txt"
free_mib=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits -i 0 | head -1)
avail_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
f=$(for x in 0.1 0.3 0.5 0.7 0.9; do awk -v f=$x -v g="$free_mib" -v h="$avail_kib" 'BEGIN { if (f * g * 1024 < 0.7 * h) print f }'; done | paste -sd, -)
step "umb_oversub sweep, grid-stride read, factors $f (GPU free $free_mib MiB, host available $((avail_kib / 1024)) MiB)"
# Up to 0.9 of an H200 (125 GB) takes about 5 minutes with a 256 GB host; the limit only stops a hang.
timeout 420 "$c/umb_oversub" --factor "$f" --pattern grid --mode demand,zerocopy,prefetch >"$out/oversub-sweep.txt" 2>&1
echo "exit $?"; grep -E '^# (Sweep|grid|pattern)' "$out/oversub-sweep.txt"
python3 - "$out/oversub-0.1.txt" "$out/oversub-sweep.txt" <<'PY' || status=1
import sys
bad = 0
for path in sys.argv[1:]:
    peak, rows = None, {}
    for l in open(path):
        if l.startswith("# Memory peak (GiB/s):"): peak = float(l.split(":")[1])
        if l[:1].isdigit():
            f = l.split()
            rows[(f[1], f[2], f[3])] = float(f[4])
    ok = bool(rows) and peak and max(rows.values()) <= peak
    print("%s  %s: %d rows, highest %.1f GiB/s, peak %.1f" % ("PASS" if ok else "FAIL", path.split("/")[-1], len(rows), max(rows.values() or [0]), peak or 0))
    bad |= not ok
    for (fac, pat, mode), v in sorted(rows.items()):
        if mode == "prefetch" and pat == "grid":
            dv = rows.get((fac, pat, "demand"), 0)
            ok = v > 2 * dv
            print("%s  factor %s grid: prefetch %.1f >> demand %.1f GiB/s" % ("PASS" if ok else "FAIL", fac, v, dv)); bad |= not ok
sys.exit(bad)
PY
step "umb_oversub --factor 1.5 without --allow-oversubscription: refused"
timeout 60 "$c/umb_oversub" --factor 1.5 >"$out/oversub-refusal.txt" 2>&1
rc=$?; echo "exit $rc: $(cat "$out/oversub-refusal.txt")"
[ $rc -eq 1 ] && grep -q 'refused: .*--allow-oversubscription' "$out/oversub-refusal.txt" || { echo "FAIL refusal"; status=1; }
}
