#   latency: the -c -f checks with OMB's iteration counts (about 8 minutes)
# shellcheck shell=bash

section_latency() {
step "latency checks: 2 ranks, one GPU, Open MPI ob1, -c -f"
for pair in "H H" "MH MH" "MD MD" "D D"; do
    f=$out/latency-${pair// /-}.txt
    timeout 300 mpirun -np 2 $ob1 "$lat" -c -f --timeout 60 $pair >"$f" 2>&1
    echo "--- umb_latency -c -f $pair: exit $?"
    grep -v '^# \(Date\|Rank\|MPI env\)' "$f"
done

step "the same without -c (no fill/check per message)"
for pair in "H H" "MD MD"; do
    timeout 300 mpirun -np 2 $ob1 "$lat" -f -m 1:4M --timeout 60 $pair >"$out/latency-nc-${pair// /-}.txt" 2>&1
    echo "--- umb_latency -f $pair: exit $?"; grep -v '^#' "$out/latency-nc-${pair// /-}.txt"
done

step "UCX pml (not CUDA-aware), 8 B to 4 MiB"
for pair in "H H" "MD MD"; do
    timeout 300 mpirun -np 2 $ucx "$lat" -m 8:4M -i 1000 --timeout 60 $pair >"$out/latency-ucx-${pair// /-}.txt" 2>&1
    echo "--- ucx $pair: exit $?"; grep -E '^(# UCX|# MPI env|[0-9])' "$out/latency-ucx-${pair// /-}.txt"
done

}
