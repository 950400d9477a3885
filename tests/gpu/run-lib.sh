# shellcheck shell=bash
# The helpers of tests/gpu/run-all's sections, written once: run-all sources
# this before its first step, then each file of tests/gpu/sections and
# tests/gpu/run-node. They read run-all's variables: $out, $top, $build,
# $ob1, $ucx, $label, and set $status to 1 on a failure.

step() { echo; echo "=== $* ($(date +%T))"; }

# seconds_var NAME DEFAULT: the value of the variable NAME, whole seconds
# (DEFAULT where it is unset or empty; nothing where that is empty too);
# anything else is one line on stderr and status 1. The one reader of the sections' time variables: shell
# arithmetic would evaluate what it is given (a[$(cmd)] runs cmd).
seconds_var() {
    local v=${!1:-$2}
    [ -n "$v" ] || return 0
    [[ $v =~ ^[0123456789]{1,12}$ ]] || { echo "$1=$(printf %q "$v"): expected whole seconds" >&2; return 1; }
    echo $(( 10#$v ))
}

# deadline_left: the seconds left before UMB_DEADLINE (seconds since the
# epoch), nothing where it is unset; status 1 where it is not a number.
deadline_left() {
    local at
    at=$(seconds_var UMB_DEADLINE "") || return 1
    [ -z "$at" ] || echo $(( at - $(date +%s) ))
}

# The registry of programs (programs.txt) through its one shell reader,
# never a list written here: programs FIELD=VALUE... [--path] prints their
# names, window_programs BUILD the bandwidth ones (programs.sh).
programs_txt=$top/programs.txt
# shellcheck source=../../programs.sh
. "$top/programs.sh"

# make check, run after the stacks are built where a section needs them
# (their builds and the checks would otherwise wait on each other).
make_check() {
step "make check (GPU tests run here; their readings recorded in $out/recorded/$label)"
if [ "${UMB_GPU_TESTS:-}" = none ]; then echo "skipped (UMB_GPU_TESTS=none)"; return; fi
# tests/gpu/path.sh's D D part through a CUDA-aware stack, where one is built.
local aware=
stack_built ompi4-cuda && aware="UMB_AWARE_MPIEXEC=/opt/umb-stacks/ompi4-cuda/bin/mpirun $ucx"
( cd "$build" && env ${aware:+"$aware"} ${aware:+UMB_AWARE_PT2PT=/tmp/umb-stack-ompi4-cuda/mpi/pt2pt} \
    UMB_GPU_RECORD=$out/recorded/$label make -j6 check ${UMB_GPU_TESTS:+TESTS="$UMB_GPU_TESTS"} ) >"$out/check.log" 2>&1 || status=1
grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS|# )' "$out/check.log"
cat "$build"/tests/gpu/*.log >"$out/gpu-tests.log" 2>&1
[ $status -eq 0 ] || cat "$build/test-suite.log"
}

# CUDA-aware stacks (docs/stacks.md): .carry/stacks.tar.gz from
# `scripts/umb-stack pack`, unpacked into /opt/umb-stacks; umbench built
# with each; a diagnosis of D D through UCX; then umb-run --set aware over
# every stack and the machine's Open MPI, and umb-compare.
stack_built() { [ -x "/tmp/umb-stack-$1/mpi/pt2pt/umb_latency" ]; }  # stack_built NAME: stacks_setup built umbench with it

stacks_setup() {
[ -n "${stacks_ready:-}" ] && return 0
local tgz=$top/.carry/stacks.tar.gz s
[ -f "$tgz" ] || { echo "no $tgz: carry .carry (scripts/umb-stack pack)"; status=1; return 1; }
step "stacks: unpack and build umbench with each"
tar -xzf "$tgz" -C / || { status=1; return 1; }
# Every program and test tool of each stack's build, the stacks at once.
local pids=() p
for s in ompi5-wheel ompi4-cuda mpich4-cuda; do
    [ -d /opt/umb-stacks/$s ] || { echo "$s: not carried"; continue; }
    if [ "${UMB_GPU_REUSE:-0}" = 1 ] && stack_built $s; then echo "$s: reusing /tmp/umb-stack-$s"; continue; fi
    mkdir -p /tmp/umb-stack-$s
    ( ( eval "$("$top/scripts/umb-stack" env $s)" && cd /tmp/umb-stack-$s && "$top/configure" MPICC="$MPICC" --with-cuda-arch=90 \
          && make -j16 ) >"$out/build-stack-$s.log" 2>&1 \
        && echo "$s: built ($(grep -m1 'MPI compiler' "$out/build-stack-$s.log" | tr -s ' '))" \
        || { echo "$s: build failed"; tail -15 "$out/build-stack-$s.log"; exit 1; } ) &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
( eval "$("$top/scripts/umb-stack" env ucx-cu13)"; ucx_info -v | head -3
  ucx_info -d | grep -E 'Transport|Device' | sort | uniq -c | head -20 )
stacks_ready=1
}

# One configuration: NAME STACK|system PML-FLAGS...; runs what follows it
# with MPIEXEC, MPIEXEC_FLAGS, PATH and LD_LIBRARY_PATH set (in a subshell).
with_stack() {
    local name=$1 stack=$2 flags=$3; shift 3
    (
        if [ "$stack" = system ]; then export MPIEXEC=mpirun BD=$build
        else eval "$("$top/scripts/umb-stack" env "$stack")"; export BD=/tmp/umb-stack-$stack; fi
        export MPIEXEC_FLAGS="$flags" NAME=$name
        "$@"
    )
}

stack_configs() {  # NAME STACK FLAGS, one per line
    echo "system-ob1|system|$ob1"
    echo "system-ucx|system|$ucx"
    echo "ompi5-wheel-ucx|ompi5-wheel|$ucx"
    echo "ompi4-cuda-ob1|ompi4-cuda|$ob1"
    echo "ompi4-cuda-ucx|ompi4-cuda|$ucx"
    [ -d /tmp/umb-stack-mpich4-cuda/mpi ] && echo "mpich4-cuda|mpich4-cuda|"
}

# Why, on every row (docs/results/h200-why.md): umb_latency, umb_bw and
# umb_bcast over D D, MD MD, MH MH and MD MH, 8 B to 4 MiB, with --path,
# through every configuration of stack_configs; the findings of each run;
# what --path costs; tests/gpu/path.sh through a CUDA-aware stack; and D D
# and MD MD under MPS, where the two ranks share one context.
why_runs() {  # NAME [PREFIX [PROGRAMS [PAIRS]]]: each program and pair with --path, JSON into $out/PREFIX-NAME-*.jsonl
    local prog pair opts bufs dir rc prefix=${2:-why} progs=${3:-umb_latency umb_bw umb_bcast} pairs=${4:-D-D MD-MD MH-MH MD-MH}  # selection: the why page's three
    for prog in $progs; do for pair in $pairs; do
        pair=${pair//-/ }
        case $prog in
        umb_latency) opts="-m 8:4M -i 50"; dir=pt2pt; bufs=$pair ;;  # OMB's warm-up (docs/method.md, "The first size")
        umb_bw) opts="-m 8:4M -i 10"; dir=pt2pt; bufs=$pair ;;
        umb_put_bw) opts="-m 8:4M -i 10"; dir=rma; bufs=$pair ;;
        umb_put_latency|umb_get_latency) opts="-m 8:4M -i 50"; dir=rma; bufs=$pair ;;
        *) opts="-m 8:4M -i 50"; dir=collective; bufs="--root-buffer ${pair% *} --buffer ${pair#* }" ;;
        esac
        timeout 150 $MPIEXEC $MPIEXEC_FLAGS -np 2 "$BD/mpi/$dir/$prog" $opts --path ${WHY_EXTRA:-} --format json --timeout 60 $bufs \
            </dev/null >"$out/$prefix-$1-$prog-${pair// /-}.jsonl" 2>"$out/$prefix-$1-$prog-${pair// /-}.err"
        rc=$?
        printf '%-18s %-12s %-6s exit %d\n' "$1" "$prog" "$pair" $rc
    done; done
}

why_table() {  # the table of every why-*.jsonl: 8 B, 64 KiB, 4 MiB with path, share of bound and findings
python3 - "$out" "$@" <<'PY'
import glob, json, os, sys
out, pattern = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "why-"
print("%-18s %-15s %-6s %9s %-14s %9s %-14s %9s %-14s  %s" % ("config", "program", "pair", "8 B", "", "64 KiB", "", "4 MiB", "", "findings"))
for path in sorted(glob.glob(os.path.join(out, pattern + "*.jsonl"))):
    name = os.path.basename(path)[len(pattern):-len(".jsonl")]
    config, rest = name.split("-umb_")[0], name.split("-umb_")[1].split("-")
    prog, pair = "umb_" + rest[0], " ".join(rest[1:])
    objs = []
    for l in open(path):
        try: objs.append(json.loads(l))
        except ValueError: pass
    rows = {o["size"]: o for o in objs if o.get("type") == "result"}
    finds = sorted({o["finding"] for o in objs if o.get("type") == "finding"})
    if not rows:
        err = [l for l in open(path[:-len(".jsonl")] + ".err").read().splitlines() if l.startswith(prog + ":")]
        print("%-18s %-15s %-6s %s" % (config, prog, pair, "skipped: " + (err[-1][len(prog) + 2:][:90] if err else "no output")))
        continue
    cells = []
    for size in (8, 65536, 4194304):
        r = rows.get(size)
        if not r:
            cells.append("%9s %-14s" % ("-", "")); continue
        v = r.get("avg_latency_us", r.get("avg_bandwidth_mbs"))
        share = r.get("path_bound_pct")
        p = r["path"] + ("" if share is None else " %.0f%%" % share)
        cells.append("%9s %-14s" % ("n/a" if v is None else "%.1f" % v, p))
    print("%-18s %-15s %-6s %s  %s" % (config, prog, pair, " ".join(cells), ",".join(finds) or "-"))
PY
}
