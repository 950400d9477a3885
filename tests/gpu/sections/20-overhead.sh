#   overhead: umb_latency, umb_bw, umb_bcast (H) against bare MPI loops, interleaved rounds
#             (UMB_OVERHEAD_ROUNDS, default 31, within UMB_OVERHEAD_BUDGET s, default 420;
#             UMB_OVERHEAD_ONLY, default latency,bw,bcast; UMB_OVERHEAD_AA=1 adds the A/A
#             column; UMB_OVERHEAD_LAPS=1 then prices the per-iteration mark alone, --laps);
#             builds what it runs, on a kept build too (UMB_GPU_REUSE=1)
# shellcheck shell=bash

# The programs the overhead section measures and its tools, made in the
# build: a kept one too (UMB_GPU_REUSE=1 skips the build step, and only make
# check made the tools), so that it measures this tree. A build that cannot
# make them (its tree moved or changed under it) gives way to a fresh one,
# $build-overhead, for the section; either failure prints make's last lines.
overhead_build() {
    # selection: the three programs tests/tools/overhead measures against its bare loops
    local targets="mpi/pt2pt/umb_latency mpi/pt2pt/umb_bw mpi/collective/umb_bcast tests/tools/mpi_bare tests/tools/harness_cost"
    make -C "$build" -j16 $targets >"$out/build-overhead.log" 2>&1 && return
    echo "overhead: $build could not make its programs, building them afresh in $build-overhead; make said:"
    tail -8 "$out/build-overhead.log"
    build=$build-overhead
    ( cd "$top" && { [ -x configure ] || ./autogen.sh; } && rm -rf "$build" && mkdir -p "$build" && cd "$build" \
      && "$top/configure" --with-cuda-arch=90 && make -j16 $targets ) >>"$out/build-overhead.log" 2>&1 && return
    echo "overhead: the tools did not build; make said:"; tail -20 "$out/build-overhead.log"
    return 1
}

section_overhead() {
step "harness overhead: the per-iteration marks' cost, then umbench against bare MPI loops (tests/tools/overhead)"
local build=$build
overhead_build || { status=1; return; }
{ lscpu | grep -E "Model name|Thread|Core|Socket|MHz"; cat /sys/devices/system/clocksource/clocksource0/current_clocksource; } 2>&1 | tee "$out/overhead-cpu.txt"
"$build/tests/tools/harness_cost" | tee "$out/harness-cost.txt"
# 31 interleaved rounds: the 95% interval of each size's median ratio, and
# its verdict against the 2% target; no round starts that would end past
# UMB_OVERHEAD_BUDGET seconds (default 420: the section fits one call of
# 10 minutes with the build). UMB_OVERHEAD_AA=1 adds the A/A column (the
# reference run twice in every round: half as long again).
timeout 600 python3 "$top/tests/tools/overhead" --build "$build" --rounds "${UMB_OVERHEAD_ROUNDS:-31}" --launch "mpirun $ob1" \
    --only "${UMB_OVERHEAD_ONLY:-latency,bw,bcast}" ${UMB_OVERHEAD_AA:+--aa} --budget "${UMB_OVERHEAD_BUDGET:-420}" \
    --json "$out/overhead.json" 2>>"$out/overhead.err" | tee "$out/overhead.txt" || { tail -5 "$out/overhead.err"; status=1; }
# UMB_OVERHEAD_LAPS=1: then the bare loops with umbench's per-iteration mark
# against the bare loops, up to 64 KiB: what the per-iteration samples alone cost here.
if [ "${UMB_OVERHEAD_LAPS:-0}" = 1 ]; then
    timeout 600 python3 "$top/tests/tools/overhead" --build "$build" --rounds "${UMB_OVERHEAD_ROUNDS:-31}" --launch "mpirun $ob1" \
        --laps --only latency,bw --max-latency 64K --max-bw 64K --budget "${UMB_OVERHEAD_BUDGET:-420}" \
        --json "$out/overhead-laps.json" 2>>"$out/overhead.err" | tee "$out/overhead-laps.txt" || { tail -5 "$out/overhead.err"; status=1; }
fi
step "the handshake loop's ready message stays outside the timer: 8 B, handshake against classic, umbench and bare"
for r in 1 2 3; do
    for loop in classic handshake; do
        timeout 60 mpirun -np 2 $ob1 "$build/mpi/pt2pt/umb_latency" -m 8:8 -f --loop $loop --format json H H 2>&1 | python3 -c "
import json, sys
for o in map(json.loads, sys.stdin):
    if o['type'] == 'result': print('round $r  umb_latency --loop %-9s 8 B  avg %.3f  p50 %.3f  p99 %.3f us' % ('$loop', o['avg_latency_us'], o['p50_latency_us'], o['p99_latency_us']))"
    done
    for kind in latency handshake; do
        timeout 60 mpirun -np 2 $ob1 "$build/tests/tools/mpi_bare" $kind 8 | awk -v r=$r -v k=$kind '$1 == 8 { printf "round %s  mpi_bare %-21s 8 B  avg %s us\n", r, k, $2 }'
    done
done | tee "$out/overhead-handshake.txt"
}
