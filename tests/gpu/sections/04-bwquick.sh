#   bwquick: four pairs of the 4 MiB table
# shellcheck shell=bash

# A short recheck of the 4 MiB table: four pairs, no -c.
section_bwquick() {
step "umb_bw and umb_bibw, 4 MiB, four pairs, ob1"
for prog in $(window_programs "$build"); do for pair in "H H" "MH MD" "MD MH" "MD MD"; do
    timeout 120 mpirun -np 2 $ob1 "$build/mpi/pt2pt/$prog" -m 4M:4M -f --timeout 60 $pair >"$out/bwq-$prog-${pair// /-}.txt" 2>&1
    echo "$prog $pair (exit $?): $(grep -v '^#' "$out/bwq-$prog-${pair// /-}.txt")"
done; done
}
