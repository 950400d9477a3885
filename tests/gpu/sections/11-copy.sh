#   copy: umb_copy against a plain cudaMemcpyAsync loop, every memory kind as a fraction of the link (~2 minutes)
# shellcheck shell=bash

# umb_copy. The plain cudaMemcpyAsync loop (tests/tools/memcpy_loop)
# and umb_copy's pinned figures in the same run; the default matrix as one
# table at 256 MiB, each figure as a fraction of the link; bidir, --cputiming,
# --numa-node 0, --flush, --units GiB. Buffers <= 1 GiB; about 2 minutes.
section_copy() {
local cp=$build/c/umb_copy ref=$build/tests/tools/memcpy_loop f
step "umb_copy: host<->device copy bandwidth against a plain cudaMemcpyAsync loop"
( cd "$build" && make -j16 c/umb_copy tests/tools/memcpy_loop ) >>"$out/build.log" 2>&1 || { echo "build failed"; status=1; return; }
: >"$out/copy-ref.txt"
for bytes in 268435456 1073741824; do
    timeout 120 "$ref" $bytes 8 10 >>"$out/copy-ref.txt" 2>&1 || { echo "memcpy_loop $bytes failed"; status=1; }
done
cat "$out/copy-ref.txt"
: >"$out/copy.jsonl"
while read -r name args; do
    f=$out/copy-$name.jsonl
    timeout 200 "$cp" $args --format json >"$f" 2>"$out/copy-$name.err"
    rc=$?
    echo "--- umb_copy $args: exit $rc $(head -c 300 "$out/copy-$name.err")"
    [ $rc -eq 0 ] || status=1
    sed "s/^{/{\"run\":\"$name\",/" "$f" >>"$out/copy.jsonl"
done <<'RUNS'
pinned --memory pinned --direction htod,dtoh --method ce --size 256M,1G --cputiming
matrix --size 4K,1M,256M
bidir --memory pinned,wc,registered --direction bidir --size 256M,1G --cputiming
sm --memory pinned --direction htod,dtoh --method sm --size 256M
numa0 --memory pageable,pinned --direction htod,dtoh --size 256M --numa-node 0
flush --memory pageable,pinned --direction htod --size 1M,256M --flush
gib --memory pinned --direction htod --size 256M --units GiB
device --memory device,managed-device --direction dtod --size 256M
RUNS
timeout 60 "$cp" --size 4K,1M,256M -r 3 >"$out/copy-matrix-table.txt" 2>&1 || status=1
grep -E '^# (GPU|Link|NUMA)' "$out/copy-matrix-table.txt"
timeout 60 "$cp" --memory pinned --direction htod --method ce --start 4K --end 1G --grow 16 -r 3 --format json >"$out/copy-range.jsonl" 2>&1
# 4K, 64K, 1M, 16M, 256M, then the end, 1G: the end is always measured.
python3 "$top/tests/json_check.py" --rows 6 --header gpus sizes --keys median_gbs link_pct --validation pass --positive median_gbs \
    <"$out/copy-range.jsonl" && echo "json_check: pinned htod 4K..1G range: ok" || { echo "json_check failed"; status=1; }
python3 - "$out/copy.jsonl" "$out/copy-ref.txt" <<'PY' | tee "$out/copy-table.txt"
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ref = {}
for m in re.finditer(r"memcpy_loop (\w+) (\d+) bytes x \d+ copies: median ([\d.]+) GB/s", open(sys.argv[2]).read()):
    ref[(m.group(1), int(m.group(2)))] = float(m.group(3))
heads = {r["run"]: r for r in rows if r["type"] == "header"}
res = [r for r in rows if r["type"] == "result"]
bad = 0
g = heads.get("pinned", {}).get("gpus", [{}])[0]
limit = g.get("link_limit_gbs")
print("GPU %s, PCIe %s, GPU NUMA node %s, link limit %s GB/s per direction" % (g.get("name"), g.get("pcie"), g.get("numa"), limit))
for r in res:
    if r["validation"] != "pass": print("VALIDATION FAILED:", r); bad = 1
    if r.get("link_pct") is not None and r["link_pct"] > 100: print("ABOVE THE LINK LIMIT:", r); bad = 1
print("\npinned ce against the plain cudaMemcpyAsync loop (median GB/s, same run; need >= 0.95 x):")
print("%-6s %11s %10s %10s %8s %9s" % ("dir", "bytes", "umb_copy", "loop", "ratio", "CPU GB/s"))
for r in res:
    if r["run"] != "pinned": continue
    want = ref.get((r["direction"], r["size"]))
    ratio = r["median_gbs"] / want if want else float("nan")
    ok = want is not None and ratio >= 0.95
    bad |= not ok
    print("%-6s %11d %10.2f %10s %8.3f %9.2f%s" % (r["direction"], r["size"], r["median_gbs"], "%.2f" % want if want else "-", ratio,
          r.get("cpu_median_gbs", float("nan")), "" if ok else "  BELOW 0.95 x THE LOOP"))
print("\nevery kind at 256 MiB (default matrix, bidir, sm, numa0, flush): median GB/s, %% of the link limit, CV %%")
print("%-7s %-15s %-11s %-9s %9s %8s %7s %s" % ("run", "memory", "direction", "method", "GB/s", "of link", "CV %", "valid"))
for r in res:
    if r["size"] != 268435456 or r["run"] in ("pinned", "gib"): continue
    lp = "%7.1f%%" % r["link_pct"] if r.get("link_pct") is not None else "%8s" % "-"
    print("%-7s %-15s %-11s %-9s %9.2f %s %7.2f %s" % (r["run"], r["memory"], r["direction"], r["method"], r["median_gbs"], lp, r["cv_pct"], r["validation"]))
gib = [r for r in res if r["run"] == "gib"]
if gib: print("\n--units GiB: pinned htod 256 MiB median %.2f GiB/s" % gib[0]["median_gibs"])
sys.exit(bad)
PY
[ $? -eq 0 ] || status=1
}
