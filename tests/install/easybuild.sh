#!/bin/sh
# umbench installed as an HPC site installs it (docs/install.md): `make
# easyconfig` makes the tarball and its easyconfig (the checksum that
# tarball's); EasyBuild builds it with the ConfigureMake easyblock, the MPI
# library a module of the site's (here Debian's Open MPI as one, an
# external module), and writes an Lmod module; then a fresh shell, with
# nothing but Lmod and what `module load umbench` sets, runs umb_latency H H
# through mpirun and umb-run --set quick over host buffers.
# Needs EasyBuild (UMB_EB names its eb: .ci/run makes a virtual environment
# with pinned easybuild-framework and easybuild-easyblocks) and Lmod (Debian:
# lmod; LMOD_CMD or Debian's place); skips without them, unless
# UMB_NEED_EASYBUILD=1.
. "$top_srcdir/tests/lib.sh"
need() {
    [ "${UMB_NEED_EASYBUILD:-0}" != 1 ] || fail "UMB_NEED_EASYBUILD=1 but $*"
    skip "$*"
}
EB=${UMB_EB:-$(command -v eb || true)}
[ -n "$EB" ] && [ -x "$EB" ] || need "no EasyBuild (set UMB_EB to its eb)"
LMOD=${LMOD_CMD:-/usr/share/lmod/lmod/libexec/lmod}
LMOD_INIT=$(dirname "$LMOD")/../init/bash
[ -x "$LMOD" ] && [ -r "$LMOD_INIT" ] || need "no Lmod (Debian: lmod; or set LMOD_CMD)"
command -v bash >/dev/null || skip "no bash (Lmod's shell here)"
needs_scripts  # the module's umb-run
# The module of the MPI library stands for Open MPI's (EB_MPI_MODULE's
# default, openmpi); another library's build (MPICH) is not this test's.
"$MPIEXEC" --version 2>&1 | grep -q "Open MPI" || skip "$MPIEXEC is not Open MPI's (the test's MPI module is Open MPI)"
t0=$(date +%s)

# 1. The tarball and its easyconfig, by the make target a release uses.
make -s -C "$top_builddir" easyconfig >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make easyconfig"; }
v=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
ec=umbench-$v.eb tarball=umbench-$v.tar.gz
mkdir -p "$tmp/src/u" && mv "$top_builddir/$ec" "$top_builddir/$tarball" "$tmp/src/u/" || fail "no $ec and $tarball"
sum=$(sha256sum "$tmp/src/u/$tarball" | cut -d' ' -f1)
grep -q "^checksums = \['$sum'\]$" "$tmp/src/u/$ec" || fail "$ec does not hold its tarball's sha256 $sum"
grep -q "^toolchain = SYSTEM$" "$tmp/src/u/$ec" && grep -q "('openmpi', EXTERNAL_MODULE)" "$tmp/src/u/$ec" \
    && grep -q "('jsonschema', EXTERNAL_MODULE)" "$tmp/src/u/$ec" \
    || fail "$ec: not the system toolchain with the MPI and jsonschema's Python as external modules"

# 2. The site's module of its MPI library (Lmod, Lua).
mkdir -p "$tmp/site"
mpicc=$(command -v mpicc || true)
{
    echo '-- The site module of an MPI library: here Debian'"'"'s Open MPI.'
    echo "prepend_path(\"PATH\", \"$(dirname "$(command -v "$MPIEXEC")")\")"
    [ -z "$mpicc" ] || echo "setenv(\"MPICC\", \"$mpicc\")"
} >"$tmp/site/openmpi.lua"
# ... and of a Python with jsonschema (EB_PYTHON_MODULE's default): here
# configure's Python (the system's, in CI), on PATH first.
echo "prepend_path(\"PATH\", \"$(dirname "$(command -v "$PYTHON3")")\")" >"$tmp/site/jsonschema.lua"

# eb_run LOG ARGS...: EasyBuild on ARGS, its output in LOG; status in $rc.
eb_run() {
    log=$1; shift
    rc=0
    (
        cd "$tmp" || exit 1
        # No configuration of this user's or machine's (EASYBUILD_*, config
        # files under HOME or /etc) changes what the easyconfig alone says.
        for var in $(env | sed -n 's/^\(EASYBUILD_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$var"; done
        mkdir -p "$tmp/ebhome"
        export HOME="$tmp/ebhome" XDG_CONFIG_HOME="$tmp/ebhome" XDG_CONFIG_DIRS="$tmp/ebhome"
        export MODULEPATH="$tmp/site" LMOD_CMD="$LMOD" EB_PYTHON
        EB_PYTHON=$(dirname "$EB")/python3
        [ -x "$EB_PYTHON" ] || EB_PYTHON=$PYTHON3
        # Root only where the test runs as root (CI's sanitizer build): eb refuses it otherwise.
        [ "$(id -u)" -ne 0 ] || set -- --allow-use-as-root-and-accept-consequences "$@"
        timeout 900 "$EB" "$@" --prefix="$tmp/eb" --installpath="$tmp/eb" --sourcepath="$tmp/src" \
            --buildpath="$tmp/eb/build" --tmpdir="$tmp/ebtmp" --modules-tool=Lmod --module-syntax=Lua \
            --parallel=2 --detect-loaded-modules=ignore
    ) >"$log" 2>&1 || rc=$?
}

# 3. EasyBuild builds it, as a site's software stack would.
eb_run "$tmp/eb.log" "$tmp/src/u/$ec"
if [ $rc -ne 0 ]; then
    cat "$tmp/eb.log"; tail -40 "$tmp"/ebtmp/*/easybuild-*.log 2>/dev/null
    fail "eb $ec: exit $rc"
fi
grep -q "COMPLETED: Installation ended successfully" "$tmp/eb.log" || { cat "$tmp/eb.log"; fail "eb did not say it installed"; }
echo "eb built and installed $ec in $(($(date +%s) - t0)) s (make easyconfig included):"
grep -E '^== (building|configuring|sanity checking|creating module|COMPLETED)' "$tmp/eb.log"
modfile=$tmp/eb/modules/all/umbench/$v.lua
[ -f "$modfile" ] || fail "eb wrote no module $modfile"
grep -Eq '^(depends_on|load)\("openmpi"\)' "$modfile" && grep -Eq '^(depends_on|load)\("jsonschema"\)' "$modfile" \
    || { cat "$modfile"; fail "the module does not load the MPI module and jsonschema's"; }
grep -E '^(depends_on|load|prepend_path)' "$modfile"

# The GPU build's easyconfig, for a site's CUDA module: EasyBuild's
# extended dry run (no CUDA here) configures --with-cuda and writes a
# module that loads the CUDA module beside the MPI's.
sh "$top_srcdir/scripts/easybuild/easyconfig.sh" "$top_srcdir/scripts/easybuild/umbench.eb.in" "$tmp/src/u/$tarball" "$v" \
    openmpi cuda/12.4 jsonschema >"$tmp/src/u/umbench-$v-CUDA.eb" || fail "no CUDA easyconfig"
mkdir -p "$tmp/site/cuda" && echo '-- The site module of CUDA: a stand-in (no CUDA here).' >"$tmp/site/cuda/12.4.lua"
eb_run "$tmp/eb-cuda.log" "$tmp/src/u/umbench-$v-CUDA.eb" --extended-dry-run
grep -q 'running shell command "./configure --prefix=[^ ]*/umbench/'"$v"'-CUDA --with-cuda"' "$tmp/eb-cuda.log" \
    && grep -q 'depends_on("cuda/12.4")' "$tmp/eb-cuda.log" && grep -q 'depends_on("openmpi")' "$tmp/eb-cuda.log" \
    || { cat "$tmp/eb-cuda.log"; fail "eb -x of the CUDA easyconfig: exit $rc, or not configure --with-cuda with openmpi and cuda/12.4 loaded"; }
echo "the CUDA easyconfig: eb --extended-dry-run configures --with-cuda; its module loads openmpi and cuda/12.4"
# A module name the site gives is one, or refused in one line.
one_line 1 "EB_MPI_MODULE 'open mpi;x' is not a module name" sh "$top_srcdir/scripts/easybuild/easyconfig.sh" \
    "$top_srcdir/scripts/easybuild/umbench.eb.in" "$tmp/src/u/$tarball" "$v" 'open mpi;x'

# 4. A user's fresh shell: no variable of this one (env -i), Lmod's init as
#    a login shell has it, the site's module folders, `module load umbench`.
#    Open MPI's leaves to run as root and its loopback interfaces are the
#    launcher's, as in tests/lib.sh; nothing else comes from here.
cat >"$tmp/user.sh" <<'EOS'
. "$1" || exit 1
module use "$2" "$3"
module avail 2>&1
module load umbench || exit 1
echo "LOADEDMODULES=$LOADEDMODULES"
command -v umb_latency umb-run mpirun
mpirun $4 -np 2 umb_latency H H || exit 1
cd "$5" && umb-run --set quick --match ' H H$' --out results
EOS
mkdir -p "$tmp/home"
rc=0
env -i HOME="$tmp/home" PATH=/usr/bin:/bin LMOD_CMD="$LMOD" ${OMPI_MCA_oob_tcp_if_include:+OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo} \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout "$RUN_LIMIT" bash --noprofile --norc "$tmp/user.sh" "$LMOD_INIT" "$tmp/site" "$tmp/eb/modules/all" "$mpi_flags" "$tmp/home" \
    </dev/null >"$tmp/user.log" 2>&1 || rc=$?
cat "$tmp/user.log"
[ $rc -eq 0 ] || fail "the fresh shell with module load umbench: exit $rc"
grep -q "umbench/$v" "$tmp/user.log" || fail "module avail does not list umbench/$v"
grep -q "^LOADEDMODULES=.*openmpi.*jsonschema.*umbench/$v" "$tmp/user.log" || fail "module load umbench did not load the MPI module and jsonschema's, then umbench"
grep -qx "$tmp/eb/software/umbench/$v/bin/umb_latency" "$tmp/user.log" || fail "umb_latency on PATH is not EasyBuild's install"
grep -q '^# umbench' "$tmp/user.log" && grep -q '^{"type":"result"' "$tmp/user.log" || grep -Eq '^[0-9]+ +[0-9.]+' "$tmp/user.log" \
    || fail "umb_latency H H printed no rows"
run=$tmp/home/results/run.json
[ -f "$run" ] || fail "umb-run wrote no run.json"
"$PYTHON3" - "$run" "$v" <<'PY' || fail "run.json: not every quick H H run passed, or the modules are not recorded"
import json, sys
run = json.load(open(sys.argv[1]))
runs = run["runs"]
assert runs and all(r["status"] == 0 and r["buffers"] == "H H" for r in runs), runs
mods = run["env"].get("LOADEDMODULES", "")
assert "umbench/" + sys.argv[2] in mods.split(":"), mods
print("umb-run --set quick: %d runs of H H passed; run.json env LOADEDMODULES=%s" % (len(runs), mods))
PY
echo "easybuild.sh: $(($(date +%s) - t0)) s in all"
