#   libraries: the machine's Open MPI and each carried stack interleaved by umb-run --build (8 rounds), umb-compare:
#              two ranks on GPUs 0 and 1, then collectives with one rank on every GPU where there are more than 2
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
# UMB_LIBS_EXTRA: more benchmark options for every run (e.g. --precision
# off: the 8 rounds are the repeats, where a call's time is short).
# UMB_DEADLINE (seconds since the epoch): no round starts after it; the
# two-rank comparison takes half of what is left where a comparison on
# every GPU follows.
local n budget
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
libs_compare() {  # NAME NP MATCH SHARE: umb-run --build over every library, NP ranks, then umb-compare
    local left
    budget=
    left=$(deadline_left) || { status=1; return; }
    if [ -n "$left" ]; then
        budget=$(( left / $4 ))
        [ "$budget" -ge 30 ] || { echo "libraries $1: not run, $budget s left before UMB_DEADLINE"; return; }
    fi
    timeout 900 python3 "$top/scripts/umb-run" --set "${UMB_LIBS_SET:-quick}" --match "$3" --np "$2" --rounds 8 ${budget:+--budget $budget} \
        "${builds[@]}" --run-limit 60 --out "$out/$1" -- --timeout 50 --place-with prefetch ${UMB_LIBS_EXTRA:-} </dev/null >"$out/$1.log" 2>&1
    echo "--- umb-run --np $2 ${builds[*]}: exit $?"; tail -2 "$out/$1.log"
    python3 "$top/scripts/umb-compare" "$out/$1" --plot "$out/$1-compare.png" | tee "$out/$1-compare.txt"
}
# UMB_LIBS_PARTS: which comparisons, "pairs" (two ranks, GPUs 0 and 1)
# and "every" (one rank on every GPU, where there are more than 2).
local parts=" ${UMB_LIBS_PARTS:-pairs every} "
[ "$n" -gt 2 ] || parts=${parts/ every / }
local share=1  # the two-rank comparison's share of what is left
case $parts in *" every "*) share=2 ;; esac
case $parts in *" pairs "*)
    libs_compare libs 2 "${UMB_LIBS_MATCH:-^umb_(latency|bw) (H H|MD MD)\$}" $share ;;
esac
case $parts in *" every "*)
    libs_compare "libs-${n}gpu" "$n" "${UMB_LIBS_COLL_MATCH:-^umb_bcast (H|MD)\$}" 1 ;;
esac
}
