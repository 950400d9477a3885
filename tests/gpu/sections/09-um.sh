#   um: umb_um's policy matrix and baselines (~1.5 minutes on an H200)
# shellcheck shell=bash

# umb_um's policy matrix (with and without host writes between
# runs) and baselines.
section_um() {
local c=$build/c
step "umb_um --matrix --repeat 3: 1 GiB read, the CPU writes every byte between runs"
timeout 170 "$c/umb_um" --matrix --repeat 3 --touch-on-host >"$out/um-matrix-touch.txt" 2>&1
echo "exit $?"; grep -v '^# \(Date\|Host\|CUDA\|Timing\|Policy\|Program\)' "$out/um-matrix-touch.txt"
step "umb_um --matrix --repeat 3: 256 MiB read, nothing between runs"
timeout 90 "$c/umb_um" --matrix --repeat 3 --size 256M >"$out/um-matrix.txt" 2>&1
echo "exit $?"; grep -E '^(# Fastest|[0-9])' "$out/um-matrix.txt"
step "umb_um baselines, 1 GiB, 3 runs"
: >"$out/um-baselines.txt"
for args in "--memory managed --op write" "--memory managed --op write --touch-on-host" \
            "--memory pinned" "--memory pinned --op write" "--memory numa-host" \
            "--memory device" "--memory device --op write"; do
    timeout 60 "$c/umb_um" --repeat 3 $args >"$out/um-one.txt" 2>&1
    echo "$args (exit $?): $(grep -E '^[0-9]' "$out/um-one.txt" | tr -s ' ')$(grep -v '^#' "$out/um-one.txt" | grep -v '^[0-9]')" \
        | tee -a "$out/um-baselines.txt"
done
python3 - "$out/um-matrix-touch.txt" "$out/um-matrix.txt" "$out/um-baselines.txt" <<'PY' || status=1
import re, sys
def load(path):
    rows, peak = {}, None
    for l in open(path):
        if l.startswith("# Memory peak (GiB/s):"): peak = float(l.split(":")[1])
        if l.startswith("#") or not l.strip() or not l[0].isdigit(): continue
        f = l.split()
        if f[1] in ("single", "repeated"): continue  # the summary rows (Fastest for)
        rows[(f[2], f[3])] = [float(x) for x in f[4:]]
    return rows, peak
T, peak = load(sys.argv[1]); N, _ = load(sys.argv[2])
gpu = "".join(l for l in open(sys.argv[1]) if l.startswith("# GPU"))  # "# GPU 0: ..." (umb_drive_header)
link = re.search(r"max Gen(\d) x(\d+)", gpu) or re.search(r"PCIe Gen(\d) x(\d+)", gpu)  # the link idles at a lower generation
limit = {3: 8e9 * 128 / 130, 4: 16e9 * 128 / 130, 5: 32e9 * 128 / 130}.get(int(link.group(1)), 0) * int(link.group(2)) / 8 / 2**30 if link else 0
bad = 0
def check(ok, what):
    global bad
    print("%s  %s" % ("PASS" if ok else "FAIL", what)); bad |= not ok
if not T or not N:
    check(False, "both matrices ran (36 rows each)"); sys.exit(1)
check(len(T) == 36 and len(N) == 36, "36 policies in each matrix")
miss = [0.0] * 3  # a row that did not run fails its check
d, pf, ab = T.get(("none", "none"), miss), T.get(("none", "whole"), miss), T.get(("AB", "none"), miss)
check(pf[1] > 5 * d[1], "host writes between runs: prefetch run 2 %.1f >> demand run 2 %.1f GiB/s" % (pf[1], d[1]))
check(ab[0] > 1.5 * d[0], "accessed-by run 1 %.1f >> demand run 1 %.1f GiB/s" % (ab[0], d[0]))
dn, rm = N.get(("none", "none"), miss), N.get(("RM", "none"), miss)
check(dn[1] > 5 * dn[0], "no host writes: demand run 2 %.1f (HBM) >> run 1 %.1f GiB/s" % (dn[1], dn[0]))
check(rm[1] > 5 * rm[0], "no host writes: read-mostly run 2 %.1f (duplicated) >> run 1 %.1f GiB/s" % (rm[1], rm[0]))
top = max(max(v) for m in (T, N) for v in m.values())
check(peak and top <= peak, "nothing above the memory peak: highest %.1f, peak %.1f GiB/s" % (top, peak or 0))
for l in open(sys.argv[3]):
    m = re.match(r"--memory (pinned|numa-host)\S* .*\(exit 0\): \S+ \S+ \S+ \S+ ([\d.]+) ([\d.]+) ([\d.]+)", l)
    if m and limit:
        check(max(map(float, m.groups()[1:])) <= limit, "%s over PCIe: %s GiB/s, at most the link's %.1f GiB/s" % (m.group(1), " ".join(m.groups()[1:]), limit))
for k in [("P=cpu", "none"), ("AB+P=cpu", "none"), ("RM", "none"), ("none", "blocks:64M")]:
    print("info: %-22s touch: %s   no touch: %s" % ("/".join(k), " ".join("%.1f" % x for x in T.get(k, [])), " ".join("%.1f" % x for x in N.get(k, []))))
sys.exit(bad)
PY
}
