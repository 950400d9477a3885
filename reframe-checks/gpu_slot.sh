# shellcheck shell=bash
# Sourced by a ReFrame job script on one machine of several GPUs where
# checks run side by side (the "local" partition's extras gpu_slots,
# UMBENCH_GPU_SLOTS=1; docs/reframe.md):
#
#   . gpu_slot.sh N
#
# waits until N GPUs of this machine are held by no other check, holds
# them until the job's shell ends (an flock per GPU, on file descriptors
# the shell keeps open, so that a check that is killed lets them go), and
# sets CUDA_VISIBLE_DEVICES to them: a check of N ranks gets N GPUs of its
# own, one rank per GPU, as users run. The GPUs are taken in aligned
# groups (0-1, 2-3 for N=2), so that two checks never split a pair. With
# fewer GPUs than N, or after UMBENCH_SLOT_WAIT seconds (default 900)
# without N free, it leaves CUDA_VISIBLE_DEVICES alone and says so: the
# check then shares GPUs, as it would without slots, and its
# shared-gpu finding says that.
umb_slot_take() {
    local n=$1 have dir wait waited=0 start k fd fds ids
    have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    dir=${UMBENCH_SLOT_DIR:-/tmp/umbench-gpu-slots}
    wait=${UMBENCH_SLOT_WAIT:-900}
    [[ $n =~ ^[1-9][0-9]{0,3}$ && $wait =~ ^[0-9]{1,6}$ ]] || { echo "gpu_slot.sh: expected a GPU count, got '$n'" >&2; return 0; }
    if (( have < n )); then
        echo "gpu_slot.sh: $n GPUs asked for, $have here: the ranks share them" >&2
        return 0
    fi
    mkdir -p "$dir" || return 0
    while :; do
        for (( start = 0; start + n <= have; start += n )); do
            fds=() ids=()
            for (( k = start; k < start + n; k++ )); do
                exec {fd}>>"$dir/gpu$k" || break
                if ! flock -n "$fd"; then exec {fd}>&-; break; fi
                fds+=("$fd") ids+=("$k")
            done
            if (( ${#ids[@]} == n )); then
                CUDA_VISIBLE_DEVICES=$(IFS=,; echo "${ids[*]}")
                export CUDA_VISIBLE_DEVICES
                echo "gpu_slot.sh: GPUs $CUDA_VISIBLE_DEVICES held after ${waited} s" >&2
                return 0
            fi
            for fd in "${fds[@]}"; do exec {fd}>&-; done
        done
        if (( waited >= wait )); then
            echo "gpu_slot.sh: no $n free GPUs after $wait s (UMBENCH_SLOT_WAIT): the ranks share them" >&2
            return 0
        fi
        sleep 1
        waited=$(( waited + 1 ))
    done
}
umb_slot_take "$@"
