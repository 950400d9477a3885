#!/bin/sh
# Programs must start without an NVIDIA driver: nothing links libcuda.
. "$top_srcdir/tests/lib.sh"
command -v ldd >/dev/null || skip "no ldd"
for p in $(mpi_programs); do
    p=$top_builddir/$p
    ldd "$p" >"$tmp/ldd" || fail "ldd $p"
    if grep -q 'libcuda\.so' "$tmp/ldd"; then cat "$tmp/ldd"; fail "$p links libcuda.so"; fi
done
exit 0
