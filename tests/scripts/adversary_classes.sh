#!/bin/sh
# The failing kinds of the adversarial pass of 2026-11-28 (issue 47's
# "after"), each a case, each fixed as a class in one reader: numbers read
# as ASCII digits only, no option abbreviations, a name the terminal cannot
# show, a regular expression too deep, an empty --bindir folder, launcher
# messages, --out over other files, a refusal that leaves no folder, signals
# umb-run did not handle (and SIGKILL), Ctrl-C while a command loads, an
# operand that starts with '-', the batch scripts' two-node layout in a
# job of one node, ReFrame's perflog folder, run-all's sections, and
# non-UTF-8 bytes in a program's JSON. The C readers' cases (decimal
# numbers, lists) are in tests/unit/test_options.c. Also: umb-plot's
# warnings and a full disk, umb-suite's options, shell commands writing to
# a full disk, the drivers' lists. Then the fifth pass's kinds (below).
# Every case runs; the test ends with how many failed.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
RUN="$PYTHON3 $S/umb-run --bindir $PT2PT --match ^umb_latency.H.H$"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
Q="-- -m 8:8 -i 10 -x 1"
$RUN --out "$tmp/a" $Q >/dev/null 2>&1 || fail "a first run"

ascii_digits() {  # \d took any script's digits: --budget ٣ was 3 s
    one_line 1 "--budget ٣: expected seconds above 0 and at most 1000000" $RUN --budget ٣ --out "$tmp/n1"
    one_line 1 "--precision ٥%" $RUN --precision ٥% --out "$tmp/n1"
    [ ! -e "$tmp/n1" ] || fail "a refused number made the folder"
}
try "unicode digits" ascii_digits

no_abbreviations() {  # --ou was --out; the help says anything else is refused
    one_line 1 "--ou" $RUN --ou "$tmp/ab" $Q
    [ ! -e "$tmp/ab" ] || fail "--ou made the folder"
    one_line 1 "--js" "$PYTHON3" "$S/umb-findings" --js "$tmp/a"
}
try "option abbreviations" no_abbreviations

other_encoding() {  # a name the terminal's encoding cannot show: escaped, no UnicodeEncodeError
    rc=0; PYTHONIOENCODING=ascii $RUN --out "$tmp/結果" $Q >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 0 ] && ! grep -q "internal error\|Traceback" "$tmp/o" || { cat "$tmp/o"; fail "umb-run under an ASCII stdout: $rc"; }
    rc=0; PYTHONIOENCODING=ascii "$PYTHON3" "$S/umb-compare" "$tmp/結果" "$tmp/a" >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 0 ] && ! grep -q "internal error\|Traceback" "$tmp/o" || { cat "$tmp/o"; fail "umb-compare under an ASCII stdout: $rc"; }
}
try "an encoding that cannot show a name" other_encoding

deep_regex() {
    deep=$("$PYTHON3" -c 'print("(" * 5000 + "a" + ")" * 5000)')
    one_line 1 "nested too deeply" $RUN --match "$deep" --out "$tmp/re"
    one_line 1 "nested too deeply" "$PYTHON3" "$S/umb-findings" --match "$deep" "$tmp/a"
}
try "a regular expression nested too deeply" deep_regex

empty_bindir() {  # an empty component was the current folder
    for b in : "$PT2PT:" ":$PT2PT"; do
        one_line 1 "an empty folder name" "$PYTHON3" "$S/umb-run" --bindir "$b" --out "$tmp/bd" $Q
    done
    [ ! -e "$tmp/bd" ] || fail "--bindir with an empty folder made the folder"
}
try "--bindir with an empty folder" empty_bindir

launchers() {
    (MPIEXEC=/etc/passwd; export MPIEXEC; one_line 1 "/etc/passwd is not an executable file" $RUN --out "$tmp/l1" $Q)
    mkdir -p "$tmp/nompi" && ln -sf "$(command -v "$PYTHON3")" "$tmp/nompi/python3"
    one_line 1 "no MPI launcher on PATH" env -u MPIEXEC PATH="$tmp/nompi" "$tmp/nompi/python3" "$S/umb-run" \
        --bindir "$PT2PT" --out "$tmp/l2" $Q
    [ ! -e "$tmp/l1" ] && [ ! -e "$tmp/l2" ] || fail "a launcher refused made the folder"
}
try "launcher messages" launchers

out_over_other_files() {  # --out names a new folder: run.json among a user's files was accepted
    mkdir -p "$tmp/home" && echo keep >"$tmp/home/notes.txt"
    one_line 1 "a folder of other files (notes.txt)" $RUN --out "$tmp/home" $Q
    [ "$(ls -A "$tmp/home")" = notes.txt ] || fail "the refused folder changed: $(ls -A "$tmp/home")"
    mkdir -p "$tmp/empty" && $RUN --out "$tmp/empty" $Q >/dev/null 2>&1 || fail "an empty folder refused"
}
try "--out over a folder of other files" out_over_other_files

first_save_fails() {  # run.json cannot be written: no folder left holding only the lock
    [ "$(id -u)" -eq 0 ] || return 0  # the read-only folder needs a mount; root only
    mkdir -p "$tmp/ro" && mount -t tmpfs -o size=64k tmpfs "$tmp/ro" 2>/dev/null || return 0
    cat /dev/zero >"$tmp/ro/fill" 2>/dev/null  # until the disk is full
    rc=0; $RUN --out "$tmp/ro/r" $Q >"$tmp/o" 2>&1 || rc=$?
    left=$(ls -A "$tmp/ro/r" 2>/dev/null)
    umount "$tmp/ro"
    [ $rc -eq 1 ] && [ -z "$left" ] || { cat "$tmp/o"; fail "full disk: exit $rc, left '$left'"; }
}
try "a full disk at the first run.json" first_save_fails

# A stand-in launcher whose rank never ends: what a signal to umb-run leaves.
# Its sleep is this test's own (300.PID): another test run on the machine has its own.
hang="sleep 300.$$"
cat >"$tmp/hang" <<EOF
#!/bin/sh
[ "\${1:-}" != --version ] || { echo "a stand-in"; exit 0; }
echo '{"type":"header","program":"umb_latency","buffers":"H H"}'
exec $hang
EOF
chmod +x "$tmp/hang"
signals() {
    for sig in QUIT USR1 USR2 ALRM KILL; do
        MPIEXEC="$tmp/hang" MPIEXEC_FLAGS= $PYTHON3 "$S/umb-run" --bindir "$PT2PT" --match '^umb_latency H H$' \
            --out "$tmp/s$sig" >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 100); do [ -f "$tmp/s$sig/run.json" ] && pgrep -fx "$hang" >/dev/null && break; sleep 0.1; done
        kill -s "$sig" "$pid"; wait "$pid" 2>/dev/null
        for _ in $(seq 100); do pgrep -fx "$hang" >/dev/null || break; sleep 0.1; done
        if pgrep -fx "$hang" >/dev/null; then pkill -fx "$hang"; fail "SIG$sig to umb-run left its run's rank"; fi
    done
}
try "signals umb-run did not handle, and SIGKILL" signals

early_interrupt() {  # Ctrl-C while the package loads: no traceback, whenever it lands
    # Where it lands cannot be chosen from outside: each Python command gives
    # SIGINT back to its default before it imports the package.
    for f in $(grep -l '^#!/usr/bin/env python3' "$S"/umb-*); do
        awk '/signal.signal\(signal.SIGINT, signal.SIG_DFL\)/ {quiet = NR} /^ *from umbench import/ && !seen {seen = NR}
             END {exit !(quiet && seen && quiet < seen)}' "$f" || fail "$f imports the package before it quiets Ctrl-C"
    done
    for cmd in umb-findings umb-compare umb-plot; do
        "$PYTHON3" "$S/$cmd" "$tmp/a" "$tmp/a" >/dev/null 2>"$tmp/e" &
        pid=$!
        # Once the command has set SIGINT back to its default (its first lines), not before:
        # a signal inside Python's own start is Python's.
        for _ in $(seq 200); do
            caught=$(awk '/^SigCgt/ {print $2}' "/proc/$pid/status" 2>/dev/null) || break
            [ -n "$caught" ] && [ $(( 0x$caught & 2 )) -eq 0 ] && break
            sleep 0.005
        done
        kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
        ! grep -q Traceback "$tmp/e" || { cat "$tmp/e"; fail "$cmd: a traceback on Ctrl-C"; }
    done
}
try "Ctrl-C while a command loads" early_interrupt

dash_operand() {
    one_line 1 "a name that starts with '-' is given as ./-dash" "$PYTHON3" "$S/umb-findings" -dash
    # A folder named twice and one that is refused: the refusal alone (a property found it on the GPU machine).
    mkdir -p "$tmp/nothing"
    one_line 1 "no run.json listing runs" "$PYTHON3" "$S/umb-findings" "$tmp/nothing" "$tmp/a" "$tmp/a"
}
try "an operand that starts with '-'" dash_operand

unreadable_run() {  # the reason a folder has nothing to read is named
    [ "$(id -u)" -ne 0 ] || return 0  # root reads it anyway
    cp -r "$tmp/a" "$tmp/u" && chmod 000 "$tmp/u"/*.jsonl
    one_line 1 "Permission denied" "$PYTHON3" "$S/umb-compare" "$tmp/u" "$tmp/a"
}
try "an unreadable run file" unreadable_run

batch_two_nodes() {  # two-nodes in a job of one node: refused, not srun --nodes=2 every run
    one_line 1 "SLURM_NNODES='1': accepted: 2 or more for UMB_LAYOUT=two-nodes" \
        env SLURM_NNODES=1 SLURM_JOB_ID=7 UMB_BINDIR="$S" bash "$S/slurm/umb.sbatch"
    one_line 1 "LSB_HOSTS='hostA': accepted: two hosts or more" \
        env LSB_HOSTS=hostA LSB_JOBID=7 UMB_BINDIR="$S" bash "$S/lsf/umb.lsf"
}
try "the batch scripts' two-node layout in a job of one node" batch_two_nodes

perflog() {
    for v in '   ' "$(printf 'a\177b')"; do
        rc=0; UMBENCH_PERFLOG=$v "$PYTHON3" -c "import runpy; runpy.run_path('$top_srcdir/reframe-checks/umbench_config.py')" \
            >/dev/null 2>"$tmp/e" || rc=$?
        [ $rc -eq 1 ] && grep -q "UMBENCH_PERFLOG" "$tmp/e" || { cat "$tmp/e"; fail "UMBENCH_PERFLOG=$v: exit $rc"; }
    done
}
try "ReFrame's perflog folder blank or with a control character" perflog

run_all_sections() {  # refused before anything runs: the build folder is not removed, no OUTDIR made
    mkdir -p "$tmp/keep" && echo k >"$tmp/keep/keep.txt"
    (cd "$tmp" && touch x.png && UMB_GPU_BUILD="$tmp/keep" && export UMB_GPU_BUILD \
        && one_line 1 "unknown section bogus" bash "$top_srcdir/tests/gpu/run-all" "$tmp/ro2" bogus)
    (cd "$tmp" && one_line 1 "unknown section *" bash "$top_srcdir/tests/gpu/run-all" "$tmp/ro2" '*')
    [ -f "$tmp/keep/keep.txt" ] && [ ! -e "$tmp/ro2" ] || fail "run-all touched a folder before refusing"
    one_line 1 "cannot make the output folder" bash "$top_srcdir/tests/gpu/run-all" /dev/null/x latency
}
try "run-all's sections" run_all_sections

utf8_header() {  # a byte that is not UTF-8 in the environment: the header stays one its readers read
    rc=0; OMPI_MCA_umb_test=$(printf 'a\377b') $RUN --out "$tmp/u8" $Q >/dev/null 2>&1 || rc=$?
    [ $rc -eq 0 ] || fail "umb-run with a non-UTF-8 variable: $rc"
    "$PYTHON3" "$S/umb-findings" "$tmp/u8" >"$tmp/o" 2>&1 && ! grep -q "bad line" "$tmp/o" \
        || { cat "$tmp/o"; fail "a reader skipped the header"; }
}
try "a non-UTF-8 byte in a program's JSON" utf8_header

plot_writes() {  # a glyph the font lacks: no matplotlib warning; a full disk: no empty plot left
    "$PYTHON3" -c "import matplotlib" 2>/dev/null || return 0
    cp -r "$tmp/a" "$tmp/結果"
    rc=0; "$PYTHON3" "$S/umb-plot" "$tmp/結果" --out "$tmp/p.png" >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 0 ] && ! grep -q "Warning" "$tmp/o" || { cat "$tmp/o"; fail "umb-plot of a folder named 結果: $rc"; }
    [ "$(id -u)" -eq 0 ] || return 0
    mkdir -p "$tmp/pf" && mount -t tmpfs -o size=64k tmpfs "$tmp/pf" 2>/dev/null || return 0
    cat /dev/zero >"$tmp/pf/fill" 2>/dev/null
    rc=0; "$PYTHON3" "$S/umb-plot" "$tmp/a" --out "$tmp/pf/p.png" >"$tmp/o" 2>&1 || rc=$?
    left=$(ls -A "$tmp/pf" | grep -v '^fill$')
    umount "$tmp/pf"
    [ $rc -eq 1 ] && [ -z "$left" ] || { cat "$tmp/o"; fail "umb-plot on a full disk: exit $rc, left '$left'"; }
}
try "umb-plot's warnings and a full disk" plot_writes

suite_options() {  # a bad benchmark option: the program's one line, once, not nine failed runs
    one_line 1 "umb_latency: -i 0" env UMB_BINDIR="$PT2PT" sh "$S/umb-suite" -i 0
}
try "umb-suite with a bad option" suite_options

full_output() {  # a write that fails is a failure, in one line
    one_line 1 "standard output: cannot write to it" sh -c "sh '$S/umb-suite' -h >/dev/full"
    one_line 1 "standard output: cannot write to it" sh -c "bash '$S/umb-stack' list >/dev/full"
    one_line 1 "pack /dev/full: not a regular file" bash "$S/umb-stack" --prefix "$tmp/stacks" pack /dev/full ucx-cu13
}
try "shell commands writing to a full disk" full_output

driver_lists() {  # the drivers' lists and a factor above 1, refused before any GPU is looked for
    [ -x "$top_builddir/c/umb_oversub" ] || return 0
    one_line 1 "--factor 1.5: above 1" "$top_builddir/c/umb_oversub" --factor 1.5
    one_line 1 "--pattern grid,,block" "$top_builddir/c/umb_oversub" --pattern grid,,block
    one_line 1 "--size 4K,,8K" "$top_builddir/c/umb_copy" --size 4K,,8K
    one_line 1 "--advise ,none" "$top_builddir/c/umb_um" --advise ,none
}
try "the drivers' lists" driver_lists

# The fifth pass (2026-11-28, later): what a writer opens, umb-tune's
# --out, umb-stack's --jobs and pack, a folder after an option.
planted_lock() {  # a link or FIFO under the lock's name: refused, and its target untouched
    mkdir "$tmp/lk" "$tmp/lf" && echo precious >"$tmp/victim" && ln -s "$tmp/victim" "$tmp/lk/.umb-run.lock" && mkfifo "$tmp/lf/.umb-run.lock"
    one_line 1 ".umb-run.lock is not a regular file" $RUN --out "$tmp/lk" $Q
    one_line 1 ".umb-run.lock is not a regular file" $RUN --out "$tmp/lf" $Q
    [ "$(cat "$tmp/victim")" = precious ] && [ -p "$tmp/lf/.umb-run.lock" ] || fail "the planted lock's target changed"
}
try "a link or FIFO planted under the lock's name" planted_lock

tune_out() {  # umb-tune --out: a folder of other files, or umb-run's, refused before its lock
    mkdir "$tmp/nt" && echo hi >"$tmp/nt/notes.txt"
    one_line 1 "--out $tmp/nt: a folder of other files (notes.txt)" "$PYTHON3" "$S/umb-tune" --bindir "$PT2PT" --out "$tmp/nt"
    cp -R "$tmp/a" "$tmp/ta" && (cd "$tmp/ta" && ls -A) >"$tmp/ta.before"
    one_line 1 "umb-run's results (run.json), not a search's" "$PYTHON3" "$S/umb-tune" --bindir "$PT2PT" --out "$tmp/ta"
    [ "$(ls -A "$tmp/nt")" = notes.txt ] && (cd "$tmp/ta" && ls -A) | cmp -s - "$tmp/ta.before" || fail "a refused umb-tune left files"
}
try "umb-tune --out a folder not its own" tune_out

stack_values() {  # make -j's number, pack's file, the modulefile never through a planted link
    one_line 1 "--jobs '00': expected a whole number from 1 to 9999" bash "$S/umb-stack" --jobs 00 --dry-run list
    one_line 1 "pack '': expected the tarball's name" bash "$S/umb-stack" --prefix "$tmp/st" pack '' ucx-cu13
    one_line 1 "pack $tmp/nowhere/x.tgz: the folder $tmp/nowhere does not exist" bash "$S/umb-stack" --prefix "$tmp/st" pack "$tmp/nowhere/x.tgz" ucx-cu13
    mkdir -p "$tmp/st/ucx-cu13" "$tmp/st/modulefiles/umb-stack" && echo precious >"$tmp/victim2"
    ln -s "$tmp/victim2" "$tmp/st/modulefiles/umb-stack/.ucx-cu13.lua.tmp"
    bash "$S/umb-stack" --prefix "$tmp/st" module ucx-cu13 >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-stack module"; }
    [ "$(cat "$tmp/victim2")" = precious ] && [ -f "$tmp/st/modulefiles/umb-stack/ucx-cu13.lua" ] || fail "the modulefile went through a link"
}
try "umb-stack's values and files" stack_values

folder_after_option() {  # "A --json B": B is a folder, not an unrecognized argument (umb-findings: a copy is refused, A/. counts once)
    cp -R "$tmp/a" "$tmp/a2"
    "$PYTHON3" "$S/umb-findings" "$tmp/a" --json "$tmp/a/." >"$tmp/o" 2>&1 && "$PYTHON3" "$S/umb-compare" "$tmp/a" --match 'H H' "$tmp/a2" >"$tmp/o" 2>&1 \
        && "$PYTHON3" "$S/umb-findings" -- "$tmp/a" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "a folder after an option (or after --) was refused"; }
}
try "a folder after an option" folder_after_option

listed_twice() {  # run.json naming one file twice: refused by every reader, not counted twice
    cp -R "$tmp/a" "$tmp/tw"
    "$PYTHON3" -c "import json,sys; p=sys.argv[1]; m=json.load(open(p)); m['runs'].append(dict(m['runs'][0])); json.dump(m, open(p, 'w'))" "$tmp/tw/run.json"
    one_line 1 "runs[1].file names umb_latency-H-H.jsonl, as runs[0] does" "$PYTHON3" "$S/umb-findings" "$tmp/tw"
    one_line 1 "runs[1].file names umb_latency-H-H.jsonl, as runs[0] does" "$PYTHON3" "$S/umb-compare" "$tmp/tw" "$tmp/a"
}
try "run.json listing a file twice" listed_twice

own_outputs() {  # a folder of a program's own --format json output: every reader reads it, naming the library
    mkdir "$tmp/own"
    run_mpi 2 "$PT2PT/umb_latency" -m 8:8 -i 10 -x 1 --format json && cp "$tmp/out" "$tmp/own/lat.jsonl" || fail "umb_latency --format json"
    "$PYTHON3" "$S/umb-findings" "$tmp/own" >"$tmp/o" 2>&1 && grep -q "^# umb-findings: 1 folders, 1 finished runs" "$tmp/o" \
        || { cat "$tmp/o"; fail "umb-findings refused a folder of program output"; }
    "$PYTHON3" "$S/umb-compare" "$tmp/own" "$tmp/a" >"$tmp/o" 2>&1 && grep -q "^# \[0\] own: .*MPI" "$tmp/o" && ! grep -q "library unknown" "$tmp/o" \
        || { cat "$tmp/o"; fail "umb-compare on a folder of program output"; }
}
try "a folder of a program's own output" own_outputs

# The one kind the fifth pass left open (docs/hardening.md, "Limits a
# launch needs"): under ulimit -f 2 mpirun hung in PMIx and umb-run waited.
file_limit() {  # every command that launches refuses a file-size limit under 64 MiB, in one line, nothing made
    # sh's ulimit counts 512-byte blocks: 2048 is 1 MiB, where Open MPI's ranks died of SIGXFSZ.
    limited() { timeout 120 sh -c 'ulimit -f 2048 && exec "$@"' sh "$@"; }  # before the fix: a hang, here 124
    one_line 1 "the file-size limit (ulimit -f) is 1024 KiB" limited $RUN --out "$tmp/fl" $Q
    one_line 1 "the file-size limit (ulimit -f) is 1024 KiB" limited "$PYTHON3" "$S/umb-tune" --bindir "$PT2PT" --out "$tmp/fl"
    one_line 1 "the file-size limit (ulimit -f) is 1024 KiB" limited env UMB_BINDIR="$PT2PT" sh "$S/umb-suite" -m 8:8
    one_line 1 "the file-size limit (ulimit -f) is 1024 KiB" limited env UMB_BINDIR="$PT2PT" sh "$S/umb-suite" -v
    [ ! -e "$tmp/fl" ] || fail "a refused file-size limit made the folder"
}
try "a file-size limit under what a launch writes" file_limit

# The sixth pass (2026-11-29): data from a run reached the terminal raw where
# a C1 control (U+009B opens a control sequence on some terminals, as ESC [
# does) or umb-compare's library line or umb-tune's failed-run line showed it.
controls_shown_escaped() {  # no C0, DEL or C1 character of a run's data reaches the terminal
    mkdir -p "$tmp/c1bin"
    printf '#!/bin/sh\nprintf "umb_latency: \\302\\233 31mC1 \\033[2J\\n" >&2\nexit 3\n' >"$tmp/c1bin/umb_latency"
    printf '#!/bin/sh\nwhile [ "$1" != -np ]; do shift; done\nshift 2\nexec "$@"\n' >"$tmp/c1bin/launch"  # after any MPIEXEC_FLAGS
    chmod +x "$tmp/c1bin/umb_latency" "$tmp/c1bin/launch"
    MPIEXEC="$tmp/c1bin/launch" "$PYTHON3" "$S/umb-run" --bindir "$tmp/c1bin" --match '^umb_latency H H$' --out "$tmp/c1" -- -m 8:8 >"$tmp/o" 2>&1
    "$PYTHON3" "$S/umb-findings" "$tmp/c1" >>"$tmp/o" 2>&1
    cp -R "$tmp/a" "$tmp/c1lib"
    # The library a configuration names wins over the folder's: both doctored,
    # so that the line shows the value under any MPI library.
    "$PYTHON3" -c "
import json, sys
p = sys.argv[1]; m = json.load(open(p)); lib = 'Open\u001b[2J MPI\u009b'
m['mpi_library'] = lib
for c in m.get('configs') or []:
    c['mpi_library'] = lib
json.dump(m, open(p, 'w'))" "$tmp/c1lib/run.json"
    "$PYTHON3" "$S/umb-compare" "$tmp/a" "$tmp/c1lib" >>"$tmp/o" 2>&1
    [ "$(grep -c '31mC1' "$tmp/o")" -ge 2 ] && grep -q '^# \[1\] c1lib: Open\\x1b\[2J MPI\\x9b' "$tmp/o" || { cat "$tmp/o"; fail "the runs with control characters did not run as meant"; }
    "$PYTHON3" - "$tmp/o" <<'PY' || fail "a control character of a run's data reached the terminal (above)"
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
bad = [line for line in text.split("\n") if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", line)]
print("\n".join(repr(b) for b in bad))
sys.exit(1 if bad else 0)
PY
}
try "control characters of a run's data, shown escaped" controls_shown_escaped

cases_done adversary_classes
