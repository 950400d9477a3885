#!/bin/sh
# The single-node drivers in c/ need no MPI (util/ in layers: they link
# core and gpu only, docs/decisions.md): none may load an MPI library.
. "$top_srcdir/tests/lib.sh"
command -v ldd >/dev/null || skip "no ldd"
n=0
for p in $(programs_of driver); do
    p=$top_builddir/$p
    [ -x "$p" ] || continue  # built with CUDA only
    ldd "$p" >"$tmp/ldd" || fail "ldd $p"
    if grep -E -q 'lib(mpi|mpich|open-pal|open-rte|pmix)[^ ]*\.so' "$tmp/ldd"; then cat "$tmp/ldd"; fail "$p loads an MPI library"; fi
    n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no c/ programs in this build (configured without CUDA)"
# The MPI programs, by contrast, do load it (the check can see a library).
ldd "$PT2PT/umb_latency" | grep -E -q 'lib(mpi|mpich)[^ ]*\.so' || fail "umb_latency: ldd shows no MPI library, so the check above proves nothing"
echo "$n c/ programs, none loads MPI"
exit 0
