#!/bin/sh
# umb-run quick over host buffers, twice, then umb-compare of the two: one
# JSON Lines file per run, a run.json manifest, a side-by-side table with
# ratios; SIGTERM stops a run and keeps what finished; bad input; srun
# inside Slurm and jsrun inside LSF.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
RUN="$PYTHON3 $top_srcdir/scripts/umb-run --bindir $PT2PT:$top_builddir/mpi/collective"
CMP="$PYTHON3 $top_srcdir/scripts/umb-compare"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
# Stand-ins, where what a case asserts is umb-run's own rule (rounds,
# precision, limits, where the time went), not the launch: a program that
# prints a header, a result for sizes 8 and 16 (values a little apart from
# run to run), and its end record, at once; a launcher that takes
# UMB_TEST_DELAY s to start (saying a line of its own first), stalls where
# UMB_TEST_STALL is set, and runs what follows umb-run's "-np N".
mkdir "$tmp/standin"
cat >"$tmp/standin/umb_latency" <<'EOF'
#!/bin/sh
[ "$1" != --check-options ] || exit 0
prog=${0##*/}
echo "{\"type\":\"header\",\"program\":\"$prog\",\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%S+0000)\",\"mpi_library\":\"Stand-in MPI v1\"}"
for size in 8 16; do
    echo "{\"type\":\"result\",\"program\":\"$prog\",\"buffers\":\"H H\",\"size\":$size,\"avg_latency_us\":1.$(date +%N)}"
done
echo "{\"type\":\"end\",\"program\":\"$prog\",\"status\":0}"
EOF
cp "$tmp/standin/umb_latency" "$tmp/standin/umb_bw"
printf '#!/bin/sh\n[ -n "${UMB_TEST_STALL:-}" ] && exec sleep 60\n[ -n "${UMB_TEST_DELAY:-}" ] && echo "a launcher banner"\nsleep "${UMB_TEST_DELAY:-0}"\nwhile [ "$1" != -np ]; do shift; done\nshift 2\nexec "$@"\n' >"$tmp/launch"
chmod +x "$tmp/standin/"* "$tmp/launch"
STAND="$PYTHON3 $top_srcdir/scripts/umb-run --bindir $tmp/standin"

for d in a b; do
    $RUN --set quick --out "$tmp/$d" -- -m 8:256 -i 20 -x 2 >"$tmp/run-$d.log" 2>&1 || { cat "$tmp/run-$d.log"; fail "umb-run $d"; }
    grep -q '^\[1/11 ' "$tmp/run-$d.log" || fail "umb-run: no progress line"
    "$PYTHON3" - "$tmp/$d" <<'PY' || fail "umb-run $d: manifest or results"
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "run.json")))
assert m["set"] == "quick" and m["np"] == 2 and m["mpi_library"] and m["nodes"], m
assert len(m["runs"]) == 11 and all(r["status"] in (0, 77) for r in m["runs"]), m["runs"]
for r in m["runs"]:
    lines = [json.loads(l) for l in open(os.path.join(d, r["file"]))]
    if r["status"] == 0:
        results = [o["size"] for o in lines[1:] if o["type"] == "result"]
        assert lines[0]["type"] == "header" and results == [8, 16, 32, 64, 128, 256], r
        # Managed buffers add a placement row per rank and size after the results,
        # a precision run its closing record, then the findings and the
        # program's "end"; umb-run's own "run" line comes last.
        assert all(o["type"] in ("result", "rank_placement", "precision", "finding") for o in lines[1:-2]), r
        # A pair of a launch of several (run.json's "launch") has its end record name it.
        end = dict(lines[-2], buffers=r["buffers"]) if "launch" in r else lines[-2]
        assert end == dict({"type": "end", "program": r["program"], "status": 0}, **({"buffers": r["buffers"]} if "launch" in r else {})) and r["complete"], (lines[-2], r)
        # umb-run leaves hwloc's OpenCL plugin out of its launches, and the header says so (docs/decisions.md)
        want = ["HWLOC_COMPONENTS=" + os.environ.get("HWLOC_COMPONENTS", "-opencl")]
        if lines[0]["mpi_library"].startswith("Open MPI"):  # and mpirun without its wait after a skip
            want.append("OMPI_MCA_odls_base_sigkill_timeout=" + os.environ.get("OMPI_MCA_odls_base_sigkill_timeout", "0"))
        assert set(want) <= set(lines[0]["mpi_env"].split()), (want, lines[0]["mpi_env"])
    else:
        # Skipped alone: no output; in a launch of several: its end record, with the reason.
        said = [{"type": "end", "program": r["program"], "buffers": r["buffers"], "skipped": r["skipped"], "status": 77}]
        assert r["skipped"] and lines[:-1] == (said if "launch" in r else []) and not r["complete"], r
    assert lines[-1] == {"type": "run", "round": 1, "config": "default", "env": {}, "launcher_flags": [],
                         "status": r["status"], "complete": r["status"] == 0}, lines[-1]
    assert r["round"] == 1 and r["config"] == "default" and r["file"].count(".") == 1, r
ok = {(r["program"], r["buffers"]) for r in m["runs"] if r["status"] == 0}
assert {("umb_latency", "H H"), ("umb_bw", "H H"), ("umb_bcast", "H")} <= ok, ok
PY
done

$CMP "$tmp/a" "$tmp/b" >"$tmp/cmp" || { cat "$tmp/cmp"; fail "umb-compare"; }
grep -q '^## umb_latency H H: avg latency, us' "$tmp/cmp" || fail "umb-compare: no latency table"
grep -q '^## umb_bw H H: bandwidth, MB/s' "$tmp/cmp" || fail "umb-compare: no bandwidth table"
grep -q '^size  *side  *\[0\] median  *\[i\] median  *ratio  *95% interval  *\[0\] sprd  *\[i\] sprd  *verdict$' "$tmp/cmp" \
    || { cat "$tmp/cmp"; fail "umb-compare: columns"; }
# One round each: every row says no verdict is possible; its ratio is the
# second median over the first (rounded to 0.01, so allow for that).
awk '/^[0-9]/ { n++; if ($0 !~ /no verdict \(1 round: nothing to tell noise from\)$/ || $7 != "-") bad = 1
                r = $4 / $3; e = 0.006 * (r / $3 + r / $4) + 0.002; if (r - $5 > e || $5 - r > e) bad = 1 }
     END { exit !(n >= 18 && !bad) }' "$tmp/cmp" \
    || { cat "$tmp/cmp"; fail "umb-compare: ratios or verdicts"; }
grep -q '^# \[1\] against \[0\]: faster at 0 sizes, slower at 0, the same within the noise at 0, no verdict at [0-9]*$' "$tmp/cmp" \
    || { cat "$tmp/cmp"; fail "umb-compare: summary"; }

# Rounds and configurations: interleaved, the order turned each round, each
# run's round and configuration in its file and in run.json; a value may hold
# commas; launcher flags after ":-". Over the stand-ins: the order and
# the records are umb-run's.
MPIEXEC="$tmp/launch" $STAND --match '^umb_latency H H$' --rounds 2 --config x:OMPI_MCA_btl_vader_eager_limit=8192,UMB_T=a,b --config "y::--bind-to none" \
    --out "$tmp/r" -- -m 8:8 -i 10 >"$tmp/run-r.log" 2>&1 || { cat "$tmp/run-r.log"; fail "umb-run --rounds 2 --config"; }
grep -q '^\[6/6 .*umb_latency H H  (round 2, default)$' "$tmp/run-r.log" || { cat "$tmp/run-r.log"; fail "umb-run --rounds: progress"; }
"$PYTHON3" - "$tmp/r" <<'PY' || fail "umb-run --rounds 2 --config: manifest"
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "run.json")))
assert [(r["round"], r["config"]) for r in m["runs"]] == [(1, "default"), (1, "x"), (1, "y"), (2, "x"), (2, "y"), (2, "default")], m["runs"]
assert m["configs"][1] == {"name": "x", "env": {"OMPI_MCA_btl_vader_eager_limit": "8192", "UMB_T": "a,b"}, "launcher_flags": [],
                          "mpi_library": m["mpi_library"]} and m["mpi_library"], m["configs"]
assert m["configs"][2]["launcher_flags"] == ["--bind-to", "none"] and m["rounds"] == 2 and m["rounds_done"] == 2, m
for r in m["runs"]:
    assert r["status"] == 0 and r["file"] == "umb_latency-H-H.%s.r%d.jsonl" % (r["config"], r["round"]), r
    # The configuration's flags come right after the launcher, before its own.
    assert (r["command"][1:3] == ["--bind-to", "none"]) == (r["config"] == "y"), r["command"]
    last = json.loads(open(os.path.join(d, r["file"])).read().splitlines()[-1])
    assert last["type"] == "run" and (last["round"], last["config"]) == (r["round"], r["config"]), last
PY
$CMP "$tmp/r" >"$tmp/cmp" && grep -q '^# \[2\] r/y: ' "$tmp/cmp" && grep -q 'no verdict (2 rounds; a 95% interval needs 6)$' "$tmp/cmp" \
    || { cat "$tmp/cmp"; fail "umb-compare of one folder's configurations"; }

# --precision: umb-run stops after the first round whose values put every
# size within +-50% (never before round 6, the first with a 95% interval),
# or reports the sizes that are not after the last round. The test
# recomputes the rule from the result files and checks that umb-run acted
# on it; +-0.001% is never reached. The stand-ins' values lie within 10% of
# each other: the rule, not the launch, is what is checked here.
MPIEXEC="$tmp/launch" $STAND --match '^umb_latency H H$' --precision 50% --rounds 12 --out "$tmp/p" -- -m 8:16 -i 10 >"$tmp/run-p.log" 2>&1 \
    || { cat "$tmp/run-p.log"; fail "umb-run --precision 50%"; }
"$PYTHON3" - "$tmp/p" "$tmp/run-p.log" <<'PY' || { cat "$tmp/run-p.log"; fail "umb-run --precision 50%: stopped at the wrong round"; }
import json, math, os, statistics, sys
d, log = sys.argv[1], open(sys.argv[2]).read()
m = json.load(open(os.path.join(d, "run.json")))
def rank(n):  # binomial order statistics: the interval [x_k, x_(n+1-k)] covers the median at >= 95%
    k, cdf = 0, 0.0
    for j in range(n // 2 + 1):
        cdf += math.comb(n, j) / 2 ** n
        if cdf > 0.025:
            break
        k = j + 1
    return k
by_size = {}
first = None
for rnd in range(1, m["rounds_done"] + 1):
    for r in m["runs"]:
        if r["round"] == rnd:
            for l in open(os.path.join(d, r["file"])):
                o = json.loads(l)
                if o["type"] == "result":
                    by_size.setdefault(o["size"], []).append(o["avg_latency_us"])
    def ok(v):
        s, k = sorted(v), rank(len(v))
        return k > 0 and (s[-k] - s[k - 1]) / 2 <= 0.5 * statistics.median(v)
    if first is None and by_size and all(ok(v) for v in by_size.values()):
        first = rnd
assert sorted(by_size) == [8, 16], by_size
if first is not None:
    assert first >= 6 and m["rounds_done"] == first and m["precision"]["converged"], (first, m["precision"])
    assert "umb-run: precision +-50%% reached at every size after %d rounds\n" % first in log
else:
    assert m["rounds_done"] == 12 and not m["precision"]["converged"], m["precision"]
    assert "umb-run: precision +-50% not reached after 12 rounds" in log
PY
MPIEXEC="$tmp/launch" $STAND --match '^umb_latency H H$' --precision 0.001% --rounds 6 --out "$tmp/q" -- -m 8:16 -i 10 >"$tmp/run-q.log" 2>&1 \
    || { cat "$tmp/run-q.log"; fail "umb-run --precision 0.001%"; }
grep -q '^umb-run: precision +-0.001% not reached after 6 rounds at 2 sizes' "$tmp/run-q.log" && grep -q '^    umb_latency H H default 16 B: +-' "$tmp/run-q.log" \
    || { cat "$tmp/run-q.log"; fail "umb-run --precision 0.001%: not-converged sizes"; }
"$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); p=m['precision']; assert not p['converged'] and len(p['not_converged']) == 2 and m['rounds_done'] == 6, p" \
    "$tmp/q/run.json" || fail "umb-run --precision: manifest"
MPIEXEC="$tmp/launch" $STAND --match '^umb_latency H H$' --rounds 5 --budget 0.01 --out "$tmp/bud" -- -m 8:8 -i 10 >"$tmp/run-b.log" 2>&1 || { cat "$tmp/run-b.log"; fail "umb-run --budget"; }
grep -q '^umb-run: --budget 0.01 s spent after round 1$' "$tmp/run-b.log" && grep -q ': 1 runs, 0 skipped' "$tmp/run-b.log" \
    || { cat "$tmp/run-b.log"; fail "umb-run --budget: more than one round"; }

# --run-limit stops a run that takes longer and keeps it as status 124
# (umb-run then ends with 1, as for any failed run). Below 30 s: a hundred
# million warm-up iterations (-x's most) never end within it, loaded or not.
start=$(date +%s)
rc=0; $RUN --match '^umb_latency H H$' --run-limit 1 --out "$tmp/lim" -- -m 1:1 -x 100000000 -i 1 >"$tmp/run-l.log" 2>&1 || rc=$?
[ $rc -eq 1 ] && [ $(( $(date +%s) - start )) -le 30 ] && grep -q '^    STOPPED: stopped after 1 s (--run-limit); it ended after [0-9.]* s$' "$tmp/run-l.log" \
    && "$PYTHON3" -c "import json,sys; r=json.load(open(sys.argv[1]))['runs']; assert len(r)==1 and r[0]['status']==124, r" "$tmp/lim/run.json" \
    || { cat "$tmp/run-l.log"; fail "umb-run --run-limit: not stopped, or not kept as 124"; }

# A configuration whose run was stopped is not run again in later rounds;
# the others go on. The stand-in launcher stalls only that configuration;
# the others run the stand-in program, which ends at once: a limit of 2 s
# (where a real program runs, a test's limit is 30 s or more: docs/hardening.md).
rc=0; MPIEXEC="$tmp/launch" $STAND --match '^umb_latency H H$' --rounds 3 --run-limit 2 --config stall:UMB_TEST_STALL=1 \
    --out "$tmp/drop" -- -m 8:8 -i 10 >"$tmp/run-d.log" 2>&1 || rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^    umb_[a-z_]* [HDM ]*[HDM] ([a-z]*): not run again in later rounds$' "$tmp/run-d.log")" = 1 ] && "$PYTHON3" - "$tmp/drop/run.json" <<'PY' \
    || { cat "$tmp/run-d.log"; fail "umb-run --run-limit with rounds: the stopped configuration ran again, or the others stopped"; }
import json, sys
m = json.load(open(sys.argv[1]))
runs = [(r["config"], r["round"], r["status"]) for r in m["runs"]]
assert runs == [("default", 1, 0), ("stall", 1, 124), ("default", 2, 0), ("default", 3, 0)], runs
assert m["dropped"] == [{"program": "umb_latency", "buffers": "H H", "config": "stall", "round": 1, "why": "run-limit"}], m["dropped"]
assert all(isinstance(r["elapsed_s"], float) for r in m["runs"]) and m["runs"][1]["elapsed_s"] >= 2, m["runs"]
PY

# Where the time went: a launcher that takes 1 s to start shows as start-up,
# also where it prints a line of its own first;
# each run's parts add up to its wall time; the end says so in one line.
UMB_TEST_DELAY=1 MPIEXEC="$tmp/launch" $STAND --match '^umb_(latency|bw) H H$' --out "$tmp/time" -- -m 8:8 -i 10 >"$tmp/run-t.log" 2>&1 \
    || { cat "$tmp/run-t.log"; fail "umb-run with a slow launcher"; }
grep -q '^# Where the time went ([0-9.]* s): 2 runs: start-up [0-9.]* s (launcher, MPI_Init, GPU context: to each run.s first line), measuring [0-9.]* s\( (of it: the precision loop.s attempts after each size.s first [0-9.]* s)\)\{0,1\}, after the last line [0-9.]* s; 0 pairs that could not run here: 0.0 s (0 not started); umb-run itself [0-9.]* s$' "$tmp/run-t.log" \
    && grep -q '^# By program: umb_\(latency\|bw\) [0-9.]* s (1), umb_\(latency\|bw\) [0-9.]* s (1)$' "$tmp/run-t.log" \
    && grep -q '^# Longest runs: umb_' "$tmp/run-t.log" || { cat "$tmp/run-t.log"; fail "umb-run: no line saying where the time went"; }
"$PYTHON3" - "$tmp/time/run.json" <<'PY' || { cat "$tmp/run-t.log"; fail "umb-run: run.json's times"; }
import json, sys
m = json.load(open(sys.argv[1]))
for r in m["runs"]:
    t = r["times_s"]
    assert t["start"] >= 1.0 and t["measure"] >= 0 and t["end"] >= 0, r
    assert abs(t["start"] + t["measure"] + t["end"] - r["elapsed_s"]) <= 0.4, r
s = m["time_s"]
assert s["start"] >= 2.0 and s["cannot_run_runs"] == 0 and "placing" not in s, s
assert abs(s["start"] + s["measure"] + s["end"] + s["umb_run"] - m["elapsed_s"]) <= 0.6, s
PY

# With --precision, the attempts after each size's first are named apart.
# A first attempt of 5 (-i) and 2 s for the one size: a second attempt fits even where
# the ranks are starved for CPU (MPICH's polling ranks took 21 s for 30
# iterations on a loaded 2-core machine, and 0.2 s held no second attempt).
$RUN --match '^umb_latency H H$' --out "$tmp/prec" -- -m 8:8 -i 5 -x 1 --precision 0.001% --size-budget 2 >"$tmp/run-p.log" 2>&1 \
    && grep -q "^# Where the time went .*, measuring [0-9.]* s (of it: the precision loop's attempts after each size's first [0-9.]* s)" "$tmp/run-p.log" \
    && "$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); t=m['time_s']; assert 0 < t['again'] <= t['measure'] + 0.2, t" "$tmp/prec/run.json" \
    || { cat "$tmp/run-p.log"; fail "umb-run --precision: the precision loop's time not named"; }

# --within shares the set's time out (docs/method.md, "The set's time shared
# out"): --set full has 300 s and runs every pair to +-5%, each launch gets
# its share as --launch-budget; --within off leaves the programs' own budgets.
# What is checked is the command umb-run gives, not the launch: the
# stand-ins run it.
cp "$tmp/standin/umb_latency" "$tmp/standin/umb_bcast"
for w in default off 40; do
    set -- ; [ $w = default ] || set -- --within $w
    MPIEXEC="$tmp/launch" $STAND --set full "$@" --match '^umb_(latency H H|bcast H)$' --out "$tmp/within-$w" -- -m 8:16 >"$tmp/run-w.log" 2>&1 \
        && "$PYTHON3" - "$tmp/within-$w/run.json" $w <<'PY' || { cat "$tmp/run-w.log"; fail "umb-run --set full --within $w"; }
import json, sys
m, w = json.load(open(sys.argv[1])), sys.argv[2]
want = {"default": 300, "off": None}[w] if w in ("default", "off") else float(w)
assert m["within_s"] == want and len(m["runs"]) == 2, m
for r in m["runs"]:
    c = r["command"]
    assert r["status"] == 0 and "--precision" in c and c[c.index("--precision") + 1] == "5%", r
    if want is None:
        assert "--launch-budget" not in c, c
    else:  # a share of what is left after a tenth (and a launch's start-up for each launch to come)
        assert 0 < float(c[c.index("--launch-budget") + 1]) <= want * 0.9, c
PY
done
# What would undo --within is refused in one line (adversarial pass 9): a
# value past the programs' --launch-budget, the user's own --launch-budget
# (any prefix getopt takes), and, in the program's own words (its
# --check-options over the marked runs), OMB's fixed counts.
for words in "--within 1e7|--within 1e7: expected seconds from 0.01 to 1000000, or off" \
        "--within 0|or off" "-- --launch-b 2|-- --launch-b: umb-run gives each launch its share" \
        "-- --launch-budget=2|its share of --within" "-- --precision off|it needs --precision P% (without it, or with off" \
        "-- --prec off|--prec off; give --within off to run their counts as they are" "-- --precision=off|--precision=off; give --within off" \
        "--within 0.001|--within 0.001: expected seconds from 0.01" "--match ^umb_latency -- -i 3000000|-i fixes a count that takes what it takes" \
        "--set quick --within 20|umb_latency: --launch-budget 20 shares the launch's time out over its precision loops (umb-run --within gives it); -i fixes"; do
    rc=0
    # shellcheck disable=SC2086 # the words, split on purpose
    # the whole build: the programs' own verdict needs every program of the set
    $PYTHON3 "$top_srcdir/scripts/umb-run" --bindir "$top_builddir" --set full --out "$tmp/refused" ${words%%|*} >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/o")" -eq 1 ] && grep -qF -- "${words#*|}" "$tmp/o" && [ ! -e "$tmp/refused" ] \
        || { cat "$tmp/o"; fail "umb-run --set full ${words%%|*}: exit $rc"; }
done
# --run-limit caps a launch's share (half the limit a pair), so its sizes end before it.
MPIEXEC="$tmp/launch" $STAND --set full --run-limit 30 --match '^umb_latency H H$' --out "$tmp/within-limit" -- -m 8:16 >"$tmp/o" 2>&1 \
    && "$PYTHON3" -c "import json,sys; c=json.load(open(sys.argv[1]))['runs'][0]['command']; assert float(c[c.index('--launch-budget') + 1]) <= 15, c" "$tmp/within-limit/run.json" \
    || { cat "$tmp/o"; fail "umb-run --run-limit 30: the launch's share is not capped"; }
# A size without a figure (not measured) is waited for by --precision's
# rounds, never passed over as reached (adversarial pass 9).
"$PYTHON3" - "$top_srcdir/scripts" "$tmp/nulls" <<'PY' || fail "umb-run --precision: a size without a figure counted as reached"
import json, os, sys
sys.path.insert(0, sys.argv[1])
from umbench import rounds
os.makedirs(sys.argv[2])
runs = []
for k in range(1, 7):
    name = "r%d.jsonl" % k
    with open(os.path.join(sys.argv[2], name), "w") as f:
        for size, v in ((8, 1.0), (16, None)):
            f.write(json.dumps({"type": "result", "program": "umb_latency", "buffers": "H H", "size": size, "avg_latency_us": v}) + "\n")
        f.write(json.dumps({"type": "run", "round": k, "config": "default", "status": 0}) + "\n")
    runs.append({"program": "umb_latency", "buffers": "H H", "config": "default", "round": k, "file": name, "status": 0, "complete": True})
state = rounds.precision_state(sys.argv[2], runs, 0.5)
assert not state["converged"] and [x["size"] for x in state["not_converged"]] == [16], state
PY
rc=0; $CMP "$tmp/a" >"$tmp/o" 2>&1 || rc=$?
[ $rc -ne 0 ] && grep -q "two or more results folders" "$tmp/o" || fail "umb-compare with one folder"
rc=0; $RUN --np 1 >"$tmp/o" 2>&1 || rc=$?
[ $rc -ne 0 ] && grep -q -- "--np 1" "$tmp/o" || fail "umb-run --np 1"
# A stray word before "--" is refused in one line (exit 1), not passed on
# to every program; a set name given bare gets a hint.
for args in "quick --out $tmp/stray" "--out $tmp/stray -f" "--set nope" "--config default --out $tmp/stray" "--config a:b --out $tmp/stray" \
        "--precision 0% --out $tmp/stray" "--run-limit 0 --out $tmp/stray" "--rounds 0 --out $tmp/stray" "--match ^nothing --out $tmp/stray" "--config x --config x --out $tmp/stray"; do
    rc=0; $RUN $args >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/o")" -eq 1 ] && grep -q '^umb-run: ' "$tmp/o" || { cat "$tmp/o"; fail "umb-run $args: exit $rc"; }
done
grep -q "unknown argument 'quick' (did you mean --set quick?)" "$tmp/o" || $RUN quick 2>&1 | grep -q "did you mean --set quick" \
    || fail "umb-run quick: no hint"
[ ! -e "$tmp/stray" ] || fail "umb-run with a stray word wrote results"

# SIGTERM (what a batch system sends at its limit) keeps the finished runs.
$RUN --set quick --out "$tmp/c" -- -m 8:8 -i 20 >"$tmp/run-c.log" 2>&1 &
pid=$!
# The third run started (without a GPU, the pairs that need one after the
# first are not started and have no progress line).
i=0; until n=$(grep -c '^\[' "$tmp/run-c.log" 2>/dev/null); [ "${n:-0}" -ge 3 ]; do i=$((i + 1)); [ $i -lt 600 ] || break; sleep 0.05; done
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 130 ] || { cat "$tmp/run-c.log"; fail "umb-run after SIGTERM: exit $rc, expected 130"; }
"$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['interrupted'] and 2 <= len(m['runs']) < 11, m" "$tmp/c/run.json" \
    || fail "umb-run after SIGTERM: manifest"
# Without a GPU, the first pair that needs one says so (exit 77) and the
# others of its configuration are kept as skipped without starting: each
# start costs about a second (issue 41), so 30 of them would take 30 s or
# more. run.json lists every pair with the reason.
if ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
    echo "a GPU here: the no-GPU skip is not tried"
else
    # One launch per pair: 1 of the 30 starts. One per program (the
    # default): umb_latency's 15 skip within its launch, umb_bw's do not start.
    # OMB's fixed counts: the H H pairs' precision loop (3 s a size) is not
    # what is timed here, and on a loaded machine umb_bw's took 16 s.
    for per in pair program; do
        case $per in pair) lines=3 started=1 ;; program) lines=17 started=15 ;; esac
        start=$(date +%s)
        $RUN --set full --within off --launch-per $per --match '^umb_(latency|bw) ' --out "$tmp/nogpu-$per" -- -m 8:8 -i 10 -x 1 --precision off >"$tmp/run-g.log" 2>&1 \
            || { cat "$tmp/run-g.log"; fail "umb-run --set full --launch-per $per without a GPU"; }
        took=$(( $(date +%s) - start ))
        [ $took -le 15 ] && [ "$(grep -c '^umb-run: no GPU for the ranks: every later pair that needs one is skipped without starting it$' "$tmp/run-g.log")" = 1 ] \
            && [ "$(grep -c '^\[' "$tmp/run-g.log")" = $lines ] || { cat "$tmp/run-g.log"; fail "umb-run --set full --launch-per $per without a GPU: $took s, or not one reason line"; }
        "$PYTHON3" - "$tmp/nogpu-$per/run.json" $started <<'PY' || fail "umb-run --set full --launch-per $per without a GPU: run.json"
import json, sys
runs, started = json.load(open(sys.argv[1]))["runs"], int(sys.argv[2])
gpu = [r for r in runs if r["buffers"] != "H H"]
assert len(runs) == 32 and len(gpu) == 30 and all(r["status"] == 77 and "need a CUDA GPU" in r["skipped"] for r in gpu), runs
assert [r.get("not_started", False) for r in gpu] == [False] * started + [True] * (30 - started), gpu
assert all(r["skipped"] == gpu[0]["skipped"] for r in gpu[started:]), gpu  # each started one names its own pair
t = json.load(open(sys.argv[1]))["time_s"]
assert t["cannot_run_runs"] == 30 and t["not_started"] == 30 - started, t
assert abs(t["cannot_run"] - sum(r["elapsed_s"] for r in gpu[:started])) < 0.05 + 0.05 * started, t
PY
        grep -q "^# Where the time went ([0-9.]* s): 2 runs: .*; 30 pairs that could not run here: [0-9.]* s ($((30 - started)) not started); " "$tmp/run-g.log" \
            || { cat "$tmp/run-g.log"; fail "umb-run --set full --launch-per $per without a GPU: the time of the pairs that could not run"; }
    done
    # With --within, a pair never started was given no share: its record's
    # command has no --launch-budget (pass 10), the one started has its own.
    $RUN --set full --within 30 --launch-per pair --match '^umb_latency (H D|MD MD)$' --out "$tmp/nogpu-within" >"$tmp/run-g.log" 2>&1 \
        || { cat "$tmp/run-g.log"; fail "umb-run --set full --within 30 without a GPU"; }
    "$PYTHON3" - "$tmp/nogpu-within/run.json" <<'PY' || fail "umb-run --within without a GPU: the command of a pair never started"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [(r["buffers"], r.get("not_started", False), "--launch-budget" in r["command"]) for r in runs] \
    == [("H D", False, True), ("MD MD", True, False)], runs
PY
fi

# A library that is not CUDA-aware: the first pair with D says so (exit 77)
# and every later pair with D of that configuration is kept as skipped
# without starting. Stand-ins refuse D as the programs do, and otherwise
# run the stand-in program under their name: which pairs umb-run starts is
# what is checked, not the launch.
mkdir "$tmp/fake"
# stand_in PROGRAM WORD WHY: $tmp/fake/NAME, which refuses with "NAME: WHY"
# (exit 77) where WORD is one of its arguments, and otherwise runs
# $tmp/standin/NAME (PROGRAM is DIR/NAME under the build).
stand_in() {
    cp "$tmp/standin/umb_latency" "$tmp/standin/${1##*/}" 2>/dev/null || :
    printf '#!/bin/sh\ncase " $* " in *" %s "*) echo "%s: %s" >&2; exit 77 ;; esac\nexec "%s" "$@"\n' \
        "$2" "${1##*/}" "$3" "$tmp/standin/${1##*/}" >"$tmp/fake/${1##*/}"
    chmod +x "$tmp/fake/${1##*/}"
}
# selection: a point-to-point program and a collective, each made to skip its D pair
for p in mpi/pt2pt/umb_latency mpi/collective/umb_bcast; do
    stand_in "$p" D "buffer D needs a CUDA-aware MPI, but Open MPI v0 is not: stand-in; use MD or MH"
done
# standing NAME MATCH SAID STARTED: umb-run --set full over the stand-ins,
# the pairs MATCH finds, into $tmp/NAME (log $tmp/run-NAME.log): SAID is
# said once, and only the pairs STARTED ("program pair;" each) start.
# (A stand-in runs one pair per launch: --launch-per pair.)
standing() {
    MPIEXEC="$tmp/launch" $PYTHON3 "$top_srcdir/scripts/umb-run" --bindir "$tmp/fake" --set full --within off --launch-per pair \
        --match "$2" --out "$tmp/$1" \
        -- -m 8:8 -i 10 -x 1 >"$tmp/run-$1.log" 2>&1 || { cat "$tmp/run-$1.log"; fail "umb-run --set full over the stand-ins ($1)"; }
    [ "$(grep -cxF "umb-run: $3" "$tmp/run-$1.log")" = 1 ] \
        && [ "$(grep '^\[' "$tmp/run-$1.log" | awk '{ printf "%s %s %s;", $3, $4, $5 }')" = "$4" ] \
        || { cat "$tmp/run-$1.log"; fail "umb-run: pairs started after a skip that stands for them ($1)"; }
}
standing aware '^umb_(latency|bcast) (H|D)( H| D)?$' \
    "the MPI library is not CUDA-aware: every later pair with D is skipped without starting it" \
    "umb_latency H H;umb_latency H D;umb_bcast H ;"
"$PYTHON3" - "$tmp/aware/run.json" <<'PY' || { cat "$tmp/run-aware.log"; fail "umb-run: run.json of the pairs with D"; }
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
got = [(r["program"], r["buffers"], r["status"], r.get("not_started", False)) for r in runs]
assert got == [("umb_latency", "H H", 0, False), ("umb_latency", "H D", 77, False), ("umb_latency", "D H", 77, True),
               ("umb_latency", "D D", 77, True), ("umb_bcast", "H", 0, False), ("umb_bcast", "D", 77, True)], got
assert all("needs a CUDA-aware MPI, but Open MPI v0 is not" in r["skipped"] for r in runs if r["status"] == 77), runs
PY

# A library that makes no window over a kind of memory: the first one-sided
# pair whose window (rank 1's buffer) is of that kind says so, and every later
# one-sided pair with such a window, of any one-sided program, is kept as
# skipped without starting; other windows still run. Stand-ins refuse an MH
# window as rma.c does (the stand-ins need no window over H from this MPI).
for p in $(programs_of rma); do
    stand_in "$p" MH "rank 0 on x: this MPI cannot make a window (MPI_Win_create: stand-in); Open MPI: try --mca osc ucx"
done
standing window '^umb_(put|get)_latency H (H|MH)$' \
    "the MPI library makes no window over MH memory: every later one-sided pair whose window is MH is skipped without starting it" \
    "umb_put_latency H H;umb_put_latency H MH;umb_get_latency H H;"
"$PYTHON3" - "$tmp/window/run.json" <<'PY' || { cat "$tmp/run-window.log"; fail "umb-run: run.json of the one-sided pairs"; }
import json, sys
got = [(r["program"], r["buffers"], r["status"], r.get("not_started", False)) for r in json.load(open(sys.argv[1]))["runs"]]
assert got == [("umb_put_latency", "H H", 0, False), ("umb_put_latency", "H MH", 77, False),
               ("umb_get_latency", "H H", 0, False), ("umb_get_latency", "H MH", 77, True)], got
PY

# The launcher is found from the batch system: srun inside Slurm, jsrun
# inside LSF, each with its rank-count flags. Fake ones on PATH log their
# arguments and run the stand-in program, outside the "job".
mkdir "$tmp/bin"
cp "$tmp/standin/umb_latency" "$tmp/standin/umb_mbw_mr"
for l in srun jsrun; do
    cat >"$tmp/bin/$l" <<EOF
#!/bin/sh
echo "$l \$*" >>"$tmp/launch.log"
[ "\$1" = -n ] || exit 9
shift 2
[ $l = srun ] || shift 6
unset SLURM_JOB_ID LSB_JOBID
exec "\$@"
EOF
    chmod +x "$tmp/bin/$l"
    job=SLURM_JOB_ID=42; [ $l = srun ] || job=LSB_JOBID=42
    env -u MPIEXEC "$job" PATH="$tmp/bin:$PATH" $STAND --set quick --match '^umb_latency H H$' --out "$tmp/$l" -- -m 8:8 -i 10 -x 1 >"$tmp/run-$l.log" 2>&1 \
        || { cat "$tmp/run-$l.log" "$tmp/launch.log"; fail "umb-run under a fake $l"; }
    "$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['launcher'] == sys.argv[2] and any(r['status'] == 0 for r in m['runs']), m" \
        "$tmp/$l/run.json" $l || fail "umb-run under $l: manifest"
done
grep -q '^srun -n 2 .*/umb_latency' "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "umb-run did not launch with srun -n 2"; }
grep -q '^jsrun -n 2 -a 1 -g 1 -c 1 .*/umb_latency' "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "umb-run did not launch with jsrun -n 2 -a 1 -g 1 -c 1"; }
# --np N (a layout of one rank per GPU): the collectives get N, the two-rank
# programs 2, those of pairs the largest even count (programs.txt's ranks).
: >"$tmp/launch.log"
env -u MPIEXEC SLURM_JOB_ID=42 PATH="$tmp/bin:$PATH" $STAND --set full --within off --np 3 --match '^umb_(latency|mbw_mr|bcast) H( H)?$' \
    --out "$tmp/np3" -- -m 8:8 -i 10 -x 1 >"$tmp/np3.log" 2>&1 || { cat "$tmp/np3.log" "$tmp/launch.log"; fail "umb-run --np 3"; }
grep -q '^srun -n 2 .*/umb_latency ' "$tmp/launch.log" && grep -q '^srun -n 2 .*/umb_mbw_mr ' "$tmp/launch.log" \
    && grep -q '^srun -n 3 .*/umb_bcast ' "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "umb-run --np 3: the rank counts"; }
exit 0
