#!/bin/sh
# The failing kinds of an adversarial pass over the scripts (issue 41's
# table, issue 44's limit and folders named twice), each a case: realistic
# data that broke umb-compare, special files in a results folder, run.json
# fields of the wrong type, plot names, commands that did nothing and said
# 0, nonsense accepted, misleading text, the batch scripts' environments,
# --config values that must stay values, a run that outlives its limit or a
# signal, and the same folder named twice. Every case runs, and the test
# ends with how many failed.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
RUN="$PYTHON3 $S/umb-run --bindir $PT2PT:$top_builddir/mpi/collective --match ^umb_latency.H.H$"
CMP="$PYTHON3 $S/umb-compare"
FND="$PYTHON3 $S/umb-findings"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
Q="-- -m 8:8 -i 10 -x 1"
# manifest DIR PYTHON-ASSERTIONS: run.json is whole JSON; m is it, d the folder.
manifest() {
    "$PYTHON3" -c "import json, os, sys; d = sys.argv[1]; m = json.load(open(os.path.join(d, 'run.json'))); $2" "$1" \
        || fail "$1/run.json: $2"
}
# A stand-in launcher: one header, one result of UMB_T_VALUE us at 8 bytes,
# the end record with UMB_T_STATUS; it exits 0 whatever it wrote.
cat >"$tmp/emit" <<'EOF'
#!/bin/sh
echo '{"type":"header","program":"umb_latency","buffers":"H H"}'
echo "{\"type\":\"result\",\"program\":\"umb_latency\",\"buffers\":\"H H\",\"size\":8,\"avg_latency_us\":${UMB_T_VALUE:-1.5}}"
echo "{\"type\":\"end\",\"program\":\"umb_latency\",\"status\":${UMB_T_STATUS:-0}}"
EOF
chmod +x "$tmp/emit"
$RUN --out "$tmp/a" $Q >/dev/null 2>&1 || fail "a first run"
cp -r "$tmp/a" "$tmp/b"

# Internal errors on realistic data: a bandwidth of 0 at size 0, rounds that
# do not overlap, a latency of 0 on either side. A row without a ratio says
# why; a latency of 0 is no measurement (pass 13): its run is not counted,
# and umb-compare says why in one line, whichever side it is on.
zero_bandwidth() {
    # umb_bw, not the issue's umb_put_bw: the same row of 0 MB/s at 0 B, on
    # any MPI (the GPU machine's Open MPI makes no window by default).
    # --precision off: the full set's 5% target took up to 3 s a size on
    # a busy machine (30 s in all); the row of 0 is there without it.
    $PYTHON3 "$S/umb-run" --set full --within off --bindir "$PT2PT" --match '^umb_bw H H$' --out "$tmp/z" -- -m 0:2 -i 5 -x 1 --precision off \
        >/dev/null 2>&1 || fail "umb_bw -m 0:2"
    cp -r "$tmp/z" "$tmp/z2"
    $CMP "$tmp/z" "$tmp/z2" >"$tmp/o" 2>&1 && grep -q '^0  .* no verdict (a value of 0 in every round they share: no ratio)$' "$tmp/o" \
        || { cat "$tmp/o"; fail "umb-compare over a bandwidth of 0"; }
}
no_overlap() {
    cp -r "$tmp/a" "$tmp/r2"
    "$PYTHON3" - "$tmp/r2" <<'PY'
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "run.json")))
for r in m["runs"]:
    r["round"] = 2
    lines = [json.loads(l) for l in open(os.path.join(d, r["file"]))]
    lines[-1]["round"] = 2
    open(os.path.join(d, r["file"]), "w").write("".join(json.dumps(o) + "\n" for o in lines))
json.dump(m, open(os.path.join(d, "run.json"), "w"))
PY
    $CMP "$tmp/a" "$tmp/r2" >"$tmp/o" 2>&1 && grep -q '^8  .* no verdict (no round has both)$' "$tmp/o" \
        || { cat "$tmp/o"; fail "umb-compare of rounds that do not overlap"; }
}
zero_latency() {
    MPIEXEC="$tmp/emit" UMB_T_VALUE=1.5 $RUN --out "$tmp/l1.5" $Q >/dev/null 2>&1 || fail "stand-in run 1.5"
    ! MPIEXEC="$tmp/emit" UMB_T_VALUE=0 $RUN --out "$tmp/l0" $Q >/dev/null 2>&1 || fail "stand-in run 0 counted"
    for pair in "l0 l1.5" "l1.5 l0"; do
        set -- $pair
        one_line 1 "$tmp/l0: no finished results (1 of 1 runs did not finish; the first: its output has a result that is not one (line 2: avg_latency_us must be above 0, found 0)" \
            $CMP "$tmp/$1" "$tmp/$2"
    done
}
try "umb-compare: a bandwidth of 0" zero_bandwidth
try "umb-compare: rounds that do not overlap" no_overlap
try "umb-compare: a latency of 0" zero_latency

# Special files: a FIFO named x.jsonl, a link to /dev/zero, run.json a FIFO:
# named and never opened, not a hang (20 s is the bound) nor MemoryError.
fifo_results() {
    mkdir "$tmp/sp" && cp "$tmp/a"/*.jsonl "$tmp/sp/" && mkfifo "$tmp/sp/x.jsonl" && ln -s /dev/zero "$tmp/sp/y.jsonl"
    rc=0; timeout 20 $CMP "$tmp/sp" "$tmp/b" >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 0 ] && grep -q "^# umb-compare: skipped [0-9]* bad lines or files (first: $tmp/sp/x.jsonl: not a regular file" "$tmp/o" \
        || { cat "$tmp/o"; fail "umb-compare over a FIFO and a link to /dev/zero: exit $rc"; }
    "$PYTHON3" -c "import matplotlib" 2>/dev/null || return 0  # umb-plot needs it before it reads
    rc=0; timeout 20 $PYTHON3 "$S/umb-plot" "$tmp/sp" --out "$tmp/sp.png" >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 0 ] && grep -q "^# umb-plot: skipped [0-9]* bad lines or files (first: $tmp/sp/x.jsonl: not a regular file" "$tmp/o" \
        || { cat "$tmp/o"; fail "umb-plot over a FIFO and a link to /dev/zero: exit $rc"; }
}
fifo_manifest() {
    mkdir "$tmp/sm" && mkfifo "$tmp/sm/run.json"
    one_line 1 "$tmp/sm/run.json: cannot read it (not a regular file)" timeout 20 $FND "$tmp/sm"
    one_line 1 "$tmp/sm/run.json: cannot read it (not a regular file)" timeout 20 $CMP "$tmp/sm" "$tmp/a"
}
try "a FIFO and a link to /dev/zero as result files" fifo_results
try "run.json a FIFO" fifo_manifest

# run.json fields of the wrong type: every reader and --append name the
# file and the field in one line; --append leaves run.json as it was.
bad_field() {
    d=$tmp/t$1; cp -r "$tmp/a" "$d"
    "$PYTHON3" -c "import json, sys; p = sys.argv[1]; m = json.load(open(p)); $2; json.dump(m, open(p, 'w'))" "$d/run.json"
    cp "$d/run.json" "$d.json"
    one_line 1 "$d/run.json: not a manifest of umb-run: $3" $FND "$d"
    one_line 1 "$d/run.json: not a manifest of umb-run: $3" $CMP "$d" "$tmp/b"
    one_line 1 "$d/run.json: not a manifest of umb-run: $3" $RUN --out "$d" --append --rounds 2 $Q
    cmp -s "$d/run.json" "$d.json" || fail "--append changed a bad run.json"
}
t1() { bad_field 1 'm["runs"][0]["round"] = "x"' 'runs[0].round must be a whole number'; }
t2() { bad_field 2 'm["rounds_done"] = "3"' 'rounds_done must be a whole number'; }
t3() { bad_field 3 'm["sessions"] = 5' 'sessions must be a list, found 5'; }
t4() { bad_field 4 'm["runs"][0]["round"] = 1e308' 'runs[0].round must be a whole number'; }
t5() { bad_field 5 'm["dropped"] = 5' 'dropped must be a list, found 5'; }
t6() { bad_field 6 'm["mpi_library"] = ["a"]' 'mpi_library must be a string or null'; }
t7() { bad_field 7 'm["findings"] = [{}]' 'findings[0] has no "finding"'; }
for t in t1 t2 t3 t4 t5 t6 t7; do try "run.json: $t" $t; done

# Plot names: the format is the name's ending; refused before any work.
plot_names() {
    one_line 1 "--out $tmp/x.txt: expected a name ending in .png, .pdf, .svg" $PYTHON3 "$S/umb-plot" "$tmp/a" --out "$tmp/x.txt"
    one_line 1 "--plot $tmp/y.txt: expected a name ending in .png, .pdf, .svg" $CMP "$tmp/a" "$tmp/b" --plot "$tmp/y.txt"
    one_line 1 "--out $tmp/noext: expected a name ending in" $PYTHON3 "$S/umb-plot" "$tmp/a" --out "$tmp/noext"
    [ ! -e "$tmp/noext" ] && [ ! -e "$tmp/noext.png" ] || fail "umb-plot --out noext wrote a file"
}
try "plot names" plot_names

# Nothing done is not a success.
findings_unfinished() {
    printf '#!/bin/sh\necho "umb_latency: broken on purpose" >&2\nexit 3\n' >"$tmp/broken" && chmod +x "$tmp/broken"
    MPIEXEC="$tmp/broken" $RUN --out "$tmp/f" $Q >/dev/null 2>&1
    one_line 1 "$tmp/f: no finished run (1 of 1 runs did not finish; the first: umb_latency: broken on purpose)" $FND "$tmp/f"
}
compare_disjoint() {
    [ -d "$tmp/z" ] || fail "needs the bandwidth folder"
    one_line 1 "nothing to compare: no benchmark, pair and size of [0] a is in another side ([1] z)" $CMP "$tmp/a" "$tmp/z"
}
suite_full() {
    one_line 1 "umb-suite: standard output: cannot write to it" sh -c "UMB_BINDIR='$PT2PT' sh '$S/umb-suite' -m 8:8 -i 10 >/dev/full"
}
suite_version() {
    rc=0; env UMB_BINDIR="$PT2PT" sh "$S/umb-suite" -m 8:8 --version >"$tmp/o" 2>"$tmp/e" || rc=$?
    [ $rc -eq 0 ] && [ "$(grep -c . "$tmp/o")" -eq 1 ] && grep -q '^umb_latency (umbench) ' "$tmp/o" \
        || { cat "$tmp/o" "$tmp/e"; fail "umb-suite --version: exit $rc, not one version line"; }
}
try "umb-findings: no finished run" findings_unfinished
try "umb-compare: nothing in common" compare_disjoint
try "umb-suite >/dev/full" suite_full
try "umb-suite --version" suite_version

# Nonsense accepted, misleading text.
long_name() {
    n=$(printf '%0250d' 0 | tr 0 n)
    one_line 1 "the name must be 1 to 64 letters" $RUN --config "$n:X=1" --out "$tmp/long" $Q
    [ ! -e "$tmp/long" ] || fail "a refused --config name made its folder"
}
end_status() {
    rc=0; MPIEXEC="$tmp/emit" UMB_T_STATUS=2 $RUN --out "$tmp/s2" $Q >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "INCOMPLETE: its output's end record says status 2; not counted" "$tmp/o" && grep -q ': 1 runs, 0 skipped, 1 failed' "$tmp/o" \
        || { cat "$tmp/o"; fail "an end record with status 2: exit $rc"; }
    manifest "$tmp/s2" "assert m['runs'][0]['complete'] is False, m['runs']"
}
nan_row() {
    rc=0; MPIEXEC="$tmp/emit" UMB_T_VALUE=NaN $RUN --out "$tmp/nan" $Q >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "INCOMPLETE: its output has a result that is not one (line 2: " "$tmp/o" && grep -q ': 1 runs, 0 skipped, 1 failed' "$tmp/o" \
        || { cat "$tmp/o"; fail "a NaN row: exit $rc"; }
}
environs_colon() {
    mkdir -p "$tmp/d:on" && touch "$tmp/d:on/mpicc" && chmod +x "$tmp/d:on/mpicc"
    one_line 1 'UMBENCH_ENVIRONS: expected NAME=BINDIR ..., each NAME once' \
        env UMBENCH_ENVIRONS="a=$tmp/d:on" "$PYTHON3" "$top_srcdir/reframe-checks/umbench_config.py"
}
# Every NAME=BINDIR typed: BINDIR reaches the job script's shell, NAME
# names an environment (twice, or the built-in one, was one silently lost).
environs_typed() {
    mkdir -p "$tmp/mb" "$tmp/x\$(id)" && touch "$tmp/mb/mpicc" "$tmp/x\$(id)/mpicc"
    for v in "a=$tmp/mb a=$tmp/mb" "openmpi=$tmp/mb" "a\$b=$tmp/mb" "a=$tmp/x\$(id)" "a=$(basename "$tmp")/mb"; do
        (cd "$(dirname "$tmp")" && one_line 1 "UMBENCH_ENVIRONS: expected NAME=BINDIR ..., each NAME once" \
            env UMBENCH_ENVIRONS="$v" "$PYTHON3" "$top_srcdir/reframe-checks/umbench_config.py")
    done
    env UMBENCH_ENVIRONS="a=$tmp/mb b-2=$tmp/mb" "$PYTHON3" "$top_srcdir/reframe-checks/umbench_config.py" || fail "two good environments"
}
build_name() {
    one_line 1 "--build x/y=$tmp/a: the name must be" $PYTHON3 "$S/umb-run" --build "x/y=$tmp/a" --out "$tmp/bn" $Q
    grep -q -- "--config" "$tmp/e" && fail "a bad --build name named --config"
    true
}
try "a 250-character --config name" long_name
try "an end record with status 2" end_status
try "a NaN row" nan_row
try "UMBENCH_ENVIRONS with a ':' in BINDIR" environs_colon
try "UMBENCH_ENVIRONS: each NAME once, BINDIR absolute and plain" environs_typed
try "a bad --build name" build_name

# --config values are data: quoted, a value with ':-', ',' or spaces stays one value.
config_data() {  # what umb-run makes of them, not what MPI does: the stand-in launches
    MPIEXEC="$tmp/emit" $RUN --config "x:A='16384:--oversubscribe sh -c \"id > $tmp/F\" x'" --config "y:B='8192,LD_PRELOAD=x.so',C=self,tcp" \
        --out "$tmp/cv" $Q >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-run with quoted values"; }
    manifest "$tmp/cv" "c = {x['name']: (x['env'], x['launcher_flags']) for x in m['configs']}
assert c['x'] == ({'A': '16384:--oversubscribe sh -c \"id > $tmp/F\" x'}, []), c
assert c['y'] == ({'B': '8192,LD_PRELOAD=x.so', 'C': 'self,tcp'}, []), c"
    [ ! -e "$tmp/F" ] || fail "a value ran as a command"
}
try "--config values stay values" config_data

# The batch scripts, with a stand-in umb-run that keeps its arguments:
# typed GPU counts, hosts whose names hold "batch", an empty UMB_EXTRA (no
# options) and one with a pattern (passed as it is, never expanded).
mkdir "$tmp/stub" "$tmp/jsbin" "$tmp/glob" && touch "$tmp/glob/xa"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/args"\n' "$tmp" >"$tmp/stub/umb-run"
printf '#!/bin/sh\nexit 0\n' >"$tmp/jsbin/jsrun"
chmod +x "$tmp/stub/umb-run" "$tmp/jsbin/jsrun"
# batch SCRIPT ENV...: runs it as the batch system would, in $tmp/glob; $tmp/args then has umb-run's arguments.
batch() {
    script=$1; shift
    rm -f "$tmp/args"
    (cd "$tmp/glob" && env UMB_BINDIR="$tmp/stub" UMB_OUT="$tmp/bout" "$@" bash "$top_srcdir/scripts/$script") >"$tmp/o" 2>&1         || { cat "$tmp/o"; fail "$script $*"; }
}
# after_dashes: umb-run's arguments after "--", on one line.
after_dashes() { sed -n '/^--$/,$p' "$tmp/args" | sed 1d | tr '\n' ' '; }
typed_gpus() {
    batch slurm/umb.sbatch UMB_LAYOUT=per-gpu SLURM_JOB_ID=42 SLURM_NNODES=1 SLURM_GPUS_PER_NODE=a100:2
    grep -qx 2 "$tmp/args" && grep -B1 -x 2 "$tmp/args" | grep -qx -- --np || { cat "$tmp/args"; fail "SLURM_GPUS_PER_NODE=a100:2: not --np 2"; }
    rc=0; (cd "$tmp/glob" && env UMB_BINDIR="$tmp/stub" UMB_LAYOUT=per-gpu SLURM_NNODES=1 SLURM_GPUS_PER_NODE=a100 \
        bash "$top_srcdir/scripts/slurm/umb.sbatch") >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && grep -q "SLURM_GPUS_PER_NODE='a100': accepted: \[TYPE:\]COUNT" "$tmp/o" || { cat "$tmp/o"; fail "SLURM_GPUS_PER_NODE=a100: exit $rc"; }
}
batch_hosts() {
    batch lsf/umb.lsf UMB_LAYOUT=per-gpu LSB_JOBID=42 LSB_HOSTS="batch01 batch01 batch02 batch02"
    grep -A1 -x -- --np "$tmp/args" | grep -qx 2 || { cat "$tmp/args"; fail "LSB_HOSTS batch01 batch02 (mpirun): not --np 2"; }
    batch lsf/umb.lsf UMB_LAYOUT=per-gpu LSB_JOBID=42 LSB_HOSTS="login1 batch01 batch02" PATH="$tmp/jsbin:$PATH"
    grep -A1 -x -- --np "$tmp/args" | grep -qx 2 || { cat "$tmp/args"; fail "LSB_HOSTS login1 batch01 batch02 (jsrun): not --np 2"; }
}
extra_words() {
    for script in slurm/umb.sbatch lsf/umb.lsf; do
        batch $script UMB_LAYOUT=one-node UMB_EXTRA=
        [ -z "$(after_dashes)" ] || { cat "$tmp/args"; fail "$script UMB_EXTRA=: passed $(after_dashes)"; }
        batch $script UMB_LAYOUT=one-node UMB_EXTRA='-i x*'
        [ "$(after_dashes)" = "-i x* " ] || { cat "$tmp/args"; fail "$script UMB_EXTRA='-i x*': passed $(after_dashes)"; }
    done
}
try "SLURM_GPUS_PER_NODE=a100:2" typed_gpus
try "LSB_HOSTS with hosts named batch01 batch02" batch_hosts
try "UMB_EXTRA empty, or with a pattern" extra_words

# A limit is a limit (issue 44): a site's wrapper calls the launcher without
# exec, the launcher and the program ignore SIGTERM, and the program never
# ends. --run-limit, SIGTERM and Ctrl-C each end the whole group within 5 s
# of the limit or the signal; run.json says what happened and how long it
# took; nothing is left behind.
never=$tmp/never-ending-program
printf '#!/bin/sh\ntrap "" TERM INT HUP\nwhile :; do sleep 1; done\n' >"$never"
printf '#!/bin/sh\n[ "$1" != --version ] || exec echo a stand-in launcher\ntrap "" TERM\n"%s" "$@"\necho the launcher ended\n' "$never" >"$tmp/launcher"
printf '#!/bin/sh\n"%s" "$@"\necho the wrapper ended\n' "$tmp/launcher" >"$tmp/wrapper"
chmod +x "$never" "$tmp/launcher" "$tmp/wrapper"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# left: the processes of the never-ending program still there; they are ended, and named.
left() {
    pids=$(pgrep -f "$never" || true)
    [ -z "$pids" ] || { kill -KILL $pids 2>/dev/null; echo "left behind: $pids"; }
}
# waited PID SECONDS: waits for PID at most that long (then kills it); its status in rc.
waited() {
    i=0; while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do i=$((i + 1)); sleep 0.1; done
    kill -KILL "$1" 2>/dev/null
    rc=0; wait "$1" || rc=$?
}
# Below 30 s: the wrapper's rank never ends. Stopped, then killed 3 s
# later at the most: 20 s leave room for CI's busy cores.
run_limit() {
    t0=$(now)
    MPIEXEC="$tmp/wrapper" $RUN --run-limit 2 --out "$tmp/lim" $Q >"$tmp/o" 2>&1 &
    waited $! 30
    wall=$(since "$t0"); stray=$(left)
    echo "--run-limit 2: umb-run ended after $wall s, exit $rc"
    [ $rc -eq 1 ] && [ -z "$stray" ] && awk -v w="$wall" 'BEGIN { exit !(w <= 20) }' \
        || { cat "$tmp/o"; fail "--run-limit 2: exit $rc after $wall s; $stray"; }
    manifest "$tmp/lim" "r = m['runs'][0]; assert r['status'] == 124 and 2 <= r['elapsed_s'] <= 20 and 'it ended after' in r['error'], r"
}
signalled() {
    d=$tmp/sig$1
    MPIEXEC="$tmp/wrapper" $RUN --out "$d" $Q >"$tmp/o" 2>&1 &
    pid=$!
    i=0; until pgrep -f "$never" >/dev/null || [ $i -ge 200 ]; do i=$((i + 1)); sleep 0.1; done
    t0=$(now); kill -"$1" $pid
    waited $pid 30
    wall=$(since "$t0"); stray=$(left)
    echo "SIG$1: umb-run ended $wall s after the signal, exit $rc"
    [ $rc -eq 130 ] && [ -z "$stray" ] && awk -v w="$wall" 'BEGIN { exit !(w <= 5) }' \
        || { cat "$tmp/o"; fail "SIG$1: exit $rc, $wall s after the signal; $stray"; }
    manifest "$d" "r = m['runs'][0]; assert m['state'] == 'interrupted' and r['interrupted'] and r['elapsed_s'] <= 30, r"
}
sig_term() { signalled TERM; }
sig_int() { signalled INT; }
try "--run-limit through a wrapper that does not exec" run_limit
try "SIGTERM through a wrapper that does not exec" sig_term
try "Ctrl-C (SIGINT) through a wrapper that does not exec" sig_int

# The same folder named twice, by any path, counts once, with one line saying so.
twice() {
    ln -s "$tmp/a" "$tmp/alink"
    for second in "$tmp/a" "$tmp/./a" "$tmp/alink" "$tmp/a/"; do
        $FND "$tmp/a" "$second" >"$tmp/o" 2>"$tmp/e" && [ "$(wc -l <"$tmp/e")" -eq 1 ] \
            && grep -qx "umb-findings: $second is the same folder as $tmp/a: counted once" "$tmp/e" \
            && grep -q '^# umb-findings: 1 folders, 1 finished runs' "$tmp/o" || { cat "$tmp/o" "$tmp/e"; fail "umb-findings a $second"; }
    done
    (cd "$tmp" && $FND a ./a) >"$tmp/o" 2>"$tmp/e" && grep -q '^# umb-findings: 1 folders, 1 finished runs' "$tmp/o" \
        || { cat "$tmp/o" "$tmp/e"; fail "umb-findings a ./a"; }
    $CMP "$tmp/a" "$tmp/b" "$tmp/alink" >"$tmp/o" 2>"$tmp/e" && [ "$(wc -l <"$tmp/e")" -eq 1 ] \
        && grep -q "is the same folder as $tmp/a: counted once" "$tmp/e" && ! grep -q '^# \[2\]' "$tmp/o" \
        || { cat "$tmp/o" "$tmp/e"; fail "umb-compare a b alink"; }
    one_line 1 "($tmp/a has one); $tmp/alink is the same folder as $tmp/a: counted once" $CMP "$tmp/a" "$tmp/alink"
}
try "the same folder named twice" twice

# A whole number in a result line is written whole: "%.6g" wrote 1000000
# iterations as 1e+06, which the result schema refuses (the run was not
# counted), and 1234567 as 1.23457e+06 (a wrong count). A timed loop that a
# precision target grows reaches a million on any fast link. The programs'
# one writer of numbers is tests/unit/output_json.sh's (1234567 written
# whole); here umb-run counts such a line as a finished run and keeps it
# whole. A stand-in prints it: a million real round trips took 60 s of a
# loaded machine (15 s with ranks that yield), and the launch is not what
# is checked.
whole_counts() {
    sed 's/\\"avg_latency_us\\":/\\"iterations\\":1234567,&/' "$tmp/emit" >"$tmp/emit-count" && chmod +x "$tmp/emit-count"
    MPIEXEC="$tmp/emit-count" $RUN --out "$tmp/whole" $Q >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "a count of 1234567"; }
    grep -q '"iterations":1234567[,}]' "$tmp/whole/umb_latency-H-H.jsonl" \
        || { grep result "$tmp/whole/umb_latency-H-H.jsonl"; fail "iterations not kept whole"; }
    manifest "$tmp/whole" "r = m['runs'][0]; assert r['status'] == 0 and r.get('complete', True) and not r.get('error'), r"
}
try "a count of a million or more, written whole" whole_counts

# A refusal is one line whatever the value it names: a newline in a value
# was echoed as it is, and the one message became two lines (\x0a now).
newline_values() {
    nl='
'
    one_line 1 '--precision 5\x0a%: expected a percentage' $RUN --out "$tmp/nl" --precision "5$nl%" $Q
    one_line 1 '--config a\x0ab: the name must be' $RUN --out "$tmp/nl" --config "a${nl}b" $Q
    one_line 1 "a\\x0ab: not a folder" $CMP "$tmp/a" "a${nl}b"
    one_line 1 "--only x\\x09y: not in the catalogue" $PYTHON3 "$S/umb-tune" --only "x	y"
    one_line 1 "--prefix '/a\\x0ab': only letters" bash "$S/umb-stack" --prefix "/a${nl}b" env ucx-cu13
    [ ! -e "$tmp/nl" ] || fail "a refusal made --out"
}
try "a value with a newline or tab, refused in one line" newline_values

# The benchmark options after "--" come after umb-run's own: a --timeout of
# the user's was silently replaced by umb-run's 120, and "-- -m" took
# umb-run's --format as its value ("-m --format"). A --format of the user's
# would make every run unreadable: refused, before anything is written.
user_options_last() {
    $RUN --out "$tmp/uo" -- -m 8:8 -i 10 -x 1 --timeout 7 >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "-- --timeout 7"; }
    grep -q '"timeout":"7 s without progress' "$tmp/uo/umb_latency-H-H.jsonl" || fail "-- --timeout 7 was not the program's"
    $RUN --out "$tmp/uo2" -- -m >"$tmp/o" 2>&1
    grep -q 'option -m needs a value' "$tmp/o" && ! grep -q -- '--format' "$tmp/o" || { cat "$tmp/o"; fail "-- -m took umb-run's own option"; }
    for f in "--format table" "--form=csv"; do
        # shellcheck disable=SC2086 # the option and its value are two words
        one_line 1 "-- ${f%% *}: umb-run reads the programs' JSON lines and sets --format itself" $RUN --out "$tmp/uo3" -- $f
    done
    [ ! -e "$tmp/uo3" ] || fail "a refused --format made --out"
}
try "benchmark options after umb-run's own" user_options_last

# A folder whose finished runs hold no readable result line (cut short to
# its header, or unreadable) was "1 finished runs ... no findings", exit 0,
# where umb-compare says "no finished results": the readers agree now. A
# file cut short lacks the end that run.json says it has (pass 13).
no_readable_result() {
    cp -r "$tmp/a" "$tmp/cut"
    f=$(ls "$tmp/cut"/*.jsonl) && head -n 1 "$f" >"$tmp/h" && cat "$tmp/h" >"$f"
    one_line 1 "$f: no end record, where $tmp/cut/run.json (runs[0] lists" $FND "$tmp/cut"
    one_line 1 "$f: no end record, where $tmp/cut/run.json (runs[0] lists" $CMP "$tmp/a" "$tmp/cut"
    grep '"type": *"end"' "$tmp/a/$(basename "$f")" >>"$f"  # its header and end: no result line
    one_line 1 "$tmp/cut: no finished results" $FND "$tmp/cut"
    one_line 1 "$tmp/cut: no finished results" $CMP "$tmp/a" "$tmp/cut"
}
try "a folder without a readable result line" no_readable_result

# --out a symbolic link that leads nowhere (dangling, or a loop): said so,
# where it was "cannot make the folder (File exists)".
out_dangling() {
    ln -s "$tmp/nowhere/x" "$tmp/dang" && ln -s "$tmp/loop2" "$tmp/loop1" && ln -s "$tmp/loop1" "$tmp/loop2"
    one_line 1 "--out $tmp/dang: a symbolic link to $tmp/nowhere/x, which leads to no folder" $RUN --out "$tmp/dang" $Q
    one_line 1 "--out $tmp/loop1: a symbolic link to $tmp/loop2, which leads to no folder" $RUN --out "$tmp/loop1" $Q
}
try "--out a link that leads nowhere" out_dangling

# A picture where no file can be made (/proc, even as root: access() says
# yes there) was found out after the whole table had been printed: refused
# before any output now, as every other --plot and --out refusal is.
plot_nowhere() {
    "$PYTHON3" -c "import matplotlib" 2>/dev/null || return 0  # the plot options need it before they are read
    # As root the file that cannot be made says it; as a user, access() already does ("not writable").
    one_line 1 "--plot /proc/umb.png: " $CMP "$tmp/a" "$tmp/a" --plot /proc/umb.png
    [ ! -s "$tmp/o" ] || fail "umb-compare printed its table before refusing --plot"
    one_line 1 "--out /proc/umb.png: " $PYTHON3 "$S/umb-plot" "$tmp/a" --out /proc/umb.png
}
try "a picture where no file can be made" plot_nowhere

# A value that starts with '-' (--min-effect -5%) was argparse's "expected
# one argument", naming the option but not the value nor how to give it.
dash_value() {
    one_line 1 "--min-effect -5%: a value that starts with '-' reads as an option; give it as --min-effect=-5%" \
        $CMP "$tmp/a" "$tmp/a" --min-effect -5%
    one_line 1 "--min-effect -5%: expected a percentage" $CMP "$tmp/a" "$tmp/a" --min-effect=-5%
}
try "a value that starts with a dash" dash_value

# A folder whose name holds a newline (the adversary's open kind): every
# report line that names it stays one line, the name shown escaped (\x0a),
# in umb-run's own lines, umb-compare's side labels, umb-findings and
# umb-plot's "wrote" line: no line of any output starts with the part
# after the newline.
newline_folder() {
    nl="$tmp/nl
x"
    MPIEXEC="$tmp/emit" $RUN --config b:X=1 --out "$nl" $Q >"$tmp/nl.out" 2>&1 || { cat "$tmp/nl.out"; fail "umb-run into a folder with a newline"; }
    $CMP "$nl" >>"$tmp/nl.out" 2>&1 || fail "umb-compare of a folder with a newline"
    $FND "$nl" >>"$tmp/nl.out" 2>&1 || true
    if "$PYTHON3" -c "import matplotlib" 2>/dev/null; then
        $CMP "$nl" --plot "$nl/p.png" >>"$tmp/nl.out" 2>&1 || fail "umb-compare --plot into a folder with a newline"
        grep -q 'wrote .*nl\\x0ax/p.png' "$tmp/nl.out" || { cat "$tmp/nl.out"; fail "the plot's name not shown escaped"; }
    fi
    ! grep -q '^x' "$tmp/nl.out" && grep -q '^# \[1\] nl\\x0ax/b: ' "$tmp/nl.out" && grep -q "^umb-run: .*/nl\\\\x0ax: 2 runs" "$tmp/nl.out" \
        || { cat "$tmp/nl.out"; fail "a folder's newline split a report line"; }
}
try "a folder whose name holds a newline" newline_folder

# Bad benchmark options after "--" (the adversary's other open kind): each
# program is asked first (--check-options: it parses them and exits, no
# MPI, no GPU), and umb-run refuses in the program's own line, exit 1,
# before its folder exists, where every run failed with them. A stand-in
# script is not asked.
bad_extras() {
    one_line 1 "umb_latency: -m 8:x: expected MAX, MIN:MAX or MIN" $RUN --out "$tmp/bx" -- -m 8:x
    one_line 1 "umb_latency: --place-with nope: accepted: kernel, prefetch (the benchmark options after --: --place-with nope)" \
        $RUN --out "$tmp/bx" -- --place-with nope
    [ ! -e "$tmp/bx" ] || fail "a refused option made the folder"
    rc=0; "$PT2PT/umb_latency" --check-options -m 8:64 H H </dev/null >"$tmp/bx.out" 2>&1 || rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/bx.out" ] || fail "umb_latency --check-options on good options: exit $rc, $(cat "$tmp/bx.out")"
}
try "bad benchmark options after --" bad_extras

cases_done adversary_more
