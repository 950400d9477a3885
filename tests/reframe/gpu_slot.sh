#!/bin/sh
# reframe-checks/gpu_slot.sh, which lets ReFrame's GPU checks run side by
# side on one machine of several GPUs, each holding GPUs of its own: over
# a stand-in nvidia-smi that shows two GPUs. Two one-GPU checks at once get
# GPUs 0 and 1; a third waits until one of them ends; a two-GPU check gets
# the pair 0,1; a check killed by a signal lets its GPU go; asked for more
# GPUs than the machine has, or for longer than UMBENCH_SLOT_WAIT, it
# leaves CUDA_VISIBLE_DEVICES alone and says so. No GPU, MPI or ReFrame.
. "$top_srcdir/tests/lib.sh"
command -v flock >/dev/null || skip "flock not found"
SLOT=$top_srcdir/reframe-checks/gpu_slot.sh
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "GPU 0: stand-in (UUID: GPU-0)"\necho "GPU 1: stand-in (UUID: GPU-1)"\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
export PATH="$tmp/bin:$PATH" UMBENCH_SLOT_DIR="$tmp/slots"
unset CUDA_VISIBLE_DEVICES
# job NAME N SECONDS: a job script's shell: takes N GPUs, writes what it
# got, holds them SECONDS.
job() {
    bash -c '. "$0" "$2"; echo "${CUDA_VISIBLE_DEVICES-unset}" >"$3"; sleep "$4"' "$SLOT" x "$2" "$tmp/$1" "$3" 2>"$tmp/$1.err"
}
job a 1 3 & a=$!
job b 1 3 & b=$!
sleep 1
job c 1 0 & c=$!
wait $a $b $c
[ "$(sort "$tmp/a" "$tmp/b" | paste -sd ' ')" = "0 1" ] || fail "two one-GPU checks: $(cat "$tmp/a" "$tmp/b")"
grep -Eq '^(0|1)$' "$tmp/c" && grep -Eq 'held after [1-9][0-9]* s' "$tmp/c.err" \
    || fail "the third check did not wait for a GPU to be let go: $(cat "$tmp/c" "$tmp/c.err")"
job pair 2 0 && [ "$(cat "$tmp/pair")" = "0,1" ] || fail "a two-GPU check: $(cat "$tmp/pair" "$tmp/pair.err")"
# Killed by a signal: its GPU goes back with its shell.
bash -c '. "$0" 2; echo held >"$1"; exec sleep 60' "$SLOT" "$tmp/k" 2>/dev/null & k=$!
i=0; while [ ! -s "$tmp/k" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
UMBENCH_SLOT_WAIT=1 job busy 1 0
[ "$(cat "$tmp/busy")" = unset ] && grep -q "no 1 free GPUs after 1 s (UMBENCH_SLOT_WAIT): the ranks share them" "$tmp/busy.err" \
    || fail "every GPU held: $(cat "$tmp/busy" "$tmp/busy.err")"
kill -9 $k; wait $k 2>/dev/null
UMBENCH_SLOT_WAIT=2 job after 2 0 && [ "$(cat "$tmp/after")" = "0,1" ] || fail "a killed check kept its GPUs: $(cat "$tmp/after.err")"
job many 3 0 && [ "$(cat "$tmp/many")" = unset ] && grep -q "3 GPUs asked for, 2 here: the ranks share them" "$tmp/many.err" \
    || fail "more GPUs than the machine has: $(cat "$tmp/many" "$tmp/many.err")"
exit 0
