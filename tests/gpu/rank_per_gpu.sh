#!/bin/sh
# One rank per GPU, as users run on their nodes (a GPU machine with 2 or
# more GPUs; skipped, 77, with fewer), through this build's MPI (run it in a
# stack's build folder, with that stack's flags in MPIEXEC_FLAGS, for a
# CUDA-aware one: tests/gpu/run-all node):
#  1. N ranks on N GPUs: rank i on GPU i by its local rank, each its own PCI
#     bus, shared-gpu silent; --device 0 puts all on GPU 0 and shared-gpu
#     names every rank; with CUDA_VISIBLE_DEVICES per rank (Slurm's
#     --gpus-per-task) every rank says GPU 0 of 1 and its own PCI bus.
#  2. Every point-to-point and one-sided program of programs.txt, across two
#     GPUs, checks every byte (-c) for D D, MD MD, MH MH and MD MH; D is
#     refused (77) where the library says it is not CUDA-aware.
#  3. Every collective, one rank on each GPU, checks every byte with mixed
#     kinds per rank (--buffers) and with MD on every rank.
#  4. --path: D D through a CUDA-aware library goes GPU to GPU from 64 KiB;
#     through one that is not, MD MD never does; a row's path agrees with
#     the bytes it counted (a peer copy named staged fails, and the reverse).
. "$top_srcdir/tests/lib.sh"
n=$(gpu_count)
[ "$n" -ge 2 ] || skip "one rank per GPU needs 2 or more GPUs; this machine shows $n"
COLL=$top_builddir/mpi/collective
one="-m 8:8 -i 5 -x 1 --format json --timeout 120"

run_mpi "$n" "$COLL/umb_bcast" $one --buffer MD
[ "$rc" -ne 77 ] || skip "$(grep '^umb_bcast' "$tmp/err")"
expect_rc 0 "umb_bcast on $n ranks"
must_judge rank-per-gpu "$tmp/out" "$n"
aware=$("$PYTHON3" -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["cuda_awareness"]["verdict"])' "$tmp/out")
echo "$n ranks on $n GPUs; CUDA-aware MPI: $aware"
run_mpi "$n" "$COLL/umb_bcast" $one --buffer MD --device 0
expect_rc 0 "umb_bcast --device 0"
must_judge device-override "$tmp/out"
# As Slurm's --gpus-per-task or a site's wrapper: each rank sees its GPU alone.
cat >"$tmp/own-gpu" <<'SH'
#!/bin/sh
export CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-${SLURM_LOCALID:-${PMI_LOCAL_RANK:-0}}}}
exec "$@"
SH
chmod +x "$tmp/own-gpu"
run_mpi "$n" "$tmp/own-gpu" "$COLL/umb_bcast" $one --buffer MD
expect_rc 0 "umb_bcast, one GPU visible per rank"
must_judge visible-one "$tmp/out" "$n"

# refused_or_validated ROWS WHAT: D through a library that is not CUDA-aware
# is refused (77, with the reason), as is D for a collective whose library
# part runs on the CPU (a reduction's sum, allgather's own block) through one
# whose UCX alone carries GPU memory (verdict "ucx"); anything else checks
# every byte.
refused_or_validated() {
    has_d=$(echo "$2" | tr ' ,' '\n\n' | grep -c '^D$')
    if [ "$has_d" -gt 0 ] && [ "$aware" = no ]; then
        expect_rc 77 "$2 through a library that is not CUDA-aware"
        grep -q 'needs a CUDA-aware MPI' "$tmp/err" || { cat "$tmp/err"; fail "$2: no reason given"; }
        echo "$2: refused, the library is not CUDA-aware"
    elif [ "$has_d" -gt 0 ] && [ "$aware" = ucx ] && [ "$rc" -eq 77 ]; then
        grep -q 'needs a CUDA-aware MPI: the library [a-z ]* .* inside MPI_[A-Za-z]*, on the CPU' "$tmp/err" \
            || { cat "$tmp/err"; fail "$2: refused (77) without the library's own part as the reason"; }
        echo "$2: refused, the library's own part of it runs on the CPU"
        cpu_refused=$((cpu_refused + 1))
    else
        expect_rc 0 "$2"
        must_judge validated "$tmp/out" "$1"
    fi
}
cpu_refused=0
pair_flags=$mpi_flags
window_flags
rma_flags=$mpi_flags
for path in $(programs_of pt2pt rma); do
    prog=${path##*/} np=2
    case $(registry | awk -v p="$prog" '$1 == p { print $2 " " $4 }') in
    rma*) mpi_flags=$rma_flags ;;
    *even) mpi_flags=$pair_flags; [ $((n % 2)) -eq 0 ] && np=$n ;;
    *) mpi_flags=$pair_flags ;;
    esac
    # A window of 8 messages, for the programs that have one (their usage names -W).
    W=; timeout 20 "$top_builddir/$path" --help 2>&1 | grep -q -- '-W' && W="-W 8"
    for pair in "D D" "MD MD" "MH MH" "MD MH"; do
        run_mpi "$np" "$top_builddir/$path" -m 1:64K -i 3 -x 1 $W -c --format json --timeout 120 $pair
        refused_or_validated 17 "$prog $pair"
    done
done
mpi_flags=$pair_flags

# Collectives: kinds per rank from a cycle, D only where the library takes it.
kinds=$("$PYTHON3" -c 'import sys; n, aware = int(sys.argv[1]), sys.argv[2] != "no"
cycle = ["MD", "D", "MH", "H"] if aware else ["MD", "MH", "H", "P"]
print(",".join(cycle[i % 4] for i in range(n)))' "$n" "$aware")
for path in $(programs_of collective); do
    for place in "--buffers $kinds" "--buffer MD"; do
        run_mpi "$n" "$top_builddir/$path" -m 4:64K -i 3 -x 1 -c --format json --timeout 120 $place
        refused_or_validated 15 "${path##*/} $place"
    done
done
# Through a library whose UCX alone carries GPU memory, the collectives whose
# library part runs on the CPU (and only they) refuse D: one that ran would
# have crashed or validated.
[ "$aware" != ucx ] || [ "$cpu_refused" -ge 1 ] || fail "verdict ucx: no collective refused D"

# --path: GPU to GPU or through the host, by the copies counted.
grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h" || { echo "--path not checked: built without CUPTI"; exit 0; }
if [ "$aware" = no ]; then
    run_mpi 2 "$PT2PT/umb_bw" --path -m 64K:4M -i 5 -x 1 -W 8 --format json --timeout 120 MD MD
    expect_rc 0 "umb_bw --path MD MD"
    must_judge path-class "$tmp/out" not-direct
else
    run_mpi 2 "$PT2PT/umb_bw" --path -m 64K:4M -i 5 -x 1 -W 8 --format json --timeout 120 D D
    expect_rc 0 "umb_bw --path D D"
    must_judge path-class "$tmp/out" direct-from:65536
fi
exit 0
