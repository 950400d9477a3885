#!/bin/sh
# umb-run's launches of several pairs (docs/decisions.md, "One launch for
# many pairs"): one launch for a program's pairs, one file (the program's
# --pair-files) and record per pair as a launch of its own gives, the
# launch's time shared out; a launch cut short keeps the pairs it ended,
# fails the one in progress and launches the rest again; --launch-per pair
# launches each alone; a buffer kind after -- is refused, options for one
# pair per launch get it.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
RUN="$PYTHON3 $top_srcdir/scripts/umb-run --bindir $PT2PT --set quick --match ^umb_latency"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"

# check DIR LAUNCHES STATUSES: run.json of DIR lists the quick set's four
# umb_latency pairs with STATUSES ("0 77 ..." in the set's order; "x": 0 or
# 77, as a GPU is here or not), from LAUNCHES ("4:1 4:2 ...": pairs in the
# launch and the pair's place; "-": a launch of its own).
check() {
    "$PYTHON3" - "$@" <<'PY' || { cat "$1.log"; fail "umb-run $1: $2 / $3"; }
import json, os, sys
d, launches, statuses = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
m = json.load(open(os.path.join(d, "run.json")))
runs = m["runs"]
assert [r["buffers"] for r in runs] == ["H H", "MH MH", "MD MD", "MD MH"], runs
got = ["%d:%d" % (r["launch"]["pairs"], r["launch"]["index"]) if "launch" in r else "-" for r in runs]
assert got == launches, (got, launches)
for r, want in zip(runs, statuses):
    assert r["status"] == int(want) if want != "x" else r["status"] in (0, 77), (r, want)
    lines = [json.loads(l) for l in open(os.path.join(d, r["file"]))]
    assert lines[-1]["type"] == "run" and lines[-1]["status"] == r["status"], lines[-1]
    if r["status"] == 0:  # a whole run of its own: header first, its end record before umb-run's line
        assert r["complete"] and lines[0]["type"] == "header" and lines[0]["buffers"] == r["buffers"], r
        assert lines[-2]["type"] == "end" and lines[-2]["status"] == 0, lines[-2]
        assert all(o.get("buffers", r["buffers"]) == r["buffers"] for o in lines[:-1]), r
    assert abs(sum(v for k, v in r.get("times_s", {}).items() if k in ("start", "measure", "end", "unsplit")) - r["elapsed_s"]) < 0.25, r
assert m["launch_per"] == ("program" if launches != ["-"] * 4 or "-each" not in d else "pair"), m["launch_per"]
PY
}

$RUN --out "$tmp/one" -- -m 8:64 -i 20 -x 2 >"$tmp/one.log" 2>&1 || { cat "$tmp/one.log"; fail "umb-run, one launch"; }
check "$tmp/one" "4:1 4:2 4:3 4:4" "0 x x x"
# Each pair's progress line as it ends, numbered in the set.
[ "$(grep -c '^\[[1-4]/4 ' "$tmp/one.log")" = 4 ] || { cat "$tmp/one.log"; fail "umb-run: a progress line per pair"; }

$RUN --launch-per pair --out "$tmp/one-each" -- -m 8:64 -i 20 -x 2 >"$tmp/one-each.log" 2>&1 || { cat "$tmp/one-each.log"; fail "umb-run --launch-per pair"; }
if [ "$(gpu_count)" -eq 0 ]; then  # the first skip stands for the others: not started
    check "$tmp/one-each" "- - - -" "0 77 77 77"
else
    check "$tmp/one-each" "- - - -" "0 0 0 0"
fi

# held: what a launcher below begins with: the launch's pair files
# (--pair-files PREFIX) go to a folder of its own ($held), and are handed
# over (to $prefix) only as it ends; rc: the launch's status.
held='held=$(mktemp -d)/p. prefix= last=
for a; do
    shift
    if [ "$last" = --pair-files ]; then prefix=$a a=$held; fi
    set -- "$@" "$a"
    last=$a
done
'"$MPIEXEC"' "$@"; rc=$?'
# An end record that names another pair (adversarial pass 8): that pair
# fails with why, its own lines kept; the launch is read no further, and
# the pairs after it are launched again.
cat >"$tmp/wrongend" <<EOS
#!/bin/sh
$held
for f in "\$held"*; do sed '0,/"type":"end"/s/"buffers":"H H"/"buffers":"X X"/' "\$f" >"\$prefix\${f#\$held}"; done
exit \$rc
EOS
chmod +x "$tmp/wrongend"
MPIEXEC="$tmp/wrongend" $RUN --out "$tmp/wrong" -- -m 8:64 -i 20 -x 2 >"$tmp/wrong.log" 2>&1
check "$tmp/wrong" "4:1 3:1 3:2 3:3" "1 x x x"
grep -q '^    umb_latency H H: FAILED (exit 1): its end record names the pair "X X": the launch.s output is not read further$' "$tmp/wrong.log" \
    || { cat "$tmp/wrong.log"; fail "umb-run: an end record naming another pair"; }
# ... and each pair's progress line comes once: not for the pairs heard
# after the wrong record, which are launched again (pass 8).
[ "$(grep -c '^\[' "$tmp/wrong.log")" = 4 ] && [ "$(grep '^\[' "$tmp/wrong.log" | cut -c2-4 | sort -u | wc -l)" = 4 ] \
    || { cat "$tmp/wrong.log"; fail "umb-run: a progress line said twice after a launch cut"; }

# A launcher that hands over the first pair's file alone, then fails: that
# pair is kept, the next fails with the launch's word, and the two after
# it are launched again (and cut the same way).
cat >"$tmp/cutter" <<EOS
#!/bin/sh
$held
for f in "\$held"1-*; do cp "\$f" "\$prefix\${f#\$held}"; done
echo "cutter: the launch was cut after its first pair" >&2
exit 1
EOS
chmod +x "$tmp/cutter"
rc=0; MPIEXEC="$tmp/cutter" $RUN --out "$tmp/cut" -- -m 8:64 -i 20 -x 2 >"$tmp/cut.log" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$tmp/cut.log"; fail "umb-run, a launch cut short: exit $rc, not 1 (runs failed)"; }
check "$tmp/cut" "4:1 4:2 2:1 2:2" "0 1 x 1"
"$PYTHON3" - "$tmp/cut/run.json" <<'PY' || fail "umb-run, a launch cut short: the failed pairs' reason"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
# the launcher's word, or the program's line on that pair (it may still speak before the pipe stops it)
assert all(r["error"] == "cutter: the launch was cut after its first pair" or r["error"].startswith("umb_latency: buffers %s " % r["buffers"])
           for r in runs if r["status"] == 1), runs
PY
grep -q '^    umb_latency MH MH: FAILED (exit 1)' "$tmp/cut.log" && [ "$(grep -c '^\[[1-4]/4 ' "$tmp/cut.log")" = 4 ] \
    || { cat "$tmp/cut.log"; fail "umb-run: the failed pair names itself, after its progress line"; }

# A buffer kind after -- would be measured as another pair of every run: refused before any run.
rc=0; $RUN --out "$tmp/kinds" -- -m 8:64 H H >"$tmp/kinds.log" 2>&1 || rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/kinds.log")" = 1 ] && grep -q "^umb-run: -- H: umb-run gives each run its buffer kinds" "$tmp/kinds.log" \
    && [ ! -e "$tmp/kinds" ] || { cat "$tmp/kinds.log"; fail "umb-run: a buffer kind after -- (exit $rc)"; }
# So would the user's --pair-files take the runs' output away from their
# files: refused as umb-run's own options are (sets.OWN; the command line's
# one line: adversary_more.sh's --format).
"$PYTHON3" - "$top_srcdir/scripts" <<'PY' || fail "umb-run -- --pair-files: not refused"
import sys
sys.path.insert(0, sys.argv[1])
from umbench import fail, sets
try:
    sets.check_extra(["-m", "8", "--pair-f=x"])
    sys.exit("taken")
except fail.Fail as e:
    assert str(e).startswith("-- --pair-f=x: umb-run sets it for a launch of several pairs; run a program alone"), e
PY
# Options the program takes for one pair per launch only (--measure-bound
# observes the path, as --path does): each pair in a launch of its own.
$RUN --out "$tmp/bound" -- -m 8:64 -i 20 -x 2 --measure-bound >"$tmp/bound.log" 2>&1 || { cat "$tmp/bound.log"; fail "umb-run --measure-bound"; }
check "$tmp/bound" "- - - -" "0 x x x"
# A pair that fails in a launch of several keeps the program's words.
rc=0; UMB_TEST_CORRUPT=size:16 $RUN --bindir "$top_builddir/tests/tools/hooked" --out "$tmp/bad" -- -m 8:64 -i 20 -x 2 -c >"$tmp/bad.log" 2>&1 || rc=$?
"$PYTHON3" - "$tmp/bad/run.json" <<'PY' || { cat "$tmp/bad.log"; fail "umb-run: a failed pair's reason in a launch of several"; }
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["status"] == 2 and "launch" in r and "failed on purpose (UMB_TEST_CORRUPT=size:16)" in r["error"] and r["stderr"], r
PY
# An --append in the other mode records its own (run.json's launch_per is
# the first session's; adversarial pass 8).
$RUN --append --launch-per pair --out "$tmp/one" -- -m 8:64 -i 20 -x 2 >"$tmp/append.log" 2>&1 \
    && "$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['launch_per'] == 'program' and [s['launch_per'] for s in m['sessions']] == ['program', 'pair'], m['sessions']" "$tmp/one/run.json" \
    || { cat "$tmp/append.log"; fail "umb-run --append --launch-per pair: each session's launch_per"; }
exit 0
