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
must_judge topo "$tmp/out"
exit 0
