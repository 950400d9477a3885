#   sanitizer: compute-sanitizer memcheck and racecheck over the util/ kernels
# shellcheck shell=bash

# compute-sanitizer memcheck and racecheck over every kernel in util/
# (the placement touch and the pattern fill), as the programs launch them.
section_sanitizer() {
step "compute-sanitizer memcheck and racecheck, every util/ kernel"
local pt=$build/mpi/pt2pt co=$build/mpi/collective
for tool in memcheck racecheck; do
    for cmd in "$pt/umb_latency -m 1:64K -i 10 -x 1 -c MD MD" \
               "$pt/umb_bw -m 1:1M -i 2 -x 1 -W 4 -c MD MH" \
               "$co/umb_bcast -m 1:64K -i 5 -x 1 -c --buffer MD"; do
        f=$out/$tool-$(basename "${cmd%% *}").txt
        timeout 200 mpirun -np 2 $ob1 compute-sanitizer --tool $tool --error-exitcode 9 $cmd >"$f" 2>&1
        rc=$?
        echo "$tool $(basename "${cmd%% *}") (exit $rc): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | sort | uniq -c | tr -s ' ' | tr '\n' ';') rows: $(grep -c Pass "$f") Pass"
        [ $rc -eq 0 ] || status=1
    done
done
}
