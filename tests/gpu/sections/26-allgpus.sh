#   allgpus:   every GPU of the machine, one rank each (issue 52; made for 8):
#              every collective with D, MD and MH on every rank, and bcast's
#              root apart, --path, the slowest rank at each size; umb_bw -U
#              MD MD between the two GPUs farthest apart (topo -m) and
#              umb_bcast -U MD on every GPU (the fault table); umb_copy
#              --direction peer over every pair. UMB_NODE_ONLY picks libraries.
# shellcheck shell=bash

# allgpus_one NAME N PROG ROOT OTHERS: one collective on N ranks, JSON.
allgpus_one() {
    local tag=$3-$4-$5 bufs="--buffer $5" rc
    [ "$4" = "$5" ] || bufs="--root-buffer $4 --buffer $5"
    timeout 150 $MPIEXEC $MPIEXEC_FLAGS -np "$2" "$BD/mpi/collective/$3" -m 8:4M -i 20 -x 2 --path --format json \
        --timeout 60 $bufs </dev/null >"$out/allgpus-$1-$tag.jsonl" 2>"$out/allgpus-$1-$tag.err"
    rc=$?
    printf '%-16s %-14s root %-2s others %-2s on %d GPUs: exit %d\n' "$1" "$3" "$4" "$5" "$2" $rc
}

# allgpus_coll NAME N COLLECTIVES: each collective with every rank D, MD
# or MH, then bcast with the root's placement apart from the others'.
allgpus_coll() {
    local prog kind root
    for prog in $3; do
        for kind in D MD MH; do allgpus_one "$1" "$2" "$prog" $kind $kind; done
    done
    for root in D MD MH; do for kind in D MD MH; do
        [ $root = $kind ] || allgpus_one "$1" "$2" umb_bcast $root $kind
    done; done
}

# The collectives' table: at 8 B, 64 KiB and 4 MiB the average latency and
# the slowest rank, and the rank slowest at the most sizes.
allgpus_table() {
python3 - "$out" <<'PY'
import collections, glob, json, os, sys
print("%-16s %-14s %-5s %-5s %16s %16s %16s  %s" % ("config", "program", "root", "other", "8 B (us, slow)",
      "64 KiB", "4 MiB", "slowest most often"))
for path in sorted(glob.glob(os.path.join(sys.argv[1], "allgpus-*-umb_*.jsonl"))):
    config, rest = os.path.basename(path)[len("allgpus-"):-len(".jsonl")].split("-umb_")
    prog, root, other = ("umb_" + rest).split("-")
    rows = {}
    for line in open(path, errors="replace"):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict) and o.get("type") == "result":
            rows[o["size"]] = o
    if not rows:
        err = [l for l in open(path[:-len(".jsonl")] + ".err", errors="replace").read().splitlines() if l.startswith(prog + ":")]
        print("%-16s %-14s %-5s %-5s skipped: %s" % (config, prog, root, other, err[-1][len(prog) + 2:][:100] if err else "no output"))
        continue
    cells = []
    for size in (8, 65536, 4194304):
        r = rows.get(size, {})
        v, s = r.get("avg_latency_us"), r.get("slowest_rank")
        cells.append("%16s" % ("-" if v is None else "%.1f (r%s)" % (v, "?" if s is None else s)))
    slow = collections.Counter(r.get("slowest_rank") for r in rows.values() if r.get("slowest_rank") is not None)
    most = "rank %d (%d of %d sizes)" % (slow.most_common(1)[0] + (len(rows),)) if slow else "-"
    print("%-16s %-14s %-5s %-5s %s  %s" % (config, prog, root, other, " ".join(cells), most))
PY
}

# The peer matrix: GB/s of copy-engine copies with peer access on, 256 MiB.
allgpus_peer_table() {
python3 - "$out/allgpus-peer.jsonl" <<'PY'
import json, sys
rate = {}
for line in open(sys.argv[1], errors="replace"):
    try:
        o = json.loads(line)
    except ValueError:
        continue
    if isinstance(o, dict) and o.get("type") == "result" and o.get("method") == "ce-p2p":
        a, b = map(int, o["gpu"].split("->"))
        rate[a, b] = o.get("median_gbs")
n = 1 + max([max(k) for k in rate] or [-1])
print("GB/s, copy engine, peer access on, 256 MiB (row: from, column: to)")
print("      " + "".join("%9s" % ("GPU%d" % j) for j in range(n)))
for i in range(n):
    print("GPU%-3d" % i + "".join("%9s" % ("-" if i == j else "n/a" if rate.get((i, j)) is None else "%.1f" % rate[i, j])
                               for j in range(n)))
PY
}

section_allgpus() {
stacks_setup || echo "allgpus: the machine's Open MPI only"
local n name stack flags far a b link colls
n=$(gpus)
colls=$(programs family=collective | paste -sd ' ')  # the registry's collectives
step "every GPU, one rank each: $n GPUs"
nvidia-smi topo -m 2>&1 | tee "$out/allgpus-topo.txt"
( cd "$build" && make tests/tools/topo_probe ) >"$out/allgpus-build.log" 2>&1 || { tail -5 "$out/allgpus-build.log"; status=1; return; }
step "every collective on all $n GPUs: every rank D, MD or MH, then bcast's root apart (--path)"
while IFS='|' read -r name stack flags; do
    [ "$stack" = system ] || stack_built "$stack" || { echo "$name: not built here"; continue; }
    with_stack "$name" "$stack" "$flags" bash -c "$(declare -f allgpus_one allgpus_coll); out='$out'; allgpus_coll $name $n '$colls'"
done < <(node_configs)
allgpus_table | tee "$out/allgpus-table.txt"
if [ "$n" -ge 2 ]; then
    far=$("$build/tests/tools/topo_probe" --farthest "$out/allgpus-topo.txt") || { echo "allgpus: $far"; status=1; return; }
    read -r _ a b link <<<"$far"
    step "the fault table: umb_bw -U MD MD between GPUs $a and $b (farthest apart: $link), umb_bcast -U MD on all $n"
    while IFS='|' read -r name stack flags; do
        [ "$stack" = system ] || stack_built "$stack" || continue
        with_stack "$name" "$stack" "$flags" bash -c "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$a,$b timeout 300 \
            \$MPIEXEC \$MPIEXEC_FLAGS -np 2 \$BD/mpi/pt2pt/umb_bw -U --precision off --format json --timeout 120 MD MD \
            </dev/null >'$out/faults-$name-bwfar.jsonl' 2>'$out/faults-$name-bwfar.err'; echo \"\$NAME umb_bw GPUs $a,$b: exit \$?\"
            timeout 300 \$MPIEXEC \$MPIEXEC_FLAGS -np $n \$BD/mpi/collective/umb_bcast -U -i 100 -x 10 --format json \
            --timeout 120 --buffer MD </dev/null >'$out/faults-$name-bcast.jsonl' 2>'$out/faults-$name-bcast.err'
            echo \"\$NAME umb_bcast on $n: exit \$?\""
    done < <(node_configs)
    faults_table
    step "umb_copy --direction peer over every pair of the $n GPUs, 256 MiB"
    timeout 300 "$build/c/umb_copy" --device all --direction peer -m 256M:256M --format json </dev/null \
        >"$out/allgpus-peer.jsonl" 2>"$out/allgpus-peer.err"
    echo "umb_copy --direction peer: exit $?"
    allgpus_peer_table | tee "$out/allgpus-peer.txt"
fi
}
