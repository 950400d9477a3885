#!/bin/sh
# umb_bw and umb_bibw with every pair of H P D MH MD, validated (-c), and
# umb_mbw_mr with managed buffers. Skipped (77) where no GPU is visible;
# D on a library that says it is not CUDA-aware must be refused (77).
. "$top_srcdir/tests/lib.sh"

run_mpi 2 "$PT2PT/umb_bw" -m 1:1 -i 1 -x 0 -W 1 MD MD
[ "$rc" -ne 77 ] || skip "$(grep '^umb_bw' "$tmp/err")"
expect_rc 0 "probe MD MD"
aware=$(sed -n 's/^# CUDA-aware MPI: \([a-z]*\).*/\1/p' "$tmp/out")

# The registry's bandwidth programs (two ranks, a window: umb_bw, umb_bibw).
progs=$(window_programs "$top_builddir")
[ -n "$progs" ] || fail "programs.txt lists no two-rank point-to-point program with a window (-W)"
for prog in $progs; do
    for a in H P D MH MD; do
        for b in H P D MH MD; do
            run_mpi 2 "$PT2PT/$prog" -m 1:256K -i 4 -x 1 -W 16 -c -f --format json --timeout 120 "$a" "$b"
            if [ "$aware" = no ] && { [ "$a" = D ] || [ "$b" = D ]; }; then
                expect_rc 77 "$prog $a $b on a non-CUDA-aware MPI"
                continue
            fi
            expect_rc 0 "$prog $a $b"
            must_judge validated "$tmp/out" 19
        done
    done
    echo "$prog: every pair validated (D refused: MPI CUDA-aware = $aware)"
done
# The programs of pairs (umb_mbw_mr).
pairs=$(programs family=pt2pt ranks=even)
[ -n "$pairs" ] || fail "programs.txt lists no point-to-point program of pairs"
for prog in $pairs; do
    for extra in "" "--place once" "--place-with prefetch"; do
        run_mpi 4 "$PT2PT/$prog" -m 1:64K -i 4 -x 1 -W 8 -c --format json --timeout 120 $extra MD MH
        expect_rc 0 "$prog MD MH $extra"
        must_judge validated "$tmp/out" 17
    done
    echo "$prog MD MH, 2 pairs: validated"
done
exit 0
