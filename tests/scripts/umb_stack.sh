#!/bin/sh
# scripts/umb-stack without a network or a build: bad arguments get one
# line naming them and exit 1; --dry-run prints every step, a stack's
# needs first, and writes nothing; env prints lines a shell can eval.
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

"$S" --prefix "$tmp/p" list >"$tmp/out" || fail "list"
[ "$(grep -c . "$tmp/out")" -eq 4 ] && grep -q '^ompi4-cuda .*Open MPI 4.1.4' "$tmp/out" || { cat "$tmp/out"; fail "list: four stacks"; }

# Dry run: the dependency first, the pinned downloads, the configure line; nothing written.
"$S" --prefix "$tmp/p" --dry-run build ompi4-cuda >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "--dry-run build ompi4-cuda"; }
grep -n '^== ' "$tmp/out" | sed -n '1p' | grep -q 'ucx-cu13' || { cat "$tmp/out"; fail "ucx-cu13 is not built first"; }
grep -q 'pip download .*libucx-cu13==1.22.0' "$tmp/out" || { cat "$tmp/out"; fail "no pinned libucx-cu13 download"; }
# Debian's source through the machine's apt sources (deb-src made from its
# deb lines, a private state), pinned by version; no host named anywhere.
grep -q "apt-get .*Dir::Etc::SourceList=$tmp/p/.cache/.apt/sources.list .* update" "$tmp/out" \
    && grep -q "apt_source $tmp/p/.cache openmpi=4.1.4-3 " "$tmp/out" \
    && grep -q "tar -xJf $tmp/p/.cache/openmpi_4.1.4.orig.tar.xz" "$tmp/out" || { cat "$tmp/out"; fail "no pinned Debian source download"; }
! grep -Eq 'https?://' "$tmp/out" || { grep -E 'https?://' "$tmp/out"; fail "--dry-run names a download host"; }
grep -q "src_configure $tmp/p/.build-ompi4-cuda --prefix=$tmp/p/ompi4-cuda --with-cuda=.* --with-ucx=$tmp/p/ucx-cu13/libucx" "$tmp/out" || { cat "$tmp/out"; fail "configure line"; }
[ ! -e "$tmp/p" ] || { ls -R "$tmp/p"; fail "--dry-run wrote into the prefix"; }
"$S" --prefix "$tmp/p" --dry-run build mpich4-cuda >"$tmp/out" 2>&1 || fail "--dry-run build mpich4-cuda"
grep -q 'with-device=ch4:ucx' "$tmp/out" && grep -q 'with-cuda-sm=90' "$tmp/out" && grep -q "^+ mpich_patch $tmp/p/.build-mpich4-cuda$" "$tmp/out" \
    || { cat "$tmp/out"; fail "mpich4-cuda steps"; }
"$S" --prefix "$tmp/p" --dry-run pack "$tmp/s.tgz" ompi5-wheel >"$tmp/out" 2>&1 || fail "--dry-run pack"
grep -q "tar -czf $tmp/s.tgz -C / ${tmp#/}/p/ucx-cu13 ${tmp#/}/p/ompi5-wheel" "$tmp/out" || { cat "$tmp/out"; fail "pack line"; }
# Several stacks that share ucx-cu13: it is packed once.
"$S" --prefix "$tmp/p" --dry-run pack "$tmp/s.tgz" ompi5-wheel ompi4-cuda mpich4-cuda >"$tmp/out" 2>&1 || fail "--dry-run pack of three"
grep -qx "+ tar -czf $tmp/s.tgz -C / ${tmp#/}/p/ucx-cu13 ${tmp#/}/p/ompi5-wheel ${tmp#/}/p/ompi4-cuda ${tmp#/}/p/mpich4-cuda" "$tmp/out" \
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
echo "umb-stack: arguments, dry runs and env lines as expected"
exit 0
