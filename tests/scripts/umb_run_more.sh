#!/bin/sh
# umb-run against issue 47's adversary, with stand-in programs and
# launchers (no MPI needed, each case a few seconds): --append that mixes
# runs that do not belong together, --precision waiting for a benchmark
# that was dropped, a configuration that cannot start stopping the others,
# a signal leaving a rank behind, where the time went for output that
# arrives in chunks, misleading messages, and the environment's variables.
# Every case runs; the test ends with how many failed.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
unset MPIEXEC_FLAGS MPIEXEC_NP_FLAG SLURM_JOB_ID LSB_JOBID UMB_DEBUG
manifest() {
    "$PYTHON3" -c "import json, os, sys; d = sys.argv[1]; m = json.load(open(os.path.join(d, 'run.json'))); $2" "$1" \
        || fail "$1/run.json: $2"
}
# A stand-in program (umb_latency, umb_bw): good options to --check-options
# (umb-run asks it as the program it is named), else a header with the library
# UMB_T_LIB and the date, UMB_T_ROWS results, the end record. UMB_T_HANG:
# it writes its pid to that file and never ends (UMB_T_TRAP: ignoring
# SIGTERM too); UMB_T_STALL_AT=N: the Nth start (counted in $tmp/count)
# never ends; UMB_T_SLEEP: seconds between the first rows and the rest;
# UMB_T_RMDIR: a folder it removes (UMB_T_MOVE: moves there) before its
# end record (UMB_T_AFTER: seconds before it); UMB_T_CRASH: it dies (exit 1) after a sanitizer's report of
# 100 KiB with the crash on its first line, a launcher's lines after it;
# UMB_T_ENV: a file it writes its HWLOC_COMPONENTS and
# OMPI_MCA_odls_base_sigkill_timeout to.
mkdir "$tmp/bin" "$tmp/prog"
cat >"$tmp/prog/umb_latency" <<'EOF'
#!/bin/sh
[ "$1" != --check-options ] || exit 0
prog=$(basename "$0")
if [ -n "${UMB_T_HANG:-}" ]; then
    [ -z "${UMB_T_TRAP:-}" ] || trap '' TERM
    echo $$ >"$UMB_T_HANG"
    exec sleep 1000
fi
[ -z "${UMB_T_ENV:-}" ] || echo "${HWLOC_COMPONENTS-(unset)} ${OMPI_MCA_odls_base_sigkill_timeout-(unset)}" >"$UMB_T_ENV"
if [ -n "${UMB_T_CRASH:-}" ]; then
    { echo "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000"
      i=0; while [ $i -lt 1600 ]; do echo "    #$i 0x0 in a_frame_of_a_long_backtrace (/lib/x.so+0x1)"; i=$((i + 1)); done
      echo "srun: error: n2: task 1: Exited with exit code 1"; } >&2
    exit 1
fi
if [ -n "${UMB_T_STALL_AT:-}" ]; then
    n=$(( $(cat "$UMB_T_COUNT" 2>/dev/null || echo 0) + 1 )); echo $n >"$UMB_T_COUNT"
    [ "$n" -ne "$UMB_T_STALL_AT" ] || exec sleep 60
fi
echo "{\"type\":\"header\",\"program\":\"$prog\",\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%S+0000)\",\"mpi_library\":\"${UMB_T_LIB:-Stand-in MPI v1}\"}"
i=0
while [ $i -lt "${UMB_T_ROWS:-1}" ]; do
    echo "{\"type\":\"result\",\"program\":\"$prog\",\"buffers\":\"H H\",\"size\":$((8 + i)),\"avg_latency_us\":1.5,\"note\":\"a row long enough to fill a pipe's buffer in a hundred or so rows, as the real ones do with -f\"}"
    i=$((i + 1))
done
sleep "${UMB_T_SLEEP:-0}"
[ -z "${UMB_T_RMDIR:-}" ] || { [ -n "${UMB_T_MOVE:-}" ] && mv "$UMB_T_RMDIR" "$UMB_T_MOVE" || rm -rf "$UMB_T_RMDIR"; }
sleep "${UMB_T_AFTER:-0}"
echo "{\"type\":\"end\",\"program\":\"$prog\",\"status\":0}"
EOF
cp "$tmp/prog/umb_latency" "$tmp/prog/umb_bw"
chmod +x "$tmp/prog/umb_latency" "$tmp/prog/umb_bw"
# Launchers: "launch" runs the program after umb-run's "-np N"; "hold"
# hands its whole output over at the end (a launcher that buffers); "late"
# starts passing it on after 1 s; "nonexec" is a wrapper that does not
# exec and starts the rank in a process group of its own, as Open MPI's
# mpirun does; "ompi" says it is Open MPI's.
printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$tmp/bin/launch"
printf '#!/bin/sh\n[ "$1" != --version ] || { echo "mpirun (Open MPI) 4.1.6"; exit 0; }\nwhile [ "$1" != -np ]; do shift; done\nshift 2\nexec "$@"\n' >"$tmp/bin/ompi"
# "slowterm" takes a second to end after SIGTERM, as a real mpirun can
printf '#!/bin/sh\nshift 2\ntrap "sleep 1; exit 143" TERM\n"$@" &\nwait $!\nwait $!\n' >"$tmp/bin/slowterm"
printf '#!/bin/sh\nshift 2\nout=$("$@")\nprintf "%%s\\n" "$out"\n' >"$tmp/bin/hold"
printf '#!/bin/sh\nshift 2\n"$@" | { sleep 1; cat; }\n' >"$tmp/bin/late"
printf '#!/bin/sh\nshift 2\n"%s" -c "import os, sys; os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])" "$@" &\nwait $!\n' \
    "$PYTHON3" >"$tmp/bin/nonexec"
chmod +x "$tmp/bin/"*
export PATH="$tmp/bin:$PATH" MPIEXEC=launch
RUN="$PYTHON3 $S/umb-run --bindir $tmp/prog --match ^umb_latency.H.H$"

# 1. --append refuses runs that do not belong with the folder's: other
# benchmark options, another set, another MPI library. One line, exit 1,
# and the folder as it was (its run.json and its files).
append_mismatch() {
    $RUN --out "$tmp/ap" -- -m 8:8 >/dev/null 2>&1 || fail "a first run"
    (cd "$tmp/ap" && ls -a && cat run.json) >"$tmp/ap.before"
    one_line 1 'differ in options "-m 8:8" | "-m 8:8 -W 1"' $RUN --append --out "$tmp/ap" -- -m 8:8 -W 1
    one_line 1 "--set full" $RUN --set full --append --out "$tmp/ap" -- -m 8:8
    UMB_T_LIB="Other MPI v9" one_line 1 "differ in library Stand-in MPI v1 | Other MPI v9" $RUN --append --out "$tmp/ap" -- -m 8:8
    (cd "$tmp/ap" && ls -a && cat run.json) | cmp -s - "$tmp/ap.before" || fail "a refused --append changed the folder"
    $RUN --append --out "$tmp/ap" -- -m 8:8 >/dev/null 2>&1 || fail "--append of the same runs"
    manifest "$tmp/ap" 'assert [r["round"] for r in m["runs"]] == [1, 2], m["runs"]'
}
try "--append mixes runs that do not belong together" append_mismatch

# 2. --precision waits no more for a benchmark that was dropped: the
# other one's rounds decide (identical values: within any precision from
# the 6th round on), and the dropped one is said to be.
# Limits below 30 s: the programs and the launcher are stand-ins (shell
# scripts), and the stalled start never ends.
precision_dropped() {
    rc=0; UMB_T_STALL_AT=2 UMB_T_COUNT="$tmp/count" $PYTHON3 "$S/umb-run" --bindir "$tmp/prog" --match '^umb_(latency|bw) H H$' \
        --precision 5% --rounds 9 --run-limit 2 --out "$tmp/pd" -- -m 8:8 >"$tmp/pd.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] || { cat "$tmp/pd.log"; fail "exit $rc, expected 1 (a run was stopped)"; }
    grep -q "not waited for: it was dropped" "$tmp/pd.log" && ! grep -q "no interval yet" "$tmp/pd.log" \
        || { cat "$tmp/pd.log"; fail "the dropped benchmark was waited for, or not named"; }
    manifest "$tmp/pd" 'p = m["precision"]; assert m["rounds_done"] == 6 and p["converged"] and p["dropped"] == [{"program": "umb_bw", "buffers": "H H", "config": "default"}], (m["rounds_done"], p)'
    # Nothing left to run: the rounds end.
    rc=0; UMB_T_STALL_AT=1 UMB_T_COUNT="$tmp/count1" $RUN --precision 5% --rounds 9 --run-limit 1 --out "$tmp/pd1" -- -m 8:8 \
        >"$tmp/pd1.log" 2>&1 || rc=$?
    manifest "$tmp/pd1" 'assert m["rounds_done"] == 1 and not m["precision"]["converged"], m'
    # With configurations --precision waits for ratios: none where the only
    # other configuration cannot start.
    rc=0; $RUN --precision 5% --rounds 9 --config x:PATH=/nowhere --out "$tmp/pd2" -- -m 8:8 >"$tmp/pd2.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "nothing left to wait for after 1 rounds" "$tmp/pd2.log" || { cat "$tmp/pd2.log"; fail "pd2: exit $rc"; }
    manifest "$tmp/pd2" 'assert m["rounds_done"] == 1, m["rounds_done"]'
}
try "--precision waits for a dropped benchmark" precision_dropped

# 3. A configuration whose launcher cannot start is marked and the others
# go on; the exit status says something failed.
config_cannot_start() {
    rc=0; $RUN --rounds 2 --config x:PATH=/nowhere --out "$tmp/cs" -- -m 8:8 >"$tmp/cs.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "configuration x is not run again" "$tmp/cs.log" && grep -q "configuration x could not start" "$tmp/cs.log" \
        || { cat "$tmp/cs.log"; fail "exit $rc, or the configuration not named"; }
    manifest "$tmp/cs" 'r = [(x["config"], x["round"], x["status"]) for x in m["runs"]]; assert r == [("default", 1, 0), ("x", 1, 127), ("default", 2, 0)], r; assert "cannot start" in m["configs"][1]["cannot_start"] and m["state"] == "finished", m["configs"]'
    # The same behind a wrapper found by its full path, whose own command is not.
    printf '#!/bin/sh\nshift 2\nenv "$@"\n' >"$tmp/bin/byname" && chmod +x "$tmp/bin/byname"
    rc=0; MPIEXEC="$tmp/bin/byname" $RUN --rounds 2 --config x:PATH=/nowhere --out "$tmp/cs2" -- -m 8:8 >"$tmp/cs2.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "configuration x is not run again" "$tmp/cs2.log" || { cat "$tmp/cs2.log"; fail "a wrapper: exit $rc"; }
    manifest "$tmp/cs2" 'r = [(x["config"], x["round"], x["status"]) for x in m["runs"]]; assert r == [("default", 1, 0), ("x", 1, 127), ("default", 2, 0)], r; assert "exit 127" in m["configs"][1]["cannot_start"], m["configs"]'
}
try "one configuration that cannot start stops the whole run" config_cannot_start

# 4. SIGTERM while a run starts: umb-run ends the run's every process, the
# rank in a process group of its own included, before it exits; also a
# rank that ignores SIGTERM (SIGKILL after the grace). Three tries.
signal_rank() {
    for k in 1 2 3 trap; do
        rm -f "$tmp/rank.pid"
        trap_it=; [ $k != trap ] || trap_it=1
        MPIEXEC=nonexec UMB_T_HANG="$tmp/rank.pid" UMB_T_TRAP=$trap_it $RUN --out "$tmp/sig$k" -- -m 8:8 >"$tmp/sig.log" 2>&1 &
        pid=$!
        i=0; until [ -s "$tmp/rank.pid" ]; do i=$((i + 1)); [ $i -lt 200 ] || fail "the rank did not start"; sleep 0.05; done
        sleep 0.$k 2>/dev/null || sleep 1
        kill -TERM $pid
        rc=0; wait $pid || rc=$?
        rank=$(cat "$tmp/rank.pid")
        # A zombie is gone: it waits only for its new parent to reap it.
        if kill -0 "$rank" 2>/dev/null && [ "$(ps -o stat= -p "$rank" | cut -c1)" != Z ]; then
            kill -KILL "$rank"
            cat "$tmp/sig.log"; fail "try $k: the rank $rank outlived umb-run"
        fi
        [ $rc -eq 130 ] || { cat "$tmp/sig.log"; fail "try $k: exit $rc, expected 130"; }
    done
}
try "a signal during start-up leaves a rank" signal_rank

# 5. Where the time went, for output that arrives in chunks: a header that
# comes with 20 kB of rows in one read is still found; output handed over
# in one piece at the end is said to be, not shown as measuring 0.0 s; one
# passed on late but streamed is measured.
chunks() {
    UMB_T_ROWS=150 UMB_T_SLEEP=1 $RUN --out "$tmp/ch1" -- -m 8:8 >"$tmp/ch1.log" 2>&1 || { cat "$tmp/ch1.log"; fail "a run"; }
    manifest "$tmp/ch1" 't = m["runs"][0]["times_s"]; assert t["start"] < 1.0 and t["measure"] >= 0.9, t'
    MPIEXEC=hold UMB_T_ROWS=150 UMB_T_SLEEP=3 $RUN --out "$tmp/ch2" -- -m 8:8 >"$tmp/ch2.log" 2>&1 || { cat "$tmp/ch2.log"; fail "a held run"; }
    grep -q "1 run whose output arrived in one piece (held back by the launcher): [0-9.]* s of measuring and after the last line, not told apart" \
        "$tmp/ch2.log" || { cat "$tmp/ch2.log"; fail "output in one piece: not said"; }
    manifest "$tmp/ch2" 't = m["runs"][0]["times_s"]; assert "measure" not in t and t["start"] < 1.5 and t["unsplit"] >= 2.0, t; assert m["time_s"]["unsplit_runs"] == 1, m["time_s"]'
    MPIEXEC=late UMB_T_SLEEP=2 $RUN --out "$tmp/ch3" -- -m 8:8 >"$tmp/ch3.log" 2>&1 || { cat "$tmp/ch3.log"; fail "a late run"; }
    manifest "$tmp/ch3" 't = m["runs"][0]["times_s"]; assert 0.8 <= t["start"] < 2.5 and t["measure"] >= 0.9, t'
}
try "where the time went, for output in chunks" chunks

# 6. Messages name the real cause: a results folder removed during a run;
# benchmark options that only print (-h, --version).
messages() {
    rc=0; UMB_T_RMDIR="$tmp/gone" $RUN --out "$tmp/gone" -- -m 8:8 >"$tmp/gone.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] && tail -n 1 "$tmp/gone.log" | grep -q "the results folder was moved or removed while umb-run wrote it" \
        && ! grep -q "full disk" "$tmp/gone.log" && ! grep -q Traceback "$tmp/gone.log" || { cat "$tmp/gone.log"; fail "exit $rc"; }
    rc=0; UMB_T_RMDIR="$tmp/moved" UMB_T_MOVE="$tmp/moved2" $RUN --rounds 2 --out "$tmp/moved" -- -m 8:8 >"$tmp/moved.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] && tail -n 1 "$tmp/moved.log" | grep -q "the results folder was moved or removed while umb-run wrote it" \
        && [ "$(grep -c '^\[' "$tmp/moved.log")" = 1 ] || { cat "$tmp/moved.log"; fail "a moved folder: exit $rc"; }
    # ... said as soon as it is gone, the launch stopped, not waited out (pass 8)
    rc=0; start=$(date +%s)
    UMB_T_RMDIR="$tmp/gone3" UMB_T_AFTER=60 $RUN --out "$tmp/gone3" -- -m 8:8 >"$tmp/gone3.log" 2>&1 || rc=$?
    took=$(( $(date +%s) - start ))
    [ $rc -eq 1 ] && [ $took -lt 30 ] && tail -n 1 "$tmp/gone3.log" | grep -q "the results folder was moved or removed while umb-run wrote it" \
        && ! grep -q Traceback "$tmp/gone3.log" || { cat "$tmp/gone3.log"; fail "a folder removed during a launch: exit $rc after $took s"; }
    # ... and a folder replaced by another with a lock file of the name, a
    # lock removed, a folder moved away while a launcher takes its time to
    # end and moved back: each said as what it is, none written into
    # (an adversary's, after pass 10).
    gone_while() {  # NAME LOG WHAT: WHAT runs 1 s into a run of two rounds
        rc=0; (cd "$tmp" && sleep 1 && eval "$3") & mover=$!
        UMB_T_SLEEP=3 $RUN --rounds 2 --out "$tmp/$1" -- -m 8:8 >"$tmp/$1.log" 2>&1 || rc=$?
        wait $mover
        [ $rc -eq 1 ] && tail -n 1 "$tmp/$1.log" | grep -q "$2" && ! grep -q Traceback "$tmp/$1.log" \
            || { cat "$tmp/$1.log"; fail "$3: exit $rc"; }
    }
    gone_while rp "the results folder was moved or removed" "mv rp rp.old && mkdir rp && touch rp/.umb-run.lock"
    [ ! -e "$tmp/rp/run.json" ] || fail "umb-run wrote into the folder that replaced its own"
    gone_while rl "its lock .umb-run.lock was removed or replaced" "rm rl/.umb-run.lock"
    MPIEXEC=slowterm gone_while rb "the results folder was moved or removed" "mv rb rb.x && sleep 0.4 && mv rb.x rb"
    for h in -h --help --version; do
        one_line 1 "prints the program's help or version instead of measuring" $RUN --out "$tmp/help" -- -m 8:8 $h
    done
    [ ! -e "$tmp/help" ] || fail "-- -h made a folder"
    # A run that ends 0 without its end record: no guess of a full disk.
    printf '#!/bin/sh\nshift 2\n"$@" | head -n 1\n' >"$tmp/bin/drop" && chmod +x "$tmp/bin/drop"
    rc=0; MPIEXEC=drop $RUN --out "$tmp/drop" -- -m 8:8 >"$tmp/drop.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "INCOMPLETE: its output has no end record: the program or its launcher ended without writing it" "$tmp/drop.log" \
        && ! grep -q "full disk" "$tmp/drop.log" || { cat "$tmp/drop.log"; fail "a run without its end record: exit $rc"; }
}
try "misleading messages" messages

# 7. Every variable the scripts read is read once, typed, by env.py: a
# malformed one is one line naming it; no other module reads os.environ.
environment() {
    MPIEXEC="launch 'x" one_line 1 "MPIEXEC" $RUN --out "$tmp/e1"
    MPIEXEC_FLAGS="--x 'y" one_line 1 "MPIEXEC_FLAGS" $RUN --out "$tmp/e2"
    MPIEXEC_NP_FLAG=yes one_line 1 "MPIEXEC_NP_FLAG 'yes': expected none" $RUN --out "$tmp/e3"
    SLURM_JOB_ID=abc one_line 1 "SLURM_JOB_ID 'abc': expected a job number" $RUN --out "$tmp/e4"
    LSB_JOBID='1;x' one_line 1 "LSB_JOBID" $RUN --out "$tmp/e5"
    UMB_DEBUG=yes one_line 1 "UMB_DEBUG 'yes': expected 1" $PYTHON3 "$S/umb-compare" "$tmp/e6" "$tmp/e7"
    for f in e1 e2 e3 e4 e5; do [ ! -e "$tmp/$f" ] || fail "a refused variable left $tmp/$f"; done
    bad=$(grep -ln 'os\.environ\|os\.getenv' "$S/umbench/"*.py | grep -v '/env\.py$') && fail "os.environ read outside env.py: $bad"
    # MPIEXEC_NP_FLAG=none: no rank count; the launcher's words stay words.
    printf '#!/bin/sh\necho "$@" >"%s/args"\nexec "$@"\n' "$tmp" >"$tmp/bin/noshift" && chmod +x "$tmp/bin/noshift"
    MPIEXEC="noshift" MPIEXEC_NP_FLAG=none $RUN --out "$tmp/e8" -- -m 8:8 >/dev/null 2>&1 || fail "MPIEXEC_NP_FLAG=none"
    grep -q "^$tmp/prog/umb_latency " "$tmp/args" || { cat "$tmp/args"; fail "MPIEXEC_NP_FLAG=none: a rank count added"; }
    # Nor is a count of the user's own rewritten: umb-run built the words
    # for --np and rewrote the last "-np 4" it found to the program's 2.
    printf '#!/bin/sh\necho "$@" >"%s/args"\nshift 2\nexec "$@"\n' "$tmp" >"$tmp/bin/npwords" && chmod +x "$tmp/bin/npwords"
    MPIEXEC="npwords -np 4" MPIEXEC_NP_FLAG=none $RUN --np 4 --out "$tmp/e10" -- -m 8:8 >/dev/null 2>&1 || true
    grep -q "^-np 4 $tmp/prog/umb_latency " "$tmp/args" || { cat "$tmp/args"; fail "MPIEXEC_NP_FLAG=none: the user's -np 4 rewritten"; }
    # An Open MPI launcher given with its options is still known by its
    # first word: --oversubscribe added as umb-suite adds it, and as root
    # allowed to run as root.
    printf '#!/bin/sh\n[ "$1" != --version ] || { echo "mpirun (Open MPI) 4.1.4"; exit 0; }\necho "${OMPI_ALLOW_RUN_AS_ROOT:-0} $*" >"%s/root"\nshift 5\nexec "$@"\n' \
        "$tmp" >"$tmp/bin/mpirun" && chmod +x "$tmp/bin/mpirun"
    env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM MPIEXEC="mpirun --bind-to none" $RUN --out "$tmp/e9" -- -m 8:8 \
        >"$tmp/e9.log" 2>&1 || { cat "$tmp/e9.log"; fail "MPIEXEC='mpirun --bind-to none'"; }
    root=0; [ "$(id -u)" -ne 0 ] || root=1
    grep -q "^$root --bind-to none --oversubscribe -np 2 " "$tmp/root" || { cat "$tmp/root"; fail "Open MPI not recognised from MPIEXEC's first word"; }
}
try "the environment's variables" environment

# 8. A named configuration (--config @NAME): the transports of a run across
# nodes, forced on one node; its variables reach the ranks, run.json keeps
# what it emulates, umb-run says so at the start and the end and
# umb-compare in its side's label; a name it does not know is refused.
named_config() {
    printf '#!/bin/sh\necho "UCX_TLS=$UCX_TLS NOLOCAL=$MPIR_CVAR_NOLOCAL BTL=${OMPI_MCA_btl:-}" >>"%s/named"\nshift 2\nexec "$@"\n' "$tmp" \
        >"$tmp/bin/named" && chmod +x "$tmp/bin/named"
    MPIEXEC=named $RUN --config @emulate-internode-ucx --config @emulate-internode-ob1 --out "$tmp/nc" -- -m 8:8 >"$tmp/nc.log" 2>&1 \
        || { cat "$tmp/nc.log"; fail "--config @emulate-internode-ucx"; }
    [ "$(grep -c '^# umb-run: configuration emulate-internode-ucx: emulated on one node' "$tmp/nc.log")" -eq 2 ] \
        || { cat "$tmp/nc.log"; fail "umb-run did not say twice that the configuration is emulated"; }
    grep -qx "UCX_TLS=self,tcp,cuda_copy NOLOCAL=1 BTL=" "$tmp/named" && grep -qx "UCX_TLS= NOLOCAL=1 BTL=self,tcp" "$tmp/named" \
        || { cat "$tmp/named"; fail "the named configurations' variables did not reach the launcher"; }
    manifest "$tmp/nc" 'c = {x["name"]: x for x in m["configs"]}; assert c["emulate-internode-ucx"]["env"]["OMPI_MCA_pml"] == "ucx" and "not a measurement across nodes" in c["emulate-internode-ob1"]["emulates"] and "emulates" not in c["default"], c'
    "$PYTHON3" "$S/umb-compare" "$tmp/nc" >"$tmp/nc.cmp" 2>&1 && grep -q "^# \[1\] nc/emulate-internode-ucx: .*; across nodes, emulated on one node" "$tmp/nc.cmp" \
        || { cat "$tmp/nc.cmp"; fail "umb-compare: the emulated side not labelled"; }
    one_line 1 "--config @internode: not a named configuration; accepted: @emulate-internode-ucx, @emulate-internode-ob1" \
        $RUN --config @internode --out "$tmp/nc2"
    [ ! -e "$tmp/nc2" ] || fail "a refused named configuration made its folder"
    # A blank around the name is shown, or the line named a value that looks accepted.
    one_line 1 "--config '@emulate-internode-ucx ': not a named configuration" $RUN --config "@emulate-internode-ucx " --out "$tmp/nc2"
    one_line 1 "--config '@emulate-internode-ucx\\n': not a named configuration" $RUN --config "@emulate-internode-ucx
" --out "$tmp/nc2"
    # A named configuration's name is its own: a plain one of that name would
    # be a side read as the emulation without its label.
    one_line 1 "--config emulate-internode-ucx:X=1: the name must be 1 to 64 letters, digits, '_', '.' or '-', and not 'default' nor a named configuration's (emulate-internode-ucx, emulate-internode-ob1)" \
        $RUN --config emulate-internode-ucx:X=1 --out "$tmp/nc2"
    [ ! -e "$tmp/nc2" ] || fail "a configuration named as a named one made its folder"
    # What it emulates is one of its settings: an --append of the emulation
    # onto a folder whose configuration of that name lacks the label (or
    # holds another, 1 MB of it) is refused in one short line, the folder
    # left as it was.
    for label in '""' '"x\n" * 500000'; do
        "$PYTHON3" -c "import json, sys; p = sys.argv[1] + '/run.json'; m = json.load(open(p)); m['configs'][1]['emulates'] = $label; json.dump(m, open(p, 'w'))" "$tmp/nc"
        cksum "$tmp/nc/run.json" >"$tmp/nc.sum"; ls "$tmp/nc" >"$tmp/nc.ls"
        one_line 1 "--append --config emulate-internode-ucx: the folder's configuration of that name has other settings" \
            $RUN --config @emulate-internode-ucx --out "$tmp/nc" --append -- -m 8:8
        [ "$(wc -c <"$tmp/e")" -lt 1000 ] || fail "--append: a refusal of $(wc -c <"$tmp/e") characters"
        cksum "$tmp/nc/run.json" | cmp -s - "$tmp/nc.sum" && ls "$tmp/nc" | cmp -s - "$tmp/nc.ls" || fail "--append: a refusal changed the folder"
    done
}
try "a named configuration: across nodes, emulated" named_config

# 8. A run that fails keeps its stderr in its record, its start and its
# end (16 KiB in all): a crash report above the launcher's last lines,
# which `error` quotes, is in run.json, and `crashed` (tests/lib.sh, the
# cluster test's recognizer of Open MPI's crash) finds it there.
crash_kept() {
    rc=0; UMB_T_CRASH=1 $RUN --out "$tmp/cr" -- -m 8:8 >"$tmp/cr.log" 2>&1 || rc=$?
    [ $rc -eq 1 ] || { cat "$tmp/cr.log"; fail "a crashed run: umb-run exit $rc"; }
    manifest "$tmp/cr" 'r = m["runs"][0]; e = r["stderr"]; assert r["status"] == 1 and 16384 < len(e) < 16500 and e.startswith("==1==ERROR: AddressSanitizer: SEGV") and "characters left out]" in e and e.endswith("exit code 1\n") and "task 1" in r["error"], r["error"]'
    manifest "$tmp/cr" 'open(sys.argv[1] + "/stderr.txt", "w").write(m["runs"][0]["stderr"])'
    crashed "$tmp/cr/stderr.txt" || fail "crashed: the sanitizer's report of a segfault is not seen as one"
    printf 'srun: error: n2: task 1: Segmentation fault\n' >"$tmp/cr/plain.txt"
    crashed "$tmp/cr/plain.txt" || fail "crashed: srun's segfault is not seen as one"
    ! crashed "$tmp/cr.log" || fail "crashed: a log without a crash is seen as one"
}
try "a failed run's stderr is kept; a crash is recognized" crash_kept

# 9. Launches leave hwloc's OpenCL plugin out (0.3 s each), and Open MPI's
# mpirun without its 2 s wait after a rank's non-zero end (a skip)
# (docs/decisions.md), unless the user set those variables: their value is
# kept, even empty, and a configuration's own wins; another launcher keeps
# Open MPI's variable unset.
hwloc_default() {
    for given in unset "" "-gl" ; do
        if [ "$given" = unset ]; then (unset HWLOC_COMPONENTS OMPI_MCA_odls_base_sigkill_timeout; MPIEXEC=ompi UMB_T_ENV="$tmp/hw" $RUN --out "$tmp/hw1" -- -m 8:8 >/dev/null 2>&1)
        else HWLOC_COMPONENTS=$given OMPI_MCA_odls_base_sigkill_timeout=$given MPIEXEC=ompi UMB_T_ENV="$tmp/hw" $RUN --out "$tmp/hw1" -- -m 8:8 >/dev/null 2>&1; fi \
            || fail "umb-run with HWLOC_COMPONENTS $given"
        want="$given $given"; [ "$given" != unset ] || want="-opencl 0"
        [ "$(cat "$tmp/hw")" = "$want" ] || fail "given $given: the run saw '$(cat "$tmp/hw")', not '$want'"
        rm -rf "$tmp/hw1"
    done
    (unset HWLOC_COMPONENTS OMPI_MCA_odls_base_sigkill_timeout; UMB_T_ENV="$tmp/hw" $RUN --config x:HWLOC_COMPONENTS=-pci --out "$tmp/hw2" -- -m 8:8 >/dev/null 2>&1) \
        || fail "umb-run --config x:HWLOC_COMPONENTS=-pci"
    [ "$(cat "$tmp/hw")" = "-pci (unset)" ] || fail "a configuration's HWLOC_COMPONENTS, not Open MPI: the run saw '$(cat "$tmp/hw")'"
}
try "launches leave hwloc's OpenCL plugin out, unless told" hwloc_default

# 10. The launcher's --version, asked once to know Open MPI, is bounded and
# leaves nothing behind (adversarial pass 7: a wrapper whose --version hung
# held a run, and a Ctrl-C, 60 s, and a Ctrl-C left the probe running).
probe_bounded() {
    printf '#!/bin/sh\nsleep 30\n' >"$tmp/hangv" && chmod +x "$tmp/hangv"
    "$PYTHON3" - "$top_srcdir/scripts" "$tmp/hangv" <<'PY' || fail "the launcher probe"
import sys, time
sys.path.insert(0, sys.argv[1])
from umbench import launch
launch.PROBE_S = 1
t = time.monotonic()
assert launch.is_open_mpi([sys.argv[2]]) is False
assert time.monotonic() - t < 5, time.monotonic() - t
PY
    ! pgrep -f "$tmp/hangv" >/dev/null || fail "the probe of a launcher whose --version hangs was left running"
}
try "the launcher's --version probe is bounded" probe_bounded

cases_done umb_run_more
