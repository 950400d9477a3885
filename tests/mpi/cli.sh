#!/bin/sh
# What every program does besides measuring: -h and -v (exit 0, from rank 0
# only), the wrong number of ranks (one line, exit 1). Bad option values
# are in tests/bad_input.txt (bad_input_table.sh).
. "$top_srcdir/tests/lib.sh"

for prog in pt2pt/umb_latency pt2pt/umb_bw pt2pt/umb_bibw pt2pt/umb_mbw_mr collective/umb_bcast \
    collective/umb_allreduce collective/umb_reduce collective/umb_allgather collective/umb_alltoall; do
    name=$(basename $prog)
    run_mpi 2 "$top_builddir/mpi/$prog" -h
    expect_rc 0 "$name -h"
    [ "$(grep -c "^Usage: $name" "$tmp/out")" -eq 1 ] || fail "$name -h: usage once, from rank 0"
    grep -q -- '--timeout S' "$tmp/out" || fail "$name -h: lists --timeout"
    run_mpi 2 "$top_builddir/mpi/$prog" --version
    expect_rc 0 "$name --version"
    [ "$(cat "$tmp/out")" = "$name (umbench) $(sed -n 's/^AC_INIT(\[umbench\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")" ] \
        || { cat "$tmp/out"; fail "$name --version"; }
done

ranks() {  # ranks NP PROGRAM MESSAGE
    usage_error "$1" "$PT2PT/$2" "$3"
}
ranks 3 umb_latency "needs exactly 2 ranks, got 3"
ranks 1 umb_latency "needs exactly 2 ranks, got 1"
ranks 3 umb_bw "needs exactly 2 ranks, got 3"
ranks 3 umb_bibw "needs exactly 2 ranks, got 3"
ranks 3 umb_mbw_mr "needs a multiple of 2 ranks, got 3"
ranks 1 umb_mbw_mr "needs a multiple of 2 ranks, got 1"
exit 0
