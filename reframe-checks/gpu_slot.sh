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
# shared-gpu finding says that. A CUDA_VISIBLE_DEVICES already set (of
# GPU numbers) is the pool the GPUs are taken from, never widened.
#
# It runs inside the job's own shell, so it must never end it: whatever
# goes wrong (a bad value, no nvidia-smi, a lock folder it cannot use) is
# one line on stderr and the check runs on shared GPUs; the shell's
# set -e / set -u / pipefail change nothing (the function runs on the left
# of "||", where bash suspends set -e, and reads every variable with a
# default). It leaves no variable but CUDA_VISIBLE_DEVICES, no function,
# and no wait longer than UMBENCH_SLOT_WAIT (nvidia-smi gets 10 s).

# umb_slot_pool: the GPU numbers to take from, one a line: CUDA_VISIBLE_DEVICES's
# where it is set, else nvidia-smi's. Nothing where they cannot be known.
umb_slot_pool() {
    local list k have
    if [[ -n ${CUDA_VISIBLE_DEVICES+set} ]]; then  # set, even empty (no GPU at all): never widened
        IFS=, read -ra list <<<"$CUDA_VISIBLE_DEVICES"
        for k in "${list[@]}"; do [[ $k =~ ^[0123456789]{1,4}$ ]] || return 0; done  # UUIDs, MIG: left alone
        for k in "${list[@]}"; do echo "$(( 10#$k ))"; done | sort -un
        return 0
    fi
    have=$(timeout 10 nvidia-smi -L 2>/dev/null | grep -cE '^GPU [0123456789]+: ')
    for (( k = 0; k < have && k < 10000; k++ )); do echo "$k"; done
}

umb_slot_take() {
    local n=${1-} dir=${UMBENCH_SLOT_DIR-/tmp/umbench-gpu-slots} wait=${UMBENCH_SLOT_WAIT-900} waited=0 tries=0 start k fd f
    local -a pool fds ids
    # ASCII digits spelled out: a range such as [0-9] may take other digits
    # in some locales, and 10# reads "08" as eight, not as a bad octal.
    if [[ ! $n =~ ^[123456789][0123456789]{0,3}$ ]]; then
        echo "gpu_slot.sh: $(printf %q "$n"): expected a GPU count from 1 to 9999; the ranks share the GPUs" >&2; return 0
    fi
    if [[ ! $wait =~ ^[0123456789]{1,6}$ ]]; then
        echo "gpu_slot.sh: UMBENCH_SLOT_WAIT=$(printf %q "$wait"): expected seconds from 0 to 999999; the ranks share the GPUs" >&2
        return 0
    fi
    # The checks' job scripts each run in a folder of their own: a relative
    # folder would be one per check, and hold nothing against the others.
    if [[ $dir != /* ]] || ! mkdir -p -- "$dir" 2>/dev/null || [[ ! -d $dir || ! -w $dir || -L $dir ]]; then
        echo "gpu_slot.sh: UMBENCH_SLOT_DIR=$(printf %q "$dir"): expected an absolute path of a folder it can write; the ranks share the GPUs" >&2
        return 0
    fi
    if ! command -v flock >/dev/null; then
        echo "gpu_slot.sh: flock not found (util-linux): the ranks share the GPUs" >&2; return 0
    fi
    wait=$(( 10#$wait ))
    mapfile -t pool < <(umb_slot_pool)
    if (( ${#pool[@]} < n )); then
        echo "gpu_slot.sh: $n GPUs asked for, ${#pool[@]} here${CUDA_VISIBLE_DEVICES:+ (CUDA_VISIBLE_DEVICES=$(printf %q "$CUDA_VISIBLE_DEVICES"))}: the ranks share them" >&2
        return 0
    fi
    while :; do
        for (( start = 0; start + n <= ${#pool[@]}; start += n )); do
            fds=() ids=()
            for (( k = start; k < start + n; k++ )); do
                # A lock is a plain file: a FIFO would block the open (read and
                # write: never), a link may point at anyone's file.
                f=$dir/gpu${pool[k]}
                if [[ -L $f || ( -e $f && ! -f $f ) ]] || ! { exec {fd}<>"$f"; } 2>/dev/null; then
                    echo "gpu_slot.sh: $(printf %q "$f"): not a plain file it can open; the ranks share the GPUs" >&2
                    for fd in "${fds[@]}"; do exec {fd}>&-; done
                    return 0
                fi
                if ! flock -n "$fd"; then exec {fd}>&-; break; fi
                fds+=("$fd") ids+=("${pool[k]}")
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
        # Five tries a second: on a node where the checks take turns, the
        # next check starts within 0.2 s of the last one letting go.
        sleep 0.2
        tries=$(( tries + 1 )) waited=$(( tries / 5 ))
    done
}
umb_slot_take "$@" || :
unset -f umb_slot_take umb_slot_pool
