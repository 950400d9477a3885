#!/bin/sh
# The ReFrame library (reframe-checks/, docs/reframe.md) run for real:
# ReFrame builds umbench with Autotools (its build check, a fixture) and runs
# the host-buffer checks on this machine ("local"); every check passes, and
# the performance log holds the very figures umbench printed in the same
# run. A run broken on purpose (a test build's UMB_TEST_CORRUPT=size:8:
# validation fails at 8 B) fails its check with the reason. The sanity's placement rule on
# recorded rows of managed buffers. ReFrame's folders inside the tree are not
# copied into the build; a partition without its scheduler skips. Then the
# same checks on the two-node Slurm cluster of tests/cluster (sbatch, srun),
# where one can start here.
# Needs ReFrame: UMB_REFRAME names its command (.ci/run makes a virtual
# environment with a pinned reframe-hpc); skips without it, unless
# UMB_NEED_REFRAME=1.
. "$top_srcdir/tests/lib.sh"
RF=${UMB_REFRAME:-$(command -v reframe || true)}
if [ -z "$RF" ] || [ ! -x "$RF" ]; then
    [ "${UMB_NEED_REFRAME:-0}" != 1 ] || fail "UMB_NEED_REFRAME=1 but no reframe (UMB_REFRAME=${UMB_REFRAME:-unset})"
    skip "ReFrame not found (set UMB_REFRAME to its command)"
fi
"$MPIEXEC" --version 2>&1 | grep -q "Open MPI" || skip "the library's configuration names Open MPI's mpirun; $MPIEXEC is another MPI"
RFPY=$(dirname "$RF")/python3
[ -x "$RFPY" ] || RFPY=$PYTHON3
LIB=$top_srcdir/reframe-checks
[ "$(id -u)" -ne 0 ] || export UMBENCH_RUN_AS_ROOT=1

# rf NAME ARGS...: ReFrame on the library, its own folders under $tmp/NAME
# (a later --prefix overrides); $conf names another configuration, $action
# another action than -r (--dry-run).
rf() {
    name=$1; shift
    mkdir -p "$tmp/$name"
    rc=0
    (cd "$tmp/$name" && UMBENCH_PERFLOG="$tmp/$name/perflogs" timeout 900 "$RF" -C "${conf:-$LIB/umbench_config.py}" \
        -c "$LIB/umbench_checks.py" --prefix "$tmp/$name" --nocolor "$@" "${action:--r}") >"$tmp/$name.log" 2>&1 || rc=$?
}

# failed_errs DIR: the whole stderr of each check that failed (ReFrame
# shows its last 10 lines; a crash's backtrace comes after them).
failed_errs() {
    for f in $(find "$1/stage" -name rfm_job.err 2>/dev/null); do
        echo "--- $f"; cat "$f"
    done
}

# init_crashes DIR: every check that failed there died of a segfault
# before umbench printed a line. Open MPI 4.1.4's btl/tcp does that inside
# MPI_Init about once in 100 launches on a loaded machine, a bare MPI hello
# world too (docs/cluster.md): not umbench's failure, so the run is repeated.
init_crashes() {
    found=0
    for out in $(find "$1/stage" -name rfm_job.out 2>/dev/null); do
        grep -q '^umbench_exit=\(0\|77\)$' "$out" && continue
        grep -q '^[{#]' "$out" && return 1
        crashed "$(dirname "$out")/rfm_job.err" || return 1
        found=1
    done
    [ $found -eq 1 ]
}

# perflog_matches DIR SYSTEM/PARTITION: every performance value in the
# log is the figure at that size in the check's own output.
perflog_matches() {
    "$RFPY" - "$1" "$2" <<'PY'
import glob, json, os, re, sys
top, where = sys.argv[1], sys.argv[2]
n = 0
for log in glob.glob(os.path.join(top, "perflogs", where, "umbench_*.log")):
    for line in open(log):
        f = line.rstrip("\n").split("|")
        if f[0] == "job_completion_time" or not f[1].startswith(("umbench_pt2pt", "umbench_collective")):
            continue
        out = glob.glob(os.path.join(top, "output", where, "*", "*_" + f[2], "rfm_job.out"))
        assert len(out) == 1, (f[1], f[2], out)
        rows = {r["size"]: r for r in (json.loads(x) for x in open(out[0]) if x.startswith('{"type":"result"'))}
        for kind, size, value in re.findall(r"\|(latency|bandwidth)_(\d+)=([^ |]+) ", line):
            printed = rows[int(size)]["avg_latency_us" if kind == "latency" else "avg_bandwidth_mbs"]
            assert float(value) == printed, (f[1], kind, size, value, printed)
            n += 1
assert n >= 10, "only %d performance values checked" % n
print("%d performance values, each the figure umbench printed" % n)
PY
}

# The host checks: one per MPI program of the registry, and the build.
n=$(( $(mpi_programs | wc -l) + 1 ))

# References: one that any run meets, to see it reach the performance log
# (the shipped examples name other systems).
printf '{"local:default": {"umb_latency H H": {"latency_8": [1000000.0, -1.0, 0.0]}}}\n' >"$tmp/refs.json"
export UMBENCH_REFERENCES="$tmp/refs.json"

# 1. This machine: build, then every check on host buffers.
rf local --system local -t host
[ $rc -eq 0 ] || { tail -60 "$tmp/local.log"; failed_errs "$tmp/local"; fail "reframe -t host on local: exit $rc"; }
grep -q "PASSED .*Ran $n/$n test case(s) from $n check(s) (0 failure(s)" "$tmp/local.log" \
    || { tail -30 "$tmp/local.log"; fail "reframe on local: not $n of $n passed"; }
perflog_matches "$tmp/local" local/default >"$tmp/pm" 2>&1 || { cat "$tmp/pm"; fail "local: the performance log is not what umbench printed"; }
echo "local: $(grep 'Ran ' "$tmp/local.log"); $(cat "$tmp/pm")"
grep -h "umb_latency %pair=H H" "$tmp/local/perflogs/local/default/umbench_pt2pt.log" | head -1
grep -q "|status=0|findings=" "$tmp/local/perflogs/local/default/umbench_pt2pt.log" || fail "perflog: no status and findings"
grep -q "umb_latency %pair=H H|.*|latency_8=[0-9.e-]* us (ref 1000000.0)|" "$tmp/local/perflogs/local/default/umbench_pt2pt.log" \
    || fail "perflog: the reference from UMBENCH_REFERENCES is not there"
# A second MPI library as an environment of its own (UMBENCH_ENVIRONS):
# MPICH where it is installed, through a folder whose mpicc and mpirun run
# MPICH's (scripts, not links: Hydra finds its proxy beside the path it was
# started by). Its own build, every host check passing, the header naming MPICH.
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
    mkdir -p "$tmp/mpich-bin"
    for w in mpicc mpirun; do
        printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v $w.mpich)" >"$tmp/mpich-bin/$w" && chmod +x "$tmp/mpich-bin/$w"
    done
    UMBENCH_ENVIRONS="mpich=$tmp/mpich-bin" rf mpich --system local -t host -p mpich
    [ $rc -eq 0 ] && grep -q "PASSED .*Ran $n/$n test case(s) from $n check(s) (0 failure(s)" "$tmp/mpich.log" \
        || { tail -40 "$tmp/mpich.log"; failed_errs "$tmp/mpich"; fail "reframe -t host in the mpich environment: exit $rc"; }
    [ "$(grep -l '"mpi_library":"MPICH' "$tmp"/mpich/output/local/default/mpich/umbench_*/rfm_job.out | wc -l)" -eq $(( n - 1 )) ] \
        || fail "mpich environment: not every check ran MPICH"
    grep -q "|local:default|mpich|status=0|" "$tmp/mpich/perflogs/local/default/umbench_pt2pt.log" || fail "perflog: no mpich line"
    echo "mpich environment: $(grep 'Ran ' "$tmp/mpich.log")"
fi
# A GPU check skips here (exit 77), named as skipped with umbench's reason;
# on a GPU machine every GPU check runs and none fails (a skip must be
# umbench's own reason: a library that is not CUDA-aware, no window).
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    rf gpu --system local -t gpu -S options=-i,100,-x,10
    [ $rc -eq 0 ] && grep -q "PASSED .*(0 failure(s)" "$tmp/gpu.log" \
        || { tail -60 "$tmp/gpu.log"; failed_errs "$tmp/gpu"; fail "reframe -t gpu on a GPU machine: exit $rc"; }
    echo "gpu: $(grep 'Ran ' "$tmp/gpu.log")"
    grep "SKIP" "$tmp/gpu.log" | sed 's/^/  /'
else
    # A driver that was built skips with its own line, as umb_latency does;
    # one that a build without CUDA did not make, with the check's reason.
    rf gpu --system local -t gpu -n 'umb_latency|umbench_um|umbench_oversub'
    [ $rc -eq 0 ] && grep -q "SKIP .*umb_latency: buffers MD MD need a CUDA GPU" "$tmp/gpu.log" \
        && [ "$(grep -c "SKIP .*umbench_\(um\|oversub\) .*umb_\(um\|oversub\)\(: needs a CUDA GPU, but\| needs a GPU and a CUDA build\)" "$tmp/gpu.log")" -eq 8 ] \
        && grep -q "Ran 1/13 test case(s) from 13 check(s) (0 failure(s), 0 expected failure(s), 12 skipped" "$tmp/gpu.log" \
        || { tail -30 "$tmp/gpu.log"; fail "a GPU check without a GPU: not a skip"; }
fi

# 2. Broken on purpose: validation fails at 8 B; the check fails, saying so.
#    The hook is in test builds only: this one is built with it.
UMB_TEST_CORRUPT=size:8 rf broken --system local -t host -t umb_latency -S umbench_build.cppflags=-DUMB_TEST_HOOKS
[ $rc -ne 0 ] && grep -q "FAILED .*1 failure(s)" "$tmp/broken.log" && grep -q "validation did not pass at sizes \[8\]" "$tmp/broken.log" \
    || { tail -40 "$tmp/broken.log"; fail "a validation failure did not fail the check"; }

# 3. The placement rule on recorded rows: managed rows under the threshold
#    (with 95% confidence where the row says over how many iterations), or
#    without a placement check, fail; at or over it they pass. The
#    drivers' rules (rates against the link and the memory peak) likewise.
"$RFPY" - "$LIB" <<'PY' || fail "the sanity's rules"
import sys
sys.path.insert(0, sys.argv[1])
import umbench_checks as u
row = lambda size, **k: dict(dict(type="result", size=size, validation="pass"), **k)
end = {"type": "end", "status": 0}
ok = [row(8, placed_pct=96.2), row(16, placed_pct=99.0), end]
assert u.judge(ok, True, 90, True) is None
assert u.judge(ok, True, 97, True) == "placement held under 97% at 8: 96.2%", u.judge(ok, True, 97, True)
assert "placement was not checked at sizes [8]" in u.judge([row(8), end], True, 90, True)
# Over a row's iterations the rule takes 95% confidence (one-sided Wilson
# bound): 17 of 20 held is no evidence of under 90%, 15 of 20 and 85 of 100 are.
few = lambda pct, n, **k: row(64, placed_pct=pct, iterations=n, **k)
assert u.judge([few(85.0, 20), end], True, 90, True) is None
why = u.judge([few(75.0, 20), end], True, 90, True)
assert why == "placement held under 90% at 64: 75.0% of 20 iterations (at most 87.3% with 95% confidence)", why
assert "64: 85.0% of 100 iterations" in u.judge([few(85.0, 100), end], True, 90, True)
assert u.judge([few(85.0, 96, not_placed=4), end], True, 85, True) is None
assert "64: 95.0% of 20 iterations" in u.judge([few(95.0, 20), end], True, 100, True)  # 100: no miss at all
assert u.judge([few(100, 20), end], True, 100, True) is None
assert u.judge([row(8), end], True, 90, False) is None  # host buffers: nothing to place
assert u.judge([row(8, validation="fail"), end], True, 90, False) == "validation did not pass at sizes [8]"
assert u.judge([row(8)], True, 90, False) == "no end record: the output was cut short"
assert u.judge([row(8), dict(end, status=2)], True, 90, False) == "the program ended with status 2"
assert "the read check failed: x" == u.judge([row(8), {"type": "check", "result": "fail", "first_failure": "x"}, end], False, 90, False)
# The single-node drivers, on the H200's published figures (docs/results):
# accessed-by at 46.2 GiB/s over a 63.0 GB/s (58.7 GiB/s) link, demand paging
# at HBM speed from run 2, a memory peak of 4483.7 GiB/s.
head = {"type": "header", "gpus": [{"link_limit_gbs": 63.0154}], "hbm_peak_gibs": 4483.67}
check = {"type": "check", "result": "pass", "runs": 3, "failed": 0}
ab = {"type": "result", "size": 268435456, "run1_gibs": 46.22, "run2_gibs": 47.66, "run3_gibs": 47.65}
demand = {"type": "result", "size": 268435456, "run1_gibs": 9.14, "run2_gibs": 2669.12, "run3_gibs": 3564.10}
assert u.judge_driver([head, ab, check, end], 90, False, True) is None
assert u.judge_driver([head, demand, check, end], 90, False, False) is None
why = u.judge_driver([head, dict(ab, run2_gibs=60.0), check, end], 90, False, True)
assert why == "a rate outside (0, 58.7] GiB/s: run2_gibs=60.0", why
why = u.judge_driver([head, dict(demand, run3_gibs=5000.0), check, end], 90, False, False)
assert why == "a rate outside (0, 4483.67] GiB/s: run3_gibs=5000.0", why
assert u.judge_driver([head, dict(demand, run1_gibs=0.0), check, end], 90, False, False).startswith("a rate outside")
assert u.judge_driver([head, ab, dict(check, result="fail", first_failure="run 2"), end], 90, False, True) == "the read check failed: run 2"
copy = {"type": "result", "size": 67108864, "direction": "htod", "median_gbs": 55.46, "link_pct": 88.0, "placed_pct": 99.0}
assert u.judge_driver([head, copy, end], 90, True, False) is None
assert u.judge_driver([head, dict(copy, link_pct=101.2), end], 90, True, False).startswith("a figure above the link")
assert u.judge_driver([head, dict(copy, placed_pct=50.0), end], 90, True, False) == "placement held under 90% at 67108864: 50.0%"
PY

# 4. ReFrame's folders inside the umbench tree (--prefix there, as when run
#    from the top of the tree without one): the build check's copy of the tree
#    links the folder that holds them rather than copying the copy being
#    made into itself. A dry run: the copy, then no build.
mkdir -p "$tmp/tree/src" && echo x >"$tmp/tree/src/file"
action=--dry-run
rf intree --system local -t host -n umb_latency --keep-stage-files -S umbench_build.umbench_src="$tmp/tree" --prefix "$tmp/tree/rfm"
action=
copy=$(find "$tmp/tree/rfm/stage" -maxdepth 4 -type d -name 'umbench_build_*')
[ $rc -eq 0 ] && [ -f "$copy/src/file" ] && [ -L "$copy/rfm" ] \
    || { tail -30 "$tmp/intree.log" | cut -c1-300; fail "--prefix inside the umbench tree: the build did not stage it apart"; }
echo "--prefix inside the tree: the build's copy links $(readlink "$copy/rfm")"

# 4b. Checks side by side on one machine of several GPUs
#     (UMBENCH_GPU_SLOTS=1): each GPU check's job script first holds GPUs of
#     its own, as many as its ranks (reframe-checks/gpu_slot.sh, tested by
#     tests/reframe/gpu_slot.sh); a host check holds none. A dry run.
action=--dry-run
UMBENCH_GPU_SLOTS=1 rf slots --system local -n 'umbench_pt2pt.*umb_latency' -n umbench_copy
action=
[ $rc -eq 0 ] || { tail -20 "$tmp/slots.log"; fail "UMBENCH_GPU_SLOTS=1: the dry run"; }
for j in $(find "$tmp/slots/stage" -name rfm_job.sh -path '*umbench_pt2pt*'); do
    case $(grep -E '/umb_latency .* (H|D|MH|MD) (H|D|MH|MD)$' "$j") in
    *" H H") ! grep -q gpu_slot "$j" || fail "a host check holds GPUs: $j" ;;
    *) grep -q "^\. .*/reframe-checks/gpu_slot.sh 2$" "$j" || { cat "$j"; fail "a GPU check of 2 ranks does not hold 2 GPUs"; } ;;
    esac
done
held=$(grep -l "^\. .*/gpu_slot.sh 1$" $(find "$tmp/slots/stage" -name rfm_job.sh -path '*umbench_copy*') | wc -l)
[ "$held" -eq 5 ] || fail "UMBENCH_GPU_SLOTS=1: $held of umb_copy's 5 checks hold one GPU"
UMBENCH_GPU_SLOTS=2 rf slots2 --system local -n umbench_copy
[ $rc -ne 0 ] && grep -q "UMBENCH_GPU_SLOTS='2': expected 1" "$tmp/slots2.log" || { cat "$tmp/slots2.log"; fail "UMBENCH_GPU_SLOTS=2 accepted"; }

# 5. A partition whose scheduler is not on this machine (LSF's bsub on
#    "local"): its build skips with the reason, before building, and every
#    check after it, rather than failing on the missing command.
if ! command -v bsub >/dev/null 2>&1; then
    cat >"$tmp/lsf.py" <<EOF
import copy, sys
sys.path.insert(0, '$LIB')
import umbench_config
site_configuration = copy.deepcopy(umbench_config.site_configuration)
for system in site_configuration['systems']:
    if system['name'] == 'local':
        system['partitions'][0]['scheduler'] = 'lsf'
EOF
    conf=$tmp/lsf.py
    rf nosched --system local -t host
    conf=
    [ $rc -eq 0 ] && grep -q "SKIP .*umbench_build .*partition local:default: its scheduler lsf submits with bsub, which is not on PATH here" "$tmp/nosched.log" \
        && grep -q "Ran 0/$n test case(s) from $n check(s) (0 failure(s), 0 expected failure(s), $n skipped" "$tmp/nosched.log" \
        || { tail -30 "$tmp/nosched.log"; fail "a partition without its scheduler: not every check skipped with the reason"; }
    echo "an lsf partition without bsub: $(grep 'Ran ' "$tmp/nosched.log")"
fi

# 6. The two-node Slurm cluster, where one can start here.
CL=$top_srcdir/tests/cluster/cluster
rc=0; "$CL" start "$tmp/cluster" >"$tmp/env" 2>"$tmp/start.err" || rc=$?
if [ $rc -eq 77 ]; then
    echo "no Slurm cluster here ($(cat "$tmp/start.err")): the cluster part is not run"
    exit 0
fi
trap '"$CL" stop "$tmp/cluster"; rm -rf "$tmp"' EXIT
[ $rc -eq 0 ] || { cat "$tmp/start.err"; fail "cluster start: exit $rc"; }
. "$tmp/env"
# Open MPI 4.1 over TCP between the nodes has no osc component that can
# make the one-sided programs' window: those checks skip, with umbench's reason.
rf cluster --system cluster -t host
if [ $rc -ne 0 ] && init_crashes "$tmp/cluster"; then
    echo "cluster: a rank crashed before umbench's first line (Open MPI 4.1's btl/tcp inside MPI_Init, docs/cluster.md); once more:"
    failed_errs "$tmp/cluster" | grep -v "^srun"
    mv "$tmp/cluster" "$tmp/cluster.1" && mv "$tmp/cluster.log" "$tmp/cluster.1.log"
    rf cluster --system cluster -t host
fi
[ $rc -eq 0 ] && grep -q "PASSED .*test case(s) from $n check(s) (0 failure(s)" "$tmp/cluster.log" \
    || { tail -60 "$tmp/cluster.log"; failed_errs "$tmp/cluster"; fail "reframe -t host on the Slurm cluster: exit $rc"; }
grep "SKIP" "$tmp/cluster.log" | grep -v "umbench_pt2pt %program=umb_[a-z]*_\(latency\|bw\) .*this MPI cannot make a window" \
    | grep . && fail "cluster: a check skipped other than a one-sided one without a window"
perflog_matches "$tmp/cluster" cluster/nodes >"$tmp/pm" 2>&1 || { cat "$tmp/pm"; fail "cluster: the performance log is not what umbench printed"; }
# One rank per node, through sbatch and srun.
grep -q "^#SBATCH --ntasks-per-node=1" "$tmp"/cluster/output/cluster/nodes/openmpi/umbench_pt2pt_*/rfm_job.sh \
    && grep -q '"host":"n2"' "$tmp"/cluster/output/cluster/nodes/openmpi/umbench_pt2pt_*/rfm_job.out \
    || fail "cluster: the ranks did not span both nodes"
echo "cluster: $(grep 'Ran ' "$tmp/cluster.log"); $(cat "$tmp/pm")"
exit 0
