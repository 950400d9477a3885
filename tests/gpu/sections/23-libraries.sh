#   libraries: the machine's Open MPI, ompi4-cuda and ompi5-wheel interleaved by umb-run --build (8 rounds), umb-compare
# shellcheck shell=bash

# Issue 33's libraries interleaved like settings: one umb-run over the build
# folders of three MPI libraries (--build), each through the launcher its
# configure recorded, the order turned each round; the wheel's ranks get
# ucx-cu13 first (-x LD_LIBRARY_PATH, as `umb-stack env` puts it).
section_libraries() {
stacks_setup || echo "libraries: the machine's Open MPI only"
step "MPI libraries interleaved round by round: umb-run --build, 8 rounds, umb-compare"
local builds=(--build "system=$build:$ob1") ucxlib
ucxlib=$(eval "$("$top/scripts/umb-stack" env ucx-cu13)" && echo "${LD_LIBRARY_PATH%%:*}")
stack_built ompi4-cuda && builds+=(--build "ompi4-cuda=/tmp/umb-stack-ompi4-cuda:$ucx")
stack_built ompi5-wheel && builds+=(--build "ompi5-wheel=/tmp/umb-stack-ompi5-wheel:$ucx -x LD_LIBRARY_PATH=$ucxlib")
stack_built mpich4-cuda && builds+=(--build "mpich4-cuda=/tmp/umb-stack-mpich4-cuda:")
# UMB_DEADLINE (seconds since the epoch): no round starts after it.
if [ -n "${UMB_DEADLINE:-}" ]; then
    UMB_LIBS_BUDGET=$(( UMB_DEADLINE - $(date +%s) ))
    [ "$UMB_LIBS_BUDGET" -ge 30 ] || { echo "libraries: not run, $UMB_LIBS_BUDGET s left before UMB_DEADLINE"; return; }
fi
timeout 900 python3 "$top/scripts/umb-run" --set "${UMB_LIBS_SET:-quick}" --match "${UMB_LIBS_MATCH:-^umb_(latency|bw) (H H|MD MD)\$}" --rounds 8 ${UMB_LIBS_BUDGET:+--budget $UMB_LIBS_BUDGET} \
    "${builds[@]}" --run-limit 60 --out "$out/libs" -- --timeout 50 --place-with prefetch </dev/null >"$out/libs.log" 2>&1
echo "--- umb-run ${builds[*]}: exit $?"; tail -2 "$out/libs.log"
python3 "$top/scripts/umb-compare" "$out/libs" --plot "$out/libs-compare.png" | tee "$out/libs-compare.txt"
}
