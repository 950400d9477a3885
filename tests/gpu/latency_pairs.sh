#!/bin/sh
# umb_latency with every pair of H P D MH MD, validated (-c), on one GPU
# shared by 2 ranks or one each. Skipped (77) where no GPU is visible.
# D needs a CUDA-aware MPI: where the library says it is not, the run must
# refuse with exit 77 and say why.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency

run_mpi 2 "$lat" -m 1:1 -i 1 -x 0 MD MD
[ "$rc" -ne 77 ] || skip "$(grep '^umb_latency' "$tmp/err")"
expect_rc 0 "probe MD MD"
aware=$(sed -n 's/^# CUDA-aware MPI: \([a-z]*\).*/\1/p' "$tmp/out")

for a in H P D MH MD; do
    for b in H P D MH MD; do
        run_mpi 2 "$lat" -m 1:64K -i 20 -x 2 -c -f --format json --timeout 120 "$a" "$b"
        if [ "$aware" = no ] && { [ "$a" = D ] || [ "$b" = D ]; }; then
            expect_rc 77 "$a $b on a non-CUDA-aware MPI"
            grep -q 'needs a CUDA-aware MPI' "$tmp/err" || fail "$a $b: no refusal message"
            echo "$a $b: refused (MPI not CUDA-aware), as it must"
            continue
        fi
        expect_rc 0 "$a $b"
        must_judge validated "$tmp/out" 17
        echo "$a $b: 17 sizes validated"
    done
done
# The other placement method and --place once validate too.
for extra in "--place-with prefetch" "--place once" "--advise preferred=gpu,accessed-by=cpu"; do
    run_mpi 2 "$lat" -m 1:1M -i 10 -x 1 -c --format json $extra MD MH
    expect_rc 0 "MD MH $extra"
    must_judge validated "$tmp/out" 21
    echo "MD MH $extra: 21 sizes validated"
done
# A GPU index past the last: one line naming it, exit 1.
run_mpi 2 "$lat" -m 8 -i 5 --device 99 MD MD
expect_rc 1 "--device 99"
grep -q '^umb_latency: --device 99: rank 0 on .* sees [0-9]* GPU(s)' "$tmp/err" || { cat "$tmp/err"; fail "--device 99 message"; }
exit 0
