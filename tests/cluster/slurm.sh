#!/bin/sh
# A real Slurm cluster of two nodes on this machine (tests/cluster/cluster:
# each node a network and UTS namespace with its own slurmd): the Slurm
# batch script in its three layouts, srun and mpirun inside an allocation,
# umb_latency, umb_bw and umb_bcast across the nodes over TCP, a rank that
# stops (--timeout ends the job with the reason), and mpirun --host across
# the nodes without Slurm (an rsh agent that enters a node). Skips (77)
# where no cluster can start here: not root, no Slurm or munge, no network
# namespaces; and for an MPI other than Open MPI (launched through Slurm's
# PMIx and mpirun's rsh agent). docs/cluster.md.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
needs_scripts  # umb-run, through the batch script
"$MPIEXEC" --version 2>&1 | grep -q "Open MPI" || skip "the cluster tests launch Open MPI; $MPIEXEC is another MPI"
CL=$top_srcdir/tests/cluster/cluster
cl=$tmp/cluster
trap '"$CL" stop "$cl"; rm -rf "$tmp"' EXIT
t0=$(date +%s)
rc=0; "$CL" start "$cl" >"$tmp/env" 2>"$tmp/start.err" || rc=$?
[ $rc -ne 77 ] || skip "no Slurm cluster here: $(cat "$tmp/start.err")"
[ $rc -eq 0 ] || { cat "$tmp/start.err"; fail "cluster start: exit $rc"; }
. "$tmp/env"
echo "cluster: $(sinfo -h -o '%D nodes %T: %N') in $(($(date +%s) - t0)) s ($SLURM_CONF)"
export OMPI_MCA_rmaps_base_oversubscribe=1  # both nodes share this machine's cores
COLL=$top_builddir/mpi/collective

# Open MPI 4.1.4's btl/tcp kills a rank with a segfault inside MPI_Init
# about once in 100 launches on a loaded machine, a bare hello world too
# (docs/cluster.md): a step that died that way before any umbench run in it
# was cut short is run once more, and says so; a second crash fails.
CRASH="a rank crashed before umbench's first line (Open MPI 4.1's btl/tcp inside MPI_Init, docs/cluster.md); once more"
init_crash() {  # the last s: a segfault, and every umbench run it started ended whole or never began
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && crashed "$tmp/err" && ! grep -q '^#' "$tmp/out" \
        && [ "$(grep -c '"type":"header"' "$tmp/out")" -eq "$(grep -c '"type":"end"' "$tmp/out")" ]
}

# s CMD...: run CMD under the limit; stdout, stderr and status as run_mpi.
s() {
    for s_try in 1 2; do  # not $try: the batch jobs' loop below calls s
        rc=0
        timeout "$RUN_LIMIT" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
        [ $s_try -eq 1 ] && init_crash || break
        echo "$CRASH: $*"; grep -v '^srun' "$tmp/err" | tail -5
    done
    [ $rc -ne 124 ] || { cat "$tmp/err"; fail "$* did not end within $RUN_LIMIT s"; }
}

# sbatch_crash DIR: umb-run's failed runs in DIR all died of that segfault
# (the stderr each one's record keeps says so) before their first line.
sbatch_crash() {
    "$PYTHON3" - "$1" "$CRASH_RE" <<'PY'
import json, os, re, sys
d, crash = sys.argv[1], re.compile(sys.argv[2])
bad = [r for r in json.load(open(os.path.join(d, "run.json")))["runs"] if r["status"] not in (0, 77)]
sys.exit(0 if bad and all(crash.search(r.get("stderr", "")) and '"type":"header"' not in open(os.path.join(d, r["file"])).read()
                          for r in bad) else 1)
PY
}
# hosts FILE: the header's hosts, rank by rank, and their local ranks.
hosts() {
    "$PYTHON3" -c 'import json, sys
h = json.loads(open(sys.argv[1]).readline())
print(" ".join("%s:%d" % (r["host"], r["local_rank"]) for r in h["ranks"]))' "$1"
}

s srun -N2 -n2 hostname
expect_rc 0 "srun hostname"
[ "$(sort "$tmp/out" | tr '\n' ' ')" = "n1 n2 " ] || { cat "$tmp/out" "$tmp/err"; fail "srun: hostnames"; }

# Across the two nodes, launched by srun (Slurm's PMIx).
s srun -N2 -n2 "$PT2PT/umb_latency" -m 1:4K -i 200 -x 10 -f --timeout 60 H H
expect_rc 0 "srun umb_latency H H"
echo "--- srun -N2 -n2 umb_latency -m 1:4K -f H H"
grep -E '^(# (MPI library|Rank [0-9])|# Size|[0-9])' "$tmp/out"
grep -q '^# Rank 0: host n1, .*local rank 0 (' "$tmp/out" && grep -q '^# Rank 1: host n2, .*local rank 0 (' "$tmp/out" \
    || fail "umb_latency: the header does not show n1 and n2 with local rank 0 each"
s srun -N2 -n2 "$PT2PT/umb_bw" -m 8:64K -i 10 -x 2 -c --format json --timeout 60 H H
expect_rc 0 "srun umb_bw H H"
json_check --rows 14 --validation pass
[ "$(hosts "$tmp/out")" = "n1:0 n2:0" ] || fail "umb_bw: hosts $(hosts "$tmp/out")"
s srun -N2 -n4 "$COLL/umb_bcast" -m 8:64K -i 20 -x 2 -c --format json --timeout 60
expect_rc 0 "srun -n4 umb_bcast"
json_check --rows 14 --validation pass
[ "$(hosts "$tmp/out")" = "n1:0 n1:1 n2:0 n2:1" ] || fail "umb_bcast: hosts $(hosts "$tmp/out")"

# Inside an allocation: srun, and Open MPI's mpirun (it starts its daemons through srun).
s salloc -N2 -n2 sh -c "srun '$PT2PT/umb_latency' -m 8:8 -i 50 --format json --timeout 60 && \
    mpirun --bind-to none -np 2 '$PT2PT/umb_latency' -m 8:8 -i 50 --format json --timeout 60"
expect_rc 0 "salloc: srun and mpirun"
[ "$(grep -c '"type":"header"' "$tmp/out")" -eq 2 ] || { cat "$tmp/out" "$tmp/err"; fail "salloc: two runs"; }
grep '"type":"header"' "$tmp/out" | while read -r line; do
    echo "$line" >"$tmp/h"
    [ "$(hosts "$tmp/h")" = "n1:0 n2:0" ] || fail "salloc: hosts $(hosts "$tmp/h")"
done || exit 1

# Without Slurm: mpirun --host over the nodes' addresses, its daemons
# started by an rsh agent that enters each node.
s env -u SLURM_CONF mpirun --mca plm_rsh_agent "$top_srcdir/tests/cluster/rsh-agent" --bind-to none \
    --host "$UMB_CLUSTER_NET.11,$UMB_CLUSTER_NET.12" -np 2 "$PT2PT/umb_latency" -m 8:8 -i 50 --format json --timeout 60
expect_rc 0 "mpirun --host across the nodes"
[ "$(hosts "$tmp/out")" = "n1:0 n2:0" ] || fail "mpirun --host: hosts $(hosts "$tmp/out")"

# A rank on n2 that stops: the job ends within the --timeout, with the
# reason, and Slurm ends the step (KillOnBadExit).
timeout "$RUN_LIMIT" srun -N2 -n2 "$PT2PT/umb_latency" -m 8:8 -i 100000000 --timeout 5 H H \
    </dev/null >"$tmp/hang.out" 2>"$tmp/hang.err" &
job=$!
victim=
for _ in $(seq 100); do  # the rank whose environment says node 1, once both run
    for p in $(pgrep -f "$PT2PT/umb_latency -m 8:8 -i 100000000"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'SLURM_NODEID=1' && victim=$p
    done
    [ -n "$victim" ] && [ -s "$tmp/hang.out" ] && break  # its header is out: MPI is up
    sleep 0.2
done
[ -n "$victim" ] || { kill $job; cat "$tmp/hang.err"; fail "stopped rank: it never ran"; }
sleep 1
kill -STOP "$victim"
t1=$(date +%s)
rc=0; wait $job || rc=$?
kill -KILL "$victim" 2>/dev/null
took=$(($(date +%s) - t1))
[ $rc -ne 0 ] || { cat "$tmp/hang.err"; fail "stopped rank: srun exit 0"; }
grep -q 'no progress for 5 s (--timeout)' "$tmp/hang.err" || { cat "$tmp/hang.err"; fail "stopped rank: no reason given"; }
[ "$took" -le 30 ] || fail "stopped rank: the job took $took s to end"
echo "a rank stopped on n2: the job ended in $took s (exit $rc): $(grep -m1 'no progress' "$tmp/hang.err")"

# The batch script, as sbatch runs it, in each layout: an install tree as
# it expects (umb-run beside the programs), host buffers.
inst=$tmp/inst; mkdir "$inst"
ln -s "$top_srcdir/scripts/umb-run" "$inst/umb-run"
for p in $(programs needs=mpi --path | sed "s|^|$top_builddir/|"); do
    [ -x "$p" ] && ln -s "$p" "$inst/$(basename "$p")"
done
for layout in one-node two-nodes per-gpu; do
    for try in 1 2; do
        s env UMB_LAYOUT=$layout UMB_BINDIR="$inst" UMB_OUT="$tmp/sb-$layout" UMB_EXTRA="-m 8:64 -i 20 -x 2" \
            sbatch --wait --export=ALL --chdir="$tmp" --output="$tmp/sb-$layout.log" "$top_srcdir/scripts/slurm/umb.sbatch"
        [ $rc -ne 0 ] && [ $try -eq 1 ] && sbatch_crash "$tmp/sb-$layout" || break
        echo "$CRASH: sbatch $layout"; grep -B2 -A8 'FAILED' "$tmp/sb-$layout.log" | grep -v '^srun' | tail -12
        mv "$tmp/sb-$layout" "$tmp/sb-$layout.1"; mv "$tmp/sb-$layout.log" "$tmp/sb-$layout.1.log"
    done
    [ $rc -eq 0 ] || { cat "$tmp/out" "$tmp/err" "$tmp/sb-$layout.log"; fail "sbatch $layout: exit $rc"; }
    case $layout in one-node) want_nodes="n1" want_hosts="n1:0 n1:1" ;; *) want_nodes="n1 n2" want_hosts="n1:0 n2:0" ;; esac
    "$PYTHON3" - "$tmp/sb-$layout" "$want_nodes" "$want_hosts" <<'PY' || { cat "$tmp/sb-$layout.log"; fail "sbatch $layout: results"; }
import json, os, sys
d, nodes, hosts = sys.argv[1], sys.argv[2].split(), sys.argv[3]
m = json.load(open(os.path.join(d, "run.json")))
assert m["launcher"] == "MPIEXEC" and m["np"] == 2 and len(m["runs"]) == 11, m
assert all(r["status"] in (0, 77) for r in m["runs"]), m["runs"]
assert sorted(m["nodes"]) == nodes, m["nodes"]
assert m["env"].get("SLURM_JOB_ID"), "no SLURM_JOB_ID in run.json"
ran = [r for r in m["runs"] if r["status"] == 0]
assert {r["buffers"] for r in ran} == {"H H", "H"}, ran
for r in ran:
    h = json.loads(open(os.path.join(d, r["file"])).readline())
    got = " ".join("%s:%d" % (x["host"], x["local_rank"]) for x in h["ranks"])
    assert got == hosts, (r["file"], got, hosts)
print("%s: job %s, %d runs (%d on host buffers), nodes %s" % (os.path.basename(d), m["env"]["SLURM_JOB_ID"],
      len(m["runs"]), len(ran), " ".join(m["nodes"])))
PY
done
echo "cluster tests: $(($(date +%s) - t0)) s"
exit 0
