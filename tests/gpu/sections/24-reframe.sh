#   reframe: the ReFrame library's GPU-tagged checks on "local", the machine's Open MPI and each carried
#            stack as environments, side by side with GPUs of their own (.carry/reframe: the reframe-hpc
#            wheels, docs/reframe.md); ReFrame stops after UMB_RF_LIMIT s (600) or at UMB_DEADLINE
# shellcheck shell=bash

# Issue 35 on a GPU: the ReFrame library's host and GPU checks on "local",
# in each environment: the machine's Open MPI, and ompi4-cuda where the
# stacks are carried (UMBENCH_ENVIRONS). ReFrame comes as wheels in
# .carry/reframe (docs/reframe.md), unpacked with zipfile: no pip, no network.
section_reframe() {
stacks_setup || echo "reframe: the machine's Open MPI only"
step "ReFrame: the library's checks on this machine, every environment"
local whl=$top/.carry/reframe rf=/tmp/umb-rf w
ls "$whl"/reframe_hpc-*.whl >/dev/null 2>&1 || { echo "no $whl/reframe_hpc-*.whl: carry them (docs/reframe.md)"; status=1; return; }
rm -rf "$rf" && mkdir -p "$rf/site"
for w in "$whl"/*.whl; do python3 -m zipfile -e "$w" "$rf/site" || { echo "unpack $w failed"; status=1; return; }; done
printf '#!/bin/sh\nPYTHONPATH=%s exec python3 -c "import sys; sys.argv[0] = \\"reframe\\"; from reframe.frontend.cli import main; main()" "$@"\n' \
    "$rf/site" >"$rf/reframe" && chmod +x "$rf/reframe"
"$rf/reframe" --version || { status=1; return; }
local environs="" s n
for s in ompi4-cuda mpich4-cuda; do
    [ -x /opt/umb-stacks/$s/bin/mpicc ] && environs="$environs $s=/opt/umb-stacks/$s/bin"
done
# The GPU checks side by side, each holding GPUs of its own
# (UMBENCH_GPU_SLOTS, reframe-checks/gpu_slot.sh): one job more than there
# are GPUs, so that a check is always waiting at the locks when one ends
# (ReFrame starts the next job only when it sees one end). What a check runs is trimmed, not how many run: 8 B to 64 KiB
# (the library's default), 20 iterations, no precision loop's repeats
# (docs/reframe.md: at 100, 60 of 171 ran in 520 s on 2 GPUs).
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
# UMB_RF_LIMIT (default 600 s), or what is left before UMB_DEADLINE (seconds
# since the epoch; the builds before this section came out of it).
local limit left
limit=$(seconds_var UMB_RF_LIMIT 600) && left=$(deadline_left) || { status=1; return; }
[ -n "$left" ] && [ "$left" -lt "$limit" ] && limit=$left
[ "$limit" -ge 60 ] || { echo "reframe: not run, $limit s left before UMB_DEADLINE"; status=1; return; }
echo "reframe: $limit s for ReFrame"
( cd "$rf" && UMBENCH_RUN_AS_ROOT=1 UMBENCH_ENVIRONS=${environs# } UMBENCH_PERFLOG="$rf/perflogs" UMBENCH_GPU_SLOTS=1 \
    UMBENCH_LOCAL_JOBS=${UMB_RF_JOBS:-$(( n + 1 ))} timeout "$limit" "$rf/reframe" \
    -C "$top/reframe-checks/umbench_config.py" -c "$top/reframe-checks/umbench_checks.py" --prefix "$rf" --nocolor \
    --system local -t "${UMB_RF_TAGS:-gpu}" -S umbench_build.cuda_arch=90 -S umbench_build.build_jobs=16 \
    -S "options=${UMB_RF_OPTIONS:--i,20,-x,2,--precision,off}" -r ) >"$out/reframe.log" 2>&1 || status=1
grep -E "^\[ *(OK|FAIL|SKIP) |Ran |PASSED|FAILED" "$out/reframe.log" | tail -150
tar -czf "$out/reframe-perflogs.tar.gz" -C "$rf" perflogs reframe.out 2>/dev/null
# Every check's output (output/ for those that passed, stage/ for the
# others), so that the sanity's rules can be tried again on what the GPUs printed.
( cd "$rf" && find output stage -name 'rfm_job.*' -print0 2>/dev/null | tar -czf "$out/reframe-outputs.tar.gz" --null -T - )
head -3 "$rf"/perflogs/local/default/umbench_pt2pt.log 2>/dev/null
}
