#   stability: issue 33's three cases (and H H) run 5 times each as they are, then the findings
#             table: per finding, runs fired, rows, confirmed over the runs as rounds (umb-findings)
# shellcheck shell=bash

# Stability of the findings (issue 33): each case run 5 times as it is, one
# umb-run folder per run; then per finding: in how many runs it fired, with
# which rows, and whether umb-findings confirms it over the 5 as rounds.
# stab_runs NAME SET MATCH EXTRA: 5 runs into $out/stab/NAME-1..5 (with_stack's MPIEXEC).
stab_runs() {
    for k in 1 2 3 4 5; do
        timeout 300 python3 "$top/scripts/umb-run" --set "$2" --match "$3" --rounds 1 --np 2 --run-limit 240 \
            --bindir "$BD" --out "$out/stab/$1-$k" -- $4 </dev/null 2>&1 | tail -1
    done
}

stab_table() {  # stab_table NAME
    python3 - "$top/scripts" "$out/stab" "$1" <<'PY'
import glob, json, os, subprocess, sys
scripts, top, name = sys.argv[1:4]
runs = sorted(glob.glob(os.path.join(top, name + "-[0-9]")))
fired = {}
for d in runs:
    for f in json.load(open(os.path.join(d, "run.json"))).get("runs", []):
        for x in f.get("findings", []):
            fired.setdefault(x["finding"], []).append(x["rows"])
out = subprocess.run([sys.executable, os.path.join(scripts, "umb-findings"), "--json"] + runs, capture_output=True, text=True)
pooled = {f["finding"]: f for f in json.loads(out.stdout or "[]")} if out.returncode == 0 else {}
print("%s: %d runs%s" % (name, len(runs), "" if out.returncode == 0 else "; umb-findings: " + out.stderr.strip()))
print("  %-28s %-6s %-44s %s" % ("finding", "fired", "rows (runs)", "over the runs as rounds"))
for k in sorted(set(fired) | set(pooled)):
    rows = sorted(set(fired.get(k, [])))
    p = pooled.get(k, {})
    print("  %-28s %d of %d %-44s %s" % (k, len(fired.get(k, [])), len(runs), "; ".join("%s (%d)" % (r, fired[k].count(r)) for r in rows)[:44],
          ("confirmed [%s]" % p["rows"]) if p.get("confirmed") else "seen %s, not confirmed" % p.get("seen") if p else "-"))
PY
}

section_stability() {
stacks_setup || echo "stability: the machine's Open MPI cases only"
step "findings over identical runs: each case 5 times, then confirmed over the runs as rounds (umb-findings)"
mkdir -p "$out/stab"
with_stack system-ob1 system "$ob1" bash -c "$(declare -f stab_runs); out='$out' top='$top'; stab_runs hh-cpu quick '^umb_latency H H$' '-m 1:1M -i 10000 -x 100 --precision off'"
with_stack system-ob1 system "$ob1" bash -c "$(declare -f stab_runs); out='$out' top='$top'; stab_runs mdmd-system quick '^umb_latency MD MD$' '-m 1:1M -i 1000 -x 10 --precision off'"
stab_mps
for n in hh-cpu mdmd-system dd-ompi5-mps bwmdmd-ompi4-mps; do
    [ -d "$out/stab/$n-1" ] && stab_table $n
done | tee "$out/stability.txt"
}

stab_mps() {  # the two cases under MPS, through the carried stacks
if ! command -v nvidia-cuda-mps-control >/dev/null; then echo "no nvidia-cuda-mps-control: the MPS cases not run"; return; fi
if ! stack_built ompi5-wheel || ! stack_built ompi4-cuda; then
    echo "ompi5-wheel or ompi4-cuda not built: the MPS cases not run"; return
fi
export CUDA_MPS_PIPE_DIRECTORY=/tmp/umb-mps CUDA_MPS_LOG_DIRECTORY=/tmp/umb-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if timeout 30 nvidia-cuda-mps-control -d; then
    with_stack ompi5-wheel-ucx ompi5-wheel "$ucx" bash -c "$(declare -f stab_runs); out='$out' top='$top'; stab_runs dd-ompi5-mps why '^umb_latency D D$' '-m 1:1M -i 10000 -x 100'"
    with_stack ompi4-cuda-ucx ompi4-cuda "$ucx" bash -c "$(declare -f stab_runs); out='$out' top='$top'; stab_runs bwmdmd-ompi4-mps why '^umb_bw MD MD$' '-m 64K:4M'"
    echo quit | timeout 60 nvidia-cuda-mps-control; sleep 2
else
    echo "nvidia-cuda-mps-control -d failed: the MPS cases not run"
fi
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
