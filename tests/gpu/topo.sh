#!/bin/sh
# The bound of a path on a GPU machine (skipped, 77, without a GPU):
# tests/tools/topo_probe prints the link between GPU 0 and each GPU, each
# GPU's PCIe bound, and the bounds --measure-bound measures. GPU 0 with
# itself is "same GPU"; the measured HtoD and DtoH lie above 0 and below
# the nominal PCIe bound; with NVML and 2+ GPUs every pair is NVLink or
# PCIe, and agrees with nvidia-smi topo -m where the indices match.
. "$top_srcdir/tests/lib.sh"
probe=$top_builddir/tests/tools/topo_probe
[ -x "$probe" ] || skip "topo_probe is not built"
args=--measure
# nvidia-smi numbers GPUs in PCI bus order: so must CUDA, for the comparison.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi topo -m >"$tmp/topo.txt" 2>/dev/null; then
    args="$args --topo $tmp/topo.txt"
    export CUDA_DEVICE_ORDER=PCI_BUS_ID
fi
run_cmd "$probe" $args
[ "$rc" -ne 77 ] || skip "$(cat "$tmp/err")"
[ "$rc" -eq 0 ] || { echo "nvidia-smi topo -m printed:"; od -c "$tmp/topo.txt" | head -20; }
cat "$tmp/out"
expect_rc 0 "topo_probe $args"
[ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot check the probe's lines"
"$PYTHON3" - "$tmp/out" <<'PY' || fail "topo_probe's figures"
import math, sys
lines = [l.split() for l in open(sys.argv[1])]
nvml = [l for l in lines if l[0] == "nvml"][0][1] == "yes"
gpus = {int(l[1]): float(l[3]) for l in lines if l[0] == "gpu"}
links = {int(l[2]): l for l in lines if l[0] == "link"}
assert gpus and set(links) == set(gpus), (gpus, links)
assert links[0][3] == "same" and "same GPU" in " ".join(links[0]), links[0]
for j, l in links.items():
    if j and nvml:
        assert l[3] in ("nvlink", "pcie"), ("NVML is loaded, yet the link is", " ".join(l))
        assert float(l[4]) > 0, ("no nominal bound", " ".join(l))
hosts = [l for l in lines if l[0] == "host"]
assert len(hosts) == len(gpus), hosts
for h in hosts:
    g, htod, dtoh = int(h[1]), float(h[2]), float(h[3])
    nominal = gpus[g]
    assert htod > 0 and dtoh > 0, ("not measured", " ".join(h))
    if not math.isnan(nominal):
        assert htod < nominal and dtoh < nominal, ("above the nominal PCIe bound %.1f" % nominal, " ".join(h))
    print("GPU %d: HtoD %.1f, DtoH %.1f GB/s of %.1f nominal" % (g, htod, dtoh, nominal))
for p in (l for l in lines if l[0] == "peer"):
    j, gbs = int(p[2]), float(p[3])
    assert gbs > 0, ("peer copy not measured", " ".join(p))
    bound = float(links[j][4])
    # A direct copy stays under its link's nominal bound (within the GPU there is none).
    if j and p[4] == "1" and not math.isnan(bound):
        assert gbs < bound, ("peer copy above the link's nominal bound %.1f" % bound, " ".join(p))
    print("0->%d: %.1f GB/s, link %s" % (j, gbs, links[j][3]))
for c in (l for l in lines if l[0] == "compare"):
    assert c[3] in ("ok", "skipped"), " ".join(c)
PY
