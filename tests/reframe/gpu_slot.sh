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
# The script runs inside the job's own shell: whatever it is given, the
# shell goes on (under set -euo pipefail too), with one line on stderr,
# CUDA_VISIBLE_DEVICES untouched where no GPU was held, nothing made where
# a value was refused, and never a wait past UMBENCH_SLOT_WAIT.
# probe NAME N [VAR=VALUE...]: such a shell, in the empty folder
# $tmp/NAME.cwd (one per probe: the waits below run beside the rest).
probe() {
    name=p-$(printf '%s' "$1" | tr -c 'A-Za-z0-9' _) n=$2; shift 2
    rm -rf "$tmp/$name.cwd"; mkdir "$tmp/$name.cwd"
    (cd "$tmp/$name.cwd" && env "$@" timeout 20 bash -c 'set -euo pipefail; . "$0" "$1"; echo "alive ${CUDA_VISIBLE_DEVICES-unset}"' "$SLOT" "$n") \
        >"$tmp/$name" 2>"$tmp/$name.err" || true
}
# refused NAME TEXT N [VAR=VALUE...]: one line holding TEXT, the GPUs shared.
refused() {
    what=$1 text=$2; shift 2; probe "$what" "$@"
    [ "$(cat "$tmp/$name")" = "alive unset" ] && [ "$(wc -l <"$tmp/$name.err")" -eq 1 ] && grep -qF -- "$text" "$tmp/$name.err" \
        && [ -z "$(ls -A "$tmp/$name.cwd")" ] || fail "$name: $(cat "$tmp/$name" "$tmp/$name.err")"
}

# The cases that wait long (nvidia-smi's 10 s guard, UMBENCH_SLOT_WAIT=08)
# wait beside the others, each with its own folders (probe's, held's
# locks): they cost their own seconds, not the test's sum of them.
# No nvidia-smi, or one that prints no GPU (set -e once ended the job's shell here), or never ends.
mkdir "$tmp/none" "$tmp/junk" "$tmp/hang"
printf '#!/bin/sh\necho "No devices were found"\nexit 9\n' >"$tmp/junk/nvidia-smi"
printf '#!/bin/sh\nexec sleep 100\n' >"$tmp/hang/nvidia-smi"
chmod +x "$tmp/junk/nvidia-smi" "$tmp/hang/nvidia-smi"
# The system's commands without its nvidia-smi (a GPU machine has one in /usr/bin).
mkdir "$tmp/sys"
# (One ln for all: a ln per command was 1,400 processes, 2 s.) /usr/bin's
# first, then /bin's that it lacks (ln says the others exist).
ln -s /usr/bin/* "$tmp/sys/" && { ln -s /bin/* "$tmp/sys/" 2>/dev/null || :; } && rm -f "$tmp/sys/nvidia-smi" \
    || fail "cannot link the system's commands into $tmp/sys"
refused smihang "1 GPUs asked for, 0 here: the ranks share them" 1 PATH="$tmp/hang:$tmp/sys" & smihang=$!
(
    # Leading zeros are decimal: UMBENCH_SLOT_WAIT=08 with every GPU held once
    # waited for ever (bash's octal, an error each second).
    export UMBENCH_SLOT_DIR="$tmp/held"
    bash -c '. "$0" 2; echo held >"$1"; exec sleep 60' "$SLOT" "$tmp/k2" 2>/dev/null & k=$!
    i=0; while [ ! -s "$tmp/k2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    refused wait08 "no 1 free GPUs after 8 s (UMBENCH_SLOT_WAIT)" 1 UMBENCH_SLOT_WAIT=08
    # A signal while it waits ends the job's shell at once.
    bash -c '. "$0" 1; echo "${CUDA_VISIBLE_DEVICES-unset}" >"$1"' "$SLOT" "$tmp/sig" 2>/dev/null & s=$!
    sleep 1; kill -TERM $s
    i=0; while kill -0 $s 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
    ! kill -0 $s 2>/dev/null && [ ! -s "$tmp/sig" ] || fail "SIGTERM while waiting: the shell went on"
    kill -9 $k; wait $k 2>/dev/null || :  # its status is the signal's
) & held=$!
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
bad_n=$(printf '\331\243')  # an Arabic-Indic three: a digit to a locale's [0-9], not to $(( ))
for n in 0 -1 99999 '1;id' "$bad_n" '' '1 2' "$(printf '1\nx')"; do
    refused "n$n" "expected a GPU count from 1 to 9999" "$n"
done
for w in -1 1e3 "$bad_n" "$(printf '1\nx')" 1234567 ''; do
    refused "wait$w" "UMBENCH_SLOT_WAIT=" 1 UMBENCH_SLOT_WAIT="$w"
done
touch "$tmp/file"
# A relative folder would be one per job script's folder: no check held anything against another.
for d in slots -v '' "$tmp/file" /dev/full /dev/null; do
    refused "dir$d" "UMBENCH_SLOT_DIR=" 1 UMBENCH_SLOT_DIR="$d"
done
for b in none junk; do
    refused "smi$b" "1 GPUs asked for, 0 here: the ranks share them" 1 PATH="$tmp/$b:$tmp/sys"
done
# ReFrame's --trap-job-errors puts "trap _onerror ERR" (exit) atop the job script; with set -E it reaches functions.
PATH="$tmp/junk:/usr/bin:/bin" bash -c 'set -E; trap "exit 9" ERR; . "$0" 1 2>/dev/null; echo alive' "$SLOT" >"$tmp/errtrap" || true
[ "$(cat "$tmp/errtrap")" = alive ] || fail "an ERR trap that exits ended the job's shell"
# A lock that is not a plain file: a FIFO blocked the open for ever, a link was followed to another file.
mkdir "$tmp/fifo" "$tmp/link"
mkfifo "$tmp/fifo/gpu0"
ln -s "$tmp/victim" "$tmp/link/gpu0"
refused fifo "gpu0: not a plain file it can open" 1 UMBENCH_SLOT_DIR="$tmp/fifo"
refused link "gpu0: not a plain file it can open" 1 UMBENCH_SLOT_DIR="$tmp/link"
[ ! -e "$tmp/victim" ] || fail "a lock's link made the file it points at"
# It leaves CUDA_VISIBLE_DEVICES and nothing else: no variable, no function.
bash -c 'a=$(declare -p; declare -F); . "$0" 1 2>/dev/null; b=$(declare -p; declare -F)
    diff <(echo "$a") <(echo "$b") | grep "^[<>]" | grep -Ev "^[<>] declare -. (BASH_[A-Z_]*|PIPESTATUS|_|a)="' "$SLOT" >"$tmp/leak"
[ "$(cat "$tmp/leak")" = '> declare -x CUDA_VISIBLE_DEVICES="0"' ] || fail "it leaves more than CUDA_VISIBLE_DEVICES: $(cat "$tmp/leak")"
# A CUDA_VISIBLE_DEVICES already set (a scheduler's, a user's) is the pool,
# never widened; one of UUIDs is left alone.
probe cvd 1 CUDA_VISIBLE_DEVICES=1
[ "$(cat "$tmp/p-cvd")" = "alive 1" ] || fail "CUDA_VISIBLE_DEVICES=1: $(cat "$tmp/p-cvd" "$tmp/p-cvd.err")"
CUDA_VISIBLE_DEVICES=1 bash -c 'IFS=1; . "$0" 1 2>/dev/null; echo "$CUDA_VISIBLE_DEVICES"' "$SLOT" >"$tmp/ifs"
[ "$(cat "$tmp/ifs")" = 1 ] || fail "CUDA_VISIBLE_DEVICES=1 under the job shell's IFS=1: '$(cat "$tmp/ifs")'"
probe uuid 1 CUDA_VISIBLE_DEVICES=GPU-0
[ "$(cat "$tmp/p-uuid")" = "alive GPU-0" ] || fail "CUDA_VISIBLE_DEVICES=GPU-0: $(cat "$tmp/p-uuid" "$tmp/p-uuid.err")"
# Takers racing for the last GPU: no two ever hold it at once (a folder
# only one can make, while it holds the GPU).
bash -c '. "$0" 1; echo held >"$1"; exec sleep 60' "$SLOT" "$tmp/k3" 2>/dev/null & k=$!
i=0; while [ ! -s "$tmp/k3" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mkdir "$tmp/mark"
for _ in 1 2 3 4 5 6 7 8 9 10; do
    takers=
    for _ in 1 2 3; do
        bash -c '. "$0" 1 2>/dev/null; g=${CUDA_VISIBLE_DEVICES-unset}; mkdir "$1/$g" || echo "two hold GPU $g"; sleep 0.05
            rmdir "$1/$g"; echo "$g"' "$SLOT" "$tmp/mark" >>"$tmp/race" 2>&1 & takers="$takers $!"
    done
    # shellcheck disable=SC2086 # the takers' pids, one word each
    wait $takers
done
kill -9 $k; wait $k 2>/dev/null
[ "$(sort -u "$tmp/race")" = 1 ] && [ "$(wc -l <"$tmp/race")" -eq 30 ] || fail "takers racing for GPU 1: $(sort "$tmp/race" | uniq -c)"
# The configuration reads the same variables, typed as gpu_slot.sh reads
# them: a bad one is refused before any check runs, in one line.
if [ -n "${PYTHON3:-}" ]; then
    for kv in UMBENCH_SLOT_WAIT=-1 UMBENCH_SLOT_WAIT=1e3 UMBENCH_SLOT_WAIT= "UMBENCH_SLOT_WAIT=$bad_n" UMBENCH_SLOT_DIR=slots \
        UMBENCH_SLOT_DIR= "UMBENCH_SLOT_DIR=$(printf '/a\nb')"; do
        one_line 1 "umbench_config.py: ${kv%%=*}=" env "$kv" "$PYTHON3" -c \
            "import runpy, sys; runpy.run_path(sys.argv[1])" "$top_srcdir/reframe-checks/umbench_config.py"
    done
fi
wait $smihang || fail "nvidia-smi that never ends (above)"
wait $held || fail "every GPU held: UMBENCH_SLOT_WAIT=08 or a signal while waiting (above)"
exit 0
