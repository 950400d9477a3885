#!/bin/sh
# Programs must start without an NVIDIA driver: nothing links libcuda.
. "$top_srcdir/tests/lib.sh"
command -v ldd >/dev/null || skip "no ldd"
for p in "$PT2PT"/umb_latency "$PT2PT"/umb_bw "$PT2PT"/umb_bibw "$PT2PT"/umb_mbw_mr \
    "$top_builddir"/mpi/collective/umb_bcast "$top_builddir"/mpi/collective/umb_allreduce \
    "$top_builddir"/mpi/collective/umb_reduce "$top_builddir"/mpi/collective/umb_allgather \
    "$top_builddir"/mpi/collective/umb_alltoall; do
    ldd "$p" >"$tmp/ldd" || fail "ldd $p"
    if grep -q 'libcuda\.so' "$tmp/ldd"; then cat "$tmp/ldd"; fail "$p links libcuda.so"; fi
done
exit 0
