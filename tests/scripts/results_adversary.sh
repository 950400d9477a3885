#!/bin/sh
# The results folder as an adversary meets it (docs/output.md, "Results
# folders"): an --out that holds a run, two umb-run at once, signals sent
# twice, a kill mid-run, a run stopped half-way, bad lines and bad files, a
# full disk (a small tmpfs, and /dev/full), read-only and missing folders,
# odd option values. Each case gives one line and a non-zero exit, or
# results that stay whole; never a traceback, never a lost or mixed run.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
RUN="$PYTHON3 $S/umb-run --bindir $PT2PT:$top_builddir/mpi/collective --match ^umb_latency.H.H$"
CMP="$PYTHON3 $S/umb-compare"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
Q="-- -m 8:8 -i 10 -x 1"

# manifest DIR PYTHON-ASSERTIONS: run.json is whole JSON; m is it, d the folder.
manifest() {
    "$PYTHON3" -c "import json, os, sys; d = sys.argv[1]; m = json.load(open(os.path.join(d, 'run.json'))); $2" "$1" \
        || fail "$1/run.json: $2"
}

# 1. An --out that holds a run is refused and left as it was; --append adds
#    later rounds beside it, replacing nothing.
$RUN --out "$tmp/a" $Q >/dev/null 2>&1 || fail "first run"
cp "$tmp/a/run.json" "$tmp/a.json"
one_line 1 "already holds results (1 runs)" $RUN --out "$tmp/a" $Q
cmp -s "$tmp/a/run.json" "$tmp/a.json" || fail "a refused --out changed run.json"
$RUN --out "$tmp/a" --append --rounds 2 $Q >/dev/null 2>&1 || fail "--append"
manifest "$tmp/a" "r = m['runs']; assert [x['round'] for x in r] == [1, 2, 3] and len({x['file'] for x in r}) == 3 and m['state'] == 'finished', r"
# --np 3 runs a two-rank program on 2 ranks, as before: a round alike
# (what ran decides, from each run's header; a collective's 3 ranks would not be).
$RUN --out "$tmp/a" --append --np 3 $Q >/dev/null 2>&1 || fail "--append --np 3 of a two-rank program"
manifest "$tmp/a" "r = m['runs']; assert [x['round'] for x in r] == [1, 2, 3, 4], r"
cp -r "$tmp/a" "$tmp/a2"  # a second folder: the same one named twice counts once
$CMP "$tmp/a" "$tmp/a2" >"$tmp/o" 2>&1 && grep -q "^# \[0\] a: .* 4 rounds)" "$tmp/o" || { cat "$tmp/o"; fail "umb-compare: 4 rounds after --append"; }

# 2. Two at once: the second is refused, naming the first's pid; the first
#    keeps all of its runs. A stand-in launcher stalls one configuration,
#    ignoring SIGTERM, so that a run lasts until it is killed. Its sleep
#    is named by this test's folder: a pkill of a bare "sleep 47" killed the
#    stall of this test running in another build at once (make check
#    beside make distcheck), which then ended -15 and not 124. What is
#    tested here is the folder, its lock and umb-run's signals, not MPI:
#    the other runs are a stand-in's (one header, one result, the end), so
#    that no run-limit need leave room for a real launch on a busy machine.
standin_emit "$tmp/emit"
ln -s "$(command -v sleep)" "$tmp/stall-sleep"
STALLED="$tmp/stall-sleep 47"
printf '#!/bin/sh\nif [ -n "${UMB_TEST_STALL:-}" ]; then [ -z "${UMB_TEST_DEAF:-}" ] || trap "" TERM; exec "%s" 47; fi\nexec "%s" "$@"\n' \
    "$tmp/stall-sleep" "$tmp/emit" >"$tmp/launch"
chmod +x "$tmp/launch"
STALL="--config stall:UMB_TEST_STALL=1"
# Below 30 s: only stand-ins run here, the stall that never ends and the
# default configuration's; 8 s, as the two refusals below must come while
# the stall lasts.
MPIEXEC="$tmp/launch" $RUN --out "$tmp/b" $STALL --run-limit 8 $Q >"$tmp/b.log" 2>&1 &
first=$!
i=0; until [ -f "$tmp/b/run.json" ] || [ $i -ge 200 ]; do i=$((i + 1)); sleep 0.05; done
one_line 1 "in use by umb-run pid $first" $RUN --out "$tmp/b" $Q
one_line 1 "in use by umb-run pid $first" $RUN --out "$tmp/b" --append $Q
rc=0; wait $first || rc=$?
[ $rc -eq 1 ] || { cat "$tmp/b.log"; fail "the first umb-run: exit $rc"; }
manifest "$tmp/b" "assert [(r['config'], r['status'], r['complete']) for r in m['runs']] == [('default', 0, True), ('stall', 124, False)], m['runs']"

# 3. Signals twice (Ctrl-C twice, SIGTERM twice) 0.3 s apart while a run
#    ignores the first: umb-run kills it at the second, exits 130, and
#    run.json lists the finished run and the stopped one, marked unfinished
#    (in run.json and in its file); no reader counts it.
for sig in INT TERM; do
    d=$tmp/sig$sig
    start=$(date +%s)
    MPIEXEC="$tmp/launch" $RUN --out "$d" $STALL,UMB_TEST_DEAF=1 $Q >"$d.log" 2>&1 &
    pid=$!
    i=0; until grep -q '^\[2/2' "$d.log" 2>/dev/null || [ $i -ge 400 ]; do i=$((i + 1)); sleep 0.05; done
    sleep 0.5
    kill -$sig $pid; sleep 0.3; kill -$sig $pid
    rc=0; wait $pid || rc=$?
    [ $rc -eq 130 ] && [ $(( $(date +%s) - start )) -le 20 ] && ! grep -q Traceback "$d.log" || { cat "$d.log"; fail "SIG$sig twice: exit $rc"; }
    manifest "$d" "r = m['runs']; assert m['state'] == 'interrupted' and [(x['config'], x['status'] == 0, x['complete']) for x in r] == [('default', True, True), ('stall', False, False)] and r[1]['interrupted'], r
last = json.loads(open(os.path.join(d, r[1]['file'])).read().splitlines()[-1]); assert last['type'] == 'run' and last['complete'] is False, last"
    "$PYTHON3" - "$S" "$d" <<'PY' || fail "SIG$sig twice: a reader counted the stopped run"
import sys
sys.path.insert(0, sys.argv[1])
from umbench import results
sides, unfinished = results.load(sys.argv[2], results.Problems())
assert [s.config for s in sides] == ["default"] and unfinished == 1, ([s.config for s in sides], unfinished)
PY
done

# 4. umb-run killed outright mid-run: run.json is whole and lists the run
#    before; the lock died with it, so --append goes on.
MPIEXEC="$tmp/launch" $RUN --out "$tmp/k" $STALL --rounds 2 $Q >"$tmp/k.log" 2>&1 &
pid=$!
i=0; until grep -q '^\[2/4' "$tmp/k.log" 2>/dev/null || [ $i -ge 400 ]; do i=$((i + 1)); sleep 0.05; done
sleep 0.5; kill -KILL $pid; wait $pid 2>/dev/null
pkill -fx "$STALLED" 2>/dev/null
manifest "$tmp/k" "assert m['state'] == 'running' and [(x['config'], x['status']) for x in m['runs']] == [('default', 0)], m['runs']"
ls "$tmp/k"/umb_latency-H-H.stall.r1.jsonl >/dev/null || fail "the killed run's file"
MPIEXEC="$tmp/emit" $RUN --out "$tmp/k" --append $Q >/dev/null 2>&1 || fail "--append after a kill"
manifest "$tmp/k" "assert [x['round'] for x in m['runs']] == [1, 2] and m['state'] == 'finished', m['runs']"

# 5. A run stopped half-way: rows with a value 13x off, listed with status
#    124 (or not listed at all) are not a round; only finished ones count.
mkdir "$tmp/h"
cp "$tmp/a/run.json" "$tmp/h/run.json"
f=$(ls "$tmp/a"/umb_latency-H-H*.jsonl | head -1)
cp "$f" "$tmp/h/$(basename "$f")"
"$PYTHON3" - "$tmp/h" "$(basename "$f")" <<'PY'
import json, os, sys
d, good = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(d, "run.json")))
m["runs"] = [r for r in m["runs"] if r["file"] == good]
rows = [json.loads(l) for l in open(os.path.join(d, good))]
res = [dict(r, avg_latency_us=r["avg_latency_us"] * 13) for r in rows if r["type"] == "result"]
for name, status in (("half.jsonl", 124), ("unlisted.jsonl", None)):
    with open(os.path.join(d, name), "w") as out:
        out.write(json.dumps(rows[0]) + "\n" + "".join(json.dumps(r) + "\n" for r in res))
        out.write(json.dumps({"type": "run", "round": 2, "config": "default"}) + "\n")
    if status:
        m["runs"].append(dict(m["runs"][0], file=name, status=status, round=2))
json.dump(m, open(os.path.join(d, "run.json"), "w"))
PY
$CMP "$tmp/h" "$tmp/a" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-compare with a half-way run"; }
grep -q "^# \[0\] h: .* 1 rounds)" "$tmp/o" && grep -q "^# $tmp/h: 2 runs left out: they did not finish" "$tmp/o" \
    || { cat "$tmp/o"; fail "umb-compare counted a half-way run"; }

# 6. Bad lines: JSON that is not an object, bytes that are not UTF-8, a
#    result without a size or with a size that is not a number: skipped,
#    named with file and line, counted; the good rows still compare.
cp -r "$tmp/a" "$tmp/bad"
f=$(ls "$tmp/bad"/umb_latency-H-H*.jsonl | head -1)
{ echo '[1, 2]'; echo '"text"'; printf '\377\376 not utf-8\n'; echo '{"type": "result", "program": "umb_latency", "buffers": "H H", "avg_latency_us": 1}'
  echo '{"type": "result", "program": "umb_latency", "buffers": "H H", "size": "8", "avg_latency_us": 1}'; echo '{"no": "type"}'; } >"$tmp/lines"
sed -i "1r $tmp/lines" "$f"
$CMP "$tmp/bad" "$tmp/a" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-compare with bad lines: exit"; }
grep -q "^# umb-compare: skipped [0-9]* bad lines or files (first: $f:2: the top must be an object, found \[1, 2\])" "$tmp/o" \
    && grep -q "^8  *\[1\]" "$tmp/o" && ! grep -q Traceback "$tmp/o" || { cat "$tmp/o"; fail "umb-compare: bad lines not named and counted"; }
n=$(sed -n 's/^# umb-compare: skipped \([0-9]*\) .*/\1/p' "$tmp/o")
[ "$n" -ge 6 ] || { cat "$tmp/o"; fail "umb-compare: $n bad lines counted, expected 6 or more"; }

# A folder of program outputs (no run.json) where two files claim the same
# round: the first is kept, the other named, never mixed into one round.
mkdir "$tmp/mix"
for n in x y; do cp "$(ls "$tmp/a"/umb_latency-H-H*.jsonl | head -1)" "$tmp/mix/$n.jsonl"; done
$CMP "$tmp/mix" "$tmp/a" >"$tmp/o" 2>&1 && grep -q "^# \[0\] mix: .* 1 rounds)" "$tmp/o" \
    && grep -q "^# umb-compare: skipped 1 bad line or file (first: $tmp/mix/y.jsonl: round [0-9]* of default again" "$tmp/o" \
    || { cat "$tmp/o"; fail "umb-compare: two files of one round"; }

# 7. Bad run.json files: not JSON, [], runs that are not a list: one line
#    naming the file, for every reader.
for text in 'not json' '[]' '{"runs": 5}' '{"runs": [{"file": 3}]}'; do
    mkdir -p "$tmp/m" && printf '%s' "$text" >"$tmp/m/run.json"
    one_line 1 "$tmp/m/run.json: " $CMP "$tmp/m" "$tmp/a"
    one_line 1 "$tmp/m/run.json: " $PYTHON3 "$S/umb-plot" "$tmp/m"
    one_line 1 "$tmp/m/run.json: " $RUN --out "$tmp/m" --append $Q
done
one_line 1 "--report $tmp/a: umb-run's results (run.json), not a search's: no tune.json" $PYTHON3 "$S/umb-tune" --report "$tmp/a"
for text in '[]' '{"tried": 5, "refused": []}' '{"tried": [{"name": "x"}], "refused": []}' '{"tried": [], "refused": [], "rounds": "x"}'; do
    cp -r "$tmp/a" "$tmp/t" && printf '%s' "$text" >"$tmp/t/tune.json"
    one_line 1 "--report $tmp/t: $tmp/t/tune.json: not umb-tune's tune.json: " $PYTHON3 "$S/umb-tune" --report "$tmp/t"
    rm -rf "$tmp/t"
done
printf '\377' >"$tmp/cat.json"
one_line 1 "--catalogue $tmp/cat.json: not JSON" $PYTHON3 "$S/umb-tune" --catalogue "$tmp/cat.json" --out "$tmp/x"
for text in '[]' '{"settings": []}' '{"settings": [{"name": "a", "library": "ucx", "variable": "UCX_TLS", "values": "tcp"}]}' \
        '{"settings": [{"name": "a", "library": "nope", "variable": "X", "values": ["1"]}]}' '{"settings": [{"name": "a", "library": "ucx", "variable": "A B", "values": ["1"]}]}'; do
    printf '%s' "$text" >"$tmp/cat.json"
    one_line 1 "--catalogue $tmp/cat.json: " $PYTHON3 "$S/umb-tune" --catalogue "$tmp/cat.json" --out "$tmp/x"
done
mkdir "$tmp/empty"
one_line 1 "$tmp/empty: no finished results" $CMP "$tmp/empty" "$tmp/a"
one_line 1 "$tmp/nothere: not a folder" $CMP "$tmp/nothere" "$tmp/a"
# A side whose runs all failed says why.
printf '#!/bin/sh\necho "umb_latency: broken on purpose" >&2\nexit 3\n' >"$tmp/broken" && chmod +x "$tmp/broken"
MPIEXEC="$tmp/broken" $RUN --out "$tmp/f" $Q >/dev/null 2>&1
one_line 1 "no finished results (1 of 1 runs did not finish; the first: umb_latency: broken on purpose)" $CMP "$tmp/f" "$tmp/a"

# 8. Folders and files that cannot be written: missing, a file, read-only
#    (a read-only mount where root, else a folder without write bits).
touch "$tmp/file"
one_line 1 "--out $tmp/file: not a folder" $RUN --out "$tmp/file" $Q
one_line 1 "--out '': empty; expected a folder" $RUN --out '' $Q
one_line 1 "--plot $tmp/no/p.png: no folder $tmp/no" $CMP "$tmp/a" "$tmp/a2" --plot "$tmp/no/p.png"
one_line 1 "--out $tmp/no/p.png: no folder $tmp/no" $PYTHON3 "$S/umb-plot" "$tmp/a" --out "$tmp/no/p.png"
one_line 1 "--plot $tmp/a: a folder" $CMP "$tmp/a" "$tmp/a2" --plot "$tmp/a"
one_line 1 "--out /dev/full: not a regular file" $PYTHON3 "$S/umb-plot" "$tmp/a" --out /dev/full
# Each way gives its own reason: the message umb-run gives is the system's.
mkdir "$tmp/ro"
if [ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null; then
    inside() { unshare -m --propagation private sh -c 'mount -t tmpfs -o ro,size=64k none "$0" && exec "$@"' "$tmp/ro" "$@"; }
    why="Read-only file system"
elif [ "$(id -u)" -ne 0 ]; then
    chmod 555 "$tmp/ro"; inside() { "$@"; }
    why="Permission denied"
else
    why=  # root without mount namespaces: nothing here is read-only to it
fi
if [ -n "$why" ]; then
    one_line 1 "--out $tmp/ro/x: cannot make the folder ($why)" inside $RUN --out "$tmp/ro/x" $Q
    one_line 1 "--plot $tmp/ro/p.png: not writable" inside $CMP "$tmp/a" "$tmp/a2" --plot "$tmp/ro/p.png"
fi

# 9. A full disk. Standard output on /dev/full: the table-printing commands
#    fail in one line; umb-run keeps its folder whole and exits 1. A results
#    folder on a 24 KiB tmpfs: the run that did not fit is not counted,
#    run.json stays whole and lists only what was written.
one_line 1 "standard output: No space left on device" sh -c "$CMP '$tmp/a' '$tmp/a2' >/dev/full"
one_line 1 "standard output: No space left on device" sh -c "MPIEXEC='$tmp/emit' $RUN --out '$tmp/full' $Q >/dev/full"
manifest "$tmp/full" "assert m['state'] == 'finished' and m['runs'][0]['complete'], m"
one_line 1 "standard output is closed" sh -c "$CMP '$tmp/a' '$tmp/a2' >&-"
if [ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null; then
    mkdir "$tmp/tiny"
    rc=0; unshare -m --propagation private sh -c 'mount -t tmpfs -o size=24k none "$0" && exec "$@"' "$tmp/tiny" \
        sh -c "MPIEXEC='$tmp/emit' $RUN --out '$tmp/tiny/r' --rounds 40 $Q >'$tmp/tiny.log' 2>'$tmp/tiny.err'; echo \$? >'$tmp/tiny.rc'; cp -r '$tmp/tiny/r' '$tmp/tiny-r'" || rc=$?
    [ "$(cat "$tmp/tiny.rc")" = 1 ] && [ "$(wc -l <"$tmp/tiny.err")" -eq 1 ] && grep -q "No space left on device" "$tmp/tiny.err" \
        && ! grep -q Traceback "$tmp/tiny.log" "$tmp/tiny.err" || { cat "$tmp/tiny.log" "$tmp/tiny.err"; fail "umb-run on a full disk"; }
    "$PYTHON3" - "$S" "$tmp/tiny-r" <<'PY' || fail "umb-run on a full disk: the folder is not whole"
import json, os, sys
sys.path.insert(0, sys.argv[1])
from umbench import results
d = sys.argv[2]
m = json.load(open(os.path.join(d, "run.json")))
done = [r for r in m["runs"] if results.finished(r)]
assert 1 <= len(done) < 40, len(done)
for r in done:  # every run listed as finished is whole: the program's end, then umb-run's line
    last = [json.loads(l) for l in open(os.path.join(d, r["file"]))][-2:]
    assert last[0]["type"] == "end" and last[1]["type"] == "run" and last[1]["complete"], (r, last)
sides, _ = results.load(d, results.Problems())
assert len(sides) == 1 and len(sides[0].runs[("umb_latency", "H H")]["rows"][8]) == len(done), sides
PY
fi

# 10. Odd option values and environments: one line each.
one_line 1 "--run-limit inf: expected seconds above 0 and at most 1000000" $RUN --run-limit inf --out "$tmp/x" $Q
one_line 1 "--run-limit nan: expected seconds above 0 and at most 1000000" $RUN --run-limit nan --out "$tmp/x" $Q
one_line 1 "--budget -1: expected seconds above 0 and at most 1000000" $RUN --budget -1 --out "$tmp/x" $Q
one_line 1 "--np x: expected a whole number from 2 to 1000000" $RUN --np x --out "$tmp/x" $Q
one_line 1 "--precision nan%" $RUN --precision nan% --out "$tmp/x" $Q
one_line 1 "--config a:=1: '' is not an environment variable's name" $RUN --config a:=1 --out "$tmp/x" $Q
one_line 1 "cannot be split into words" $RUN --config "a::--x 'y" --out "$tmp/x" $Q
one_line 1 "MPIEXEC \"mpirun 'x\": cannot split it into words" env MPIEXEC="mpirun 'x" $RUN --out "$tmp/x" $Q
one_line 1 "MPIEXEC '/no/such/mpirun': /no/such/mpirun not found" env MPIEXEC=/no/such/mpirun $RUN --out "$tmp/x" $Q
one_line 1 "--min-effect inf%" $CMP "$tmp/a" "$tmp/a2" --min-effect inf%
one_line 1 "--match (: not a regular expression" $CMP "$tmp/a" "$tmp/a2" --match "("
[ ! -e "$tmp/x" ] || fail "a refused command wrote $tmp/x"
exit 0
