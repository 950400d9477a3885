#   bandwidth: memcpy bound, 4 MiB bw/bibw table of every pair, mbw_mr
# shellcheck shell=bash

section_bandwidth() {
pt2pt=$build/mpi/pt2pt
step "memcpy: the bound for a shared-memory copy"
"$build/tests/tools/memcpy_bw" | tee "$out/memcpy.txt"

step "umb_bw and umb_bibw, every buffer pair, 4 MiB, ob1 (OMB defaults: window 64, 20 iterations)"
: >"$out/bw4m.jsonl"
for prog in $(window_programs "$build"); do for a in H P D MH MD; do for b in H P D MH MD; do
    for c in "" "-c"; do
        timeout 120 mpirun -np 2 $ob1 "$pt2pt/$prog" -m 4M:4M $c -i $([ -n "$c" ] && echo 3 || echo 20) \
            --format json --timeout 60 $a $b >"$out/one.jsonl" 2>>"$out/bw4m.err"
        rc=$?
        sed "s/^{/{\"check\":\"${c:-none}\",/" "$out/one.jsonl" >>"$out/bw4m.jsonl"
        echo "{\"type\":\"exit\",\"program\":\"$prog\",\"buffers\":\"$a $b\",\"check\":\"${c:-none}\",\"status\":$rc}" >>"$out/bw4m.jsonl"
    done
done; done; done
python3 - "$out/bw4m.jsonl" "$out/memcpy.txt" <<'PY' | tee "$out/bw4m-table.txt"
import json, re, sys
res, st = {}, {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    key = (o.get("program"), o.get("buffers"), o["check"])
    if o["type"] == "result": res[key] = o
    elif o["type"] == "exit": st[key] = o["status"]
memcpy = [float(m) for m in re.findall(r"best +(\d+) MB/s", open(sys.argv[2]).read())]
LINK = 63000.0  # PCIe Gen5 x16, one direction, MB/s
print("4 MiB, MB/s (10^6). PCIe limit %.0f MB/s per direction; best memcpy 4 MiB %.0f, 256 MiB %.0f MB/s" % (LINK, memcpy[0], memcpy[1]))
print("%-6s %-8s %12s %9s %12s  %s" % ("", "SRC DST", "MB/s", "of limit", "p99 MB/s", "-c / exit"))
bad = 0
for prog in sorted({k[0] for k in st}):
    for (p, pair, c), s in st.items():
        if p != prog or c != "none": continue
        r, rc = res.get((p, pair, "none")), res.get((p, pair, "-c"))
        vc = rc["validation"] if rc else "refused (%d)" % st.get((p, pair, "-c"), -1)
        if not r:
            print("%-6s %-8s %12s %9s %12s  %s / %d" % (prog[4:], pair, "-", "-", "-", vc, s)); continue
        bw = r["avg_bandwidth_mbs"]; per_dir = bw / (2 if prog == "umb_bibw" else 1)
        crosses = "D" in pair
        frac = "%8.0f%%" % (100 * per_dir / LINK) if crosses else "%9s" % "host"
        flag = ""
        if crosses and per_dir > LINK: flag = "  ABOVE LINK LIMIT"; bad = 1
        if vc != "pass": bad = 1
        print("%-6s %-8s %12.0f %s %12.0f  %s / %d%s" % (prog[4:], pair, bw, frac, r["p99_bandwidth_mbs"], vc, s, flag))
sys.exit(bad)
PY
[ $? -eq 0 ] || status=1

step "umb_mbw_mr, 1 and 2 pairs, 8 B to 4 MiB, ob1"
for np in 2 4; do for pair in "H H" "MD MH"; do
    timeout 200 mpirun -np $np --oversubscribe $ob1 "$pt2pt/umb_mbw_mr" -m 8:4M -i 10 -x 2 -c --timeout 60 $pair >"$out/mbw-$np-${pair// /-}.txt" 2>&1
    echo "--- umb_mbw_mr -np $np -c $pair: exit $?"; grep -E '^(# Pairs|# Window buffers|[0-9])' "$out/mbw-$np-${pair// /-}.txt" | sed -n '1,2p;/^8 /p;/^65536 /p;/^4194304 /p'
done; done
}
