#   collectives: umb_bcast's placements with 2 and 4 ranks, the other collectives
#   bcastprefetch: the umb_bcast table placed with cudaMemPrefetchAsync
# shellcheck shell=bash

# umb_bcast per-rank placement: one rank per GPU (2 ranks) and 4 ranks
# sharing the GPUs; then one line each for the other collectives.
section_collectives() { bcast_table ""; other_collectives; }

section_bcastprefetch() { bcast_table "--place-with prefetch"; }

bcast_table() {
coll=$build/mpi/collective
step "umb_bcast $1, ob1, -c -f: one rank per GPU and 4 ranks sharing ($(nvidia-smi -L | wc -l) GPUs)"
for np in 2 4; do
    for spec in "--root-buffer MD --buffer MH" "--buffer MD" "--buffer MH" "--buffer H"; do
        f=$out/bcast-$np-$(echo "$spec $1" | tr -d ' -').txt
        timeout 200 mpirun -np $np --oversubscribe $ob1 "$coll/umb_bcast" -m 1:1M -i 200 -x 20 -c -f --timeout 60 $1 $spec >"$f" 2>&1
        echo "--- umb_bcast -np $np $spec: exit $?"
        grep -E '^(# Rank [01]:|# Buffers|[0-9])' "$f" | sed -n '1,3p;/^8 /p;/^4096 /p;/^65536 /p;/^1048576 /p'
    done
done
}

other_collectives() {
coll=$build/mpi/collective
step "the other collectives, 2 ranks, --buffer MD, -c"
for prog in $(programs family=collective | grep -v '^umb_bcast$'); do
    timeout 120 mpirun -np 2 $ob1 "$coll/$prog" -m 4:1M -i 50 -x 5 -c --timeout 60 --buffer MD >"$out/$prog-2-MD.txt" 2>&1
    echo "$prog (exit $?): $(grep -E '^(8|65536|1048576) ' "$out/$prog-2-MD.txt" | tr -s ' ' | tr '\n' ';')"
done
}
