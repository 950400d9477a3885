#!/bin/sh
# The Slurm and LSF batch scripts, run as a batch system would run them,
# with fake srun, jsrun and mpirun on PATH: each logs the launch line the
# script built and hands the run to the real launcher with the rank count
# it asked for. Then the Spack recipe's configure_args, with Spack stubbed.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
command -v bash >/dev/null || skip "bash not found"

# An install tree as the scripts expect: umb-run beside the programs.
inst=$tmp/inst; mkdir "$inst" "$tmp/bin"
ln -s "$top_srcdir/scripts/umb-run" "$inst/umb-run"
for p in $(programs needs=mpi --path | sed "s|^|$top_builddir/|"); do
    [ -x "$p" ] && ln -s "$p" "$inst/$(basename "$p")"
done
# Ranks: -n N, --ntasks=N, or --nrs N x --tasks_per_rs N; the program is
# the first argument that is an executable file. What is checked of a
# batch is the launch line it built and umb-run's results: the first launch
# of each program, arguments and rank count is a real one, and later
# batches get its output and status again (a replay), not a launch of
# their own (99 launches, of 11 kinds, were made; issue 67).
mkdir "$tmp/replay"
for l in srun jsrun mpirun; do
    cat >"$tmp/bin/$l" <<EOF
#!/bin/sh
echo "$l \$*" >>"$tmp/launch.log"
n= nrs=1 per=1
while [ \$# -gt 0 ] && ! [ -f "\$1" -a -x "\$1" ]; do
    case \$1 in
    -n|-np) n=\$2; shift ;;
    --ntasks=*) n=\${1#--ntasks=} ;;
    --nrs) nrs=\$2; shift ;;
    --tasks_per_rs) per=\$2; shift ;;
    esac
    shift
done
unset SLURM_JOB_ID LSB_JOBID
n=\${n:-\$((nrs * per))}
c=$tmp/replay/\$(printf '%s\\n' "\$n" "\$@" | cksum | tr ' ' -)
if ! [ -f "\$c.rc" ]; then
    rc=0; $MPIEXEC $mpi_flags -np "\$n" "\$@" >"\$c.out" 2>"\$c.err" || rc=\$?
    echo \$rc >"\$c.rc"
fi
cat "\$c.out"; cat "\$c.err" >&2
exit \$(cat "\$c.rc")
EOF
    chmod +x "$tmp/bin/$l"
done
mkdir "$tmp/nojsrun" && ln -s "$tmp/bin/mpirun" "$tmp/nojsrun/mpirun"

# batch NAME SCRIPT BINPATH LAYOUT ENV...: run SCRIPT as the batch job, check its results.
batch() {
    name=$1 script=$2 path=$3 layout=$4; shift 4
    rc=0
    ${pre:-} env -u MPIEXEC PATH="$path:$PATH" UMB_BINDIR="$inst" UMB_LAYOUT="$layout" UMB_OUT="$tmp/$name" \
        UMB_EXTRA="-m 8:8 -i 10 -x 1" "$@" timeout "$RUN_LIMIT" bash "$script" >"$tmp/$name.log" 2>&1 || rc=$?
    [ $rc -eq 0 ] || { cat "$tmp/$name.log" "$tmp/launch.log"; fail "$name: exit $rc"; }
    "$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['np'] == int(sys.argv[2]) and len(m['runs']) == 11 and all(r['status'] in (0, 77) for r in m['runs']) and {r['buffers'] for r in m['runs'] if r['status'] == 0} >= {'H H', 'H'}, m" \
        "$tmp/$name/run.json" "${np:-2}" || fail "$name: results"
}
slurm=$top_srcdir/scripts/slurm/umb.sbatch lsf=$top_srcdir/scripts/lsf/umb.lsf
batch slurm-one-node "$slurm" "$tmp/bin" one-node SLURM_JOB_ID=42
batch slurm-per-gpu "$slurm" "$tmp/bin" per-gpu SLURM_JOB_ID=42 SLURM_NNODES=1 SLURM_GPUS_PER_NODE=2
batch lsf-two-nodes "$lsf" "$tmp/bin" two-nodes LSB_JOBID=42 LSB_HOSTS="launch hostA hostB"
batch lsf-mpirun "$lsf" "$tmp/nojsrun" one-node LSB_JOBID=42 LSB_HOSTS="hostA hostA"
# LSF's per-gpu as Slurm's: 4 ranks for the collectives, 2 for the programs
# of two ranks (jsrun's -n, which umb-run sets), not 4 for every program.
np=4 batch lsf-per-gpu "$lsf" "$tmp/bin" per-gpu LSB_JOBID=42 LSB_HOSTS="launch hostA hostA hostB hostB" GPUS_PER_NODE=2
for want in "srun --nodes=1 --ntasks-per-node=2 --cpu-bind=cores -n 2 $inst/umb_latency" \
            "srun --ntasks=2 --gpus-per-task=1 --cpu-bind=cores -n 2 $inst/umb_bcast" \
            "jsrun --nrs 2 --rs_per_host 1 --tasks_per_rs 1 --gpu_per_rs 1 --cpu_per_rs 1 --bind packed:1 $inst/umb_bw" \
            "mpirun --map-by ppr:2:node --bind-to core -np 2 $inst/umb_latency" \
            "jsrun --rs_per_host 2 --tasks_per_rs 1 --gpu_per_rs 1 --cpu_per_rs 1 --bind packed:1 -n 2 $inst/umb_latency" \
            "jsrun --rs_per_host 2 --tasks_per_rs 1 --gpu_per_rs 1 --cpu_per_rs 1 --bind packed:1 -n 4 $inst/umb_bcast"; do
    grep -q -F "$want" "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "no launch line: $want"; }
done
# UMB_MODULES: each module loaded before anything else (here the one that
# puts the install on PATH, so that no UMB_BINDIR is needed), by the job's
# `module`: a stand-in exported function as Lmod's, and Lmod's own where it
# is installed; run.json records what was loaded. A module that cannot be
# loaded, or no `module` at all: one line, exit 1, nothing run.
modules_check() {  # modules_check NAME: run.json of that batch names umbtest/1.0 as loaded and asked
    "$PYTHON3" -c "import json,sys; e=json.load(open(sys.argv[1]))['env']; assert e.get('LOADEDMODULES') == 'umbtest/1.0' and e.get('UMB_MODULES') == 'umbtest/1.0', e" \
        "$tmp/$1/run.json" || fail "$1: run.json does not record the module loaded"
    grep -qx "umb\.[a-z]*: modules loaded: umbtest/1.0" "$tmp/$1.log" || { cat "$tmp/$1.log"; fail "$1: no line of the modules loaded"; }
}
standin='() { case "$1 $2" in "load umbtest/1.0") PATH=INST:$PATH LOADEDMODULES=${LOADEDMODULES:+$LOADEDMODULES:}$2; export PATH LOADEDMODULES ;; *) printf "stand-in: no module %s\\nsecond line\\n" "$2" >&2; return 1 ;; esac; }'
standin=$(printf "%s\n" "$standin" | sed "s|INST|$inst|")
for script in "$slurm" "$lsf"; do
    name=modules-$(basename "$script")
    batch "$name" "$script" "$tmp/bin" one-node SLURM_JOB_ID=42 LSB_JOBID=42 LSB_HOSTS="hostA hostA" UMB_BINDIR= \
        UMB_MODULES=umbtest/1.0 "BASH_FUNC_module%%=$standin"
    modules_check "$name"
    one_line 1 "$(basename "$script"): UMB_MODULES: 'module load nosuch' failed: stand-in: no module nosuch second line" \
        env UMB_BINDIR="$tmp/fake" UMB_MODULES="umbtest/1.0 nosuch" "BASH_FUNC_module%%=$standin" bash "$script"
    one_line 1 "$(basename "$script"): UMB_MODULES='umbench': no module command in this job" \
        env -i PATH=/usr/bin:/bin UMB_BINDIR="$tmp/fake" UMB_MODULES=umbench bash "$script"
done
LMOD=${LMOD_CMD:-/usr/share/lmod/lmod/libexec/lmod}
if [ -x "$LMOD" ] && [ -r "$(dirname "$LMOD")/../init/bash" ]; then
    mkdir -p "$tmp/mods/umbtest"
    echo "prepend_path(\"PATH\", \"$inst\")" >"$tmp/mods/umbtest/1.0.lua"
    printf '. "%s" || exit 1\nexport MODULEPATH="%s"\nexec "$@"\n' "$(dirname "$LMOD")/../init/bash" "$tmp/mods" >"$tmp/lmod.sh"
    pre="bash $tmp/lmod.sh" batch modules-lmod "$slurm" "$tmp/bin" one-node SLURM_JOB_ID=42 UMB_BINDIR= UMB_MODULES=umbtest/1.0
    modules_check modules-lmod && echo "Lmod: UMB_MODULES=umbtest/1.0 loaded it before the run; run.json records it"
    rc=0; bash "$tmp/lmod.sh" env UMB_BINDIR="$tmp/fake" UMB_MODULES="umbtest/1.0 nosuch" bash "$slurm" >"$tmp/o" 2>"$tmp/e" || rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q "umb.sbatch: UMB_MODULES: 'module load nosuch' failed: Lmod has detected the following error: The following module(s) are unknown: \"nosuch\"" "$tmp/e" \
        || { cat "$tmp/o" "$tmp/e"; fail "Lmod: a module that is not there: exit $rc, not one line"; }
else
    echo "Lmod not installed (Debian: lmod): UMB_MODULES tried with a stand-in module only"
fi
for script in "$slurm" "$lsf"; do
    rc=0; UMB_LAYOUT=ring UMB_BINDIR="$inst" bash "$script" >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "UMB_LAYOUT='ring': accepted: one-node, two-nodes, per-gpu" "$tmp/o" \
        || { cat "$tmp/o"; fail "$(basename "$script"): bad layout, exit $rc"; }
done

# Every variable each script reads, with values that would run something,
# overflow or split: refused in one line naming it, exit 1, nothing run
# (no F made, umb-run not started: a stand-in here). Each script's
# variables by type: number (n), name or path (p), job id (i), words (w),
# host names (h), module names (m).
mkdir "$tmp/fake" "$tmp/hostile"
printf '#!/bin/sh\necho "umb-run ran" >&2\n' >"$tmp/fake/umb-run" && cp "$tmp/fake/umb-run" "$tmp/fake/umb_latency"
chmod +x "$tmp/fake/umb-run" "$tmp/fake/umb_latency"
nl='
'
# Words (w) may hold file patterns: they are passed as they are, never globbed.
inject() { for v in 'BASHPID[$(touch F)]' '$(touch F)' '`touch F`' ';touch F' "x${nl}touch F" "a'b" 'a\b'; do printf '%s\0' "$v"; done; }
hostile() {  # hostile TYPE: the values for a variable of that type, NUL-separated
    inject
    case $1 in
    n) printf '%s\0' 99999999999999999999 -1 '' '1 2' 0x10 '*' ;;
    i) printf '%s\0' 99999999999999999999 -1 '' 'a b' '*' ;;
    p) printf '%s\0' 'a b' '*' -h --append ;;  # a leading dash: umb-run would read an option
    h) printf '%s\0' '*' '' ;;
    m) printf '%s\0' '*' -h 'a --help' 'a	b' ;;  # module names: a leading dash is an option of module's
    esac
}
hostile_env() {  # hostile_env NAME 'VAR=TYPE...' COMMAND...: NAME is what its lines start with
    name=$1 vars=$2; shift 2
    for vt in $vars; do
        var=${vt%=*}
        hostile "${vt#*=}" >"$tmp/values"
        while IFS= read -r -d '' val; do
            rc=0
            (cd "$tmp/hostile" && env -i PATH="$tmp/bin:$PATH" HOME="$HOME" UMB_BINDIR="$tmp/fake" UMB_LAYOUT=per-gpu \
                "$var=$val" timeout 60 "$@" >"$tmp/o" 2>"$tmp/e") || rc=$?
            [ ! -e "$tmp/hostile/F" ] || fail "$name: $var='$val' ran: F was made"
            [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -qF "$name: $var='" "$tmp/e" \
                || { cat "$tmp/o" "$tmp/e"; fail "$name: $var='$val': exit $rc, not one line naming $var"; }
        done <"$tmp/values"
    done
}
hostile_env umb.sbatch "UMB_SET=p UMB_LAYOUT=p UMB_BINDIR=p UMB_OUT=p UMB_EXTRA=w UMB_MODULES=m SLURM_JOB_ID=i
    SLURM_RESTART_COUNT=n SLURM_GPUS_PER_NODE=n SLURM_NNODES=n" bash "$slurm"
hostile_env umb.lsf "UMB_SET=p UMB_LAYOUT=p UMB_BINDIR=p UMB_OUT=p UMB_EXTRA=w UMB_MODULES=m LSB_JOBID=i LSB_HOSTS=h
    GPUS_PER_NODE=n" bash "$lsf"
hostile_env umb-suite "MPIEXEC=w MPIEXEC_FLAGS=w UMB_BINDIR=p" sh "$top_srcdir/scripts/umb-suite"
# What the scripts hand umb-run is checked where the user set it, so that a
# refusal names the variable, never an option the user did not type: a set
# umb-run does not have, and per-gpu over fewer than 2 GPUs (umb-run --np 1).
one_line 1 "umb.sbatch: UMB_SET='nosuch': accepted: $("$PYTHON3" -c "import sys; sys.path.insert(0, sys.argv[1]); from umbench import sets; print(', '.join(sets.NAMES))" "$top_srcdir/scripts")" \
    env UMB_BINDIR="$tmp/fake" UMB_SET=nosuch bash "$slurm"
one_line 1 "umb.lsf: UMB_SET='nosuch': accepted:" env UMB_BINDIR="$tmp/fake" UMB_SET=nosuch bash "$lsf"
one_line 1 "umb.sbatch: SLURM_NNODES x SLURM_GPUS_PER_NODE='1 x 1': accepted: 2 to 1000000 GPUs in all" \
    env UMB_BINDIR="$tmp/fake" UMB_LAYOUT=per-gpu SLURM_NNODES=1 SLURM_GPUS_PER_NODE=1 bash "$slurm"
one_line 1 "umb.sbatch: SLURM_NNODES x SLURM_GPUS_PER_NODE='100000 x 20': accepted: 2 to 1000000 GPUs in all" \
    env UMB_BINDIR="$tmp/fake" UMB_LAYOUT=per-gpu SLURM_NNODES=100000 SLURM_GPUS_PER_NODE=a:10,b:10 bash "$slurm"
one_line 1 "umb.lsf: LSB_HOSTS' nodes x GPUS_PER_NODE='1 x 1': accepted: 2 to 1000000 GPUs in all" \
    env -u LSB_HOSTS UMB_BINDIR="$tmp/fake" UMB_LAYOUT=per-gpu GPUS_PER_NODE=1 bash "$lsf"
# umb-suite knows Open MPI by MPIEXEC's first word, options or not: it adds
# --oversubscribe (MPIEXEC_FLAGS being empty) and, as root, Open MPI's leave.
mkdir "$tmp/ompi"
cat >"$tmp/ompi/mpirun" <<EOF
#!/bin/sh
[ "\$1" != --version ] || { echo "mpirun (Open MPI) 4.1.4"; exit 0; }
echo "mpirun \$* root=\${OMPI_ALLOW_RUN_AS_ROOT:-}" >>"$tmp/ompi.log"
echo "# Findings: none"  # the program's end: umb-suite counts a run by it
EOF
chmod +x "$tmp/ompi/mpirun"
env -i PATH="$tmp/ompi:$PATH" UMB_BINDIR="$tmp/fake" MPIEXEC="mpirun --bind-to none" sh "$top_srcdir/scripts/umb-suite" >"$tmp/o" 2>&1 \
    || { cat "$tmp/o"; fail "umb-suite with MPIEXEC='mpirun --bind-to none'"; }
root=; [ "$(id -u)" -ne 0 ] || root=1
[ "$(grep -c -x -F "mpirun --bind-to none --oversubscribe -np 2 $tmp/fake/umb_latency H H root=$root" "$tmp/ompi.log")" -eq 1 ] \
    && [ "$(grep -c -e "--bind-to none --oversubscribe -np 2 .* root=$root\$" "$tmp/ompi.log")" -eq 9 ] \
    || { cat "$tmp/ompi.log"; fail "umb-suite: MPIEXEC='mpirun --bind-to none' was not run as Open MPI (9 runs)"; }
# No programs on PATH and no UMB_BINDIR, or a UMB_BINDIR without umb-run:
# what is missing and how to set it, in one line.
for script in "$slurm" "$lsf"; do
    one_line 1 "umb_latency is not on PATH and UMB_BINDIR is not set" env -i PATH=/usr/bin:/bin bash "$script"
    one_line 1 "UMB_BINDIR='$tmp/hostile': no umb-run there" env -i PATH=/usr/bin:/bin UMB_BINDIR="$tmp/hostile" bash "$script"
done

# Spack: the recipe's configure_args for each variant, against configure's own options.
"$PYTHON3" - "$top_srcdir/scripts/spack/package.py" "$top_srcdir/configure" <<'PY' || fail "spack recipe"
import re, sys, types
stub = types.ModuleType("spack.package")
stub.AutotoolsPackage, stub.CudaPackage = type("AutotoolsPackage", (), {}), type("CudaPackage", (), {})
stub.version = stub.variant = stub.depends_on = stub.which = lambda *a, **k: None
sys.modules["spack"] = types.ModuleType("spack"); sys.modules["spack.package"] = stub
ns = {}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), ns)
class Spec:
    def __init__(self, on, arch): self.on, self.arch = on, arch
    def satisfies(self, v): return v[1:] in self.on
    def __getitem__(self, dep): return types.SimpleNamespace(mpicc="/mpi/bin/mpicc", prefix="/cuda")
    variants = property(lambda self: {"cuda_arch": types.SimpleNamespace(value=self.arch)})
def args(on, arch=("none",)):
    p = ns["Umbench"](); p.spec = Spec(on, arch); return p.configure_args()
known = set(re.findall(r"--(?:with|without)-[a-z-]+", open(sys.argv[2]).read()))
for a in (args({"cuda", "cupti", "numa"}, ("90",)), args({"cuda", "numa"}), args(set())):
    flags = {x.split("=")[0] for x in a if x.startswith("--")}
    assert flags <= known | {x.replace("--with-", "--without-") for x in known}, (a, flags - known)
assert args({"cuda", "cupti", "numa"}, ("90",)) == ["MPICC=/mpi/bin/mpicc", "--with-cuda=/cuda", "--with-cuda-arch=90", "--with-cupti", "--with-numa"]
assert args({"cuda", "numa"})[2:] == ["--without-cupti", "--with-numa"]
assert args(set()) == ["MPICC=/mpi/bin/mpicc", "--without-cuda", "--without-cupti", "--without-numa"]
PY
exit 0
