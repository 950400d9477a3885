#!/bin/sh
# umb-run --build NAME=DIR: build folders of MPI libraries interleaved like
# configurations, each run with the launcher its configure recorded
# (umbench-build.json); the same build under two names is an A/A pair for
# umb-compare. (CI compares Open MPI with MPICH this way: the README's
# "Comparing MPI libraries" block.) Bad --build values get one line.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
[ -f "$top_builddir/umbench-build.json" ] || fail "configure wrote no umbench-build.json"
RUN="$PYTHON3 $top_srcdir/scripts/umb-run"
flags=${mpi_flags:+:$mpi_flags}
# MPIEXEC and MPIEXEC_FLAGS are not what a build runs with.
env MPIEXEC=/no/such/launcher MPIEXEC_FLAGS=--no-such-flag $RUN --match '^umb_latency H H$' --rounds 2 \
    --build "a=$top_builddir$flags" --build "b=$top_builddir$flags" --out "$tmp/r" -- -m 8:16 -i 10 >"$tmp/log" 2>&1 \
    || { cat "$tmp/log"; fail "umb-run --build a --build b"; }
"$PYTHON3" - "$tmp/r" "$top_builddir" "$MPIEXEC" <<'PY' || { cat "$tmp/log"; fail "umb-run --build: manifest"; }
import json, os, sys
d, build, mpiexec = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
m = json.load(open(os.path.join(d, "run.json")))
assert m["launcher"] == "build" and [c["name"] for c in m["configs"]] == ["a", "b"], m["configs"]
rec = json.load(open(os.path.join(build, "umbench-build.json")))
for c in m["configs"]:
    assert c["build"]["dir"] == build and c["build"]["mpiexec"] == rec["mpiexec"] and c["mpi_library"], c
# Interleaved, the order turned in round 2; each run through the build's launcher and programs.
assert [(r["round"], r["config"], r["status"]) for r in m["runs"]] == [(1, "a", 0), (1, "b", 0), (2, "b", 0), (2, "a", 0)], m["runs"]
for r in m["runs"]:
    assert r["command"][0] == rec["mpiexec"] and "--no-such-flag" not in r["command"], r["command"]
    assert any(w == os.path.join(build, "mpi", "pt2pt", "umb_latency") for w in r["command"]), r["command"]
PY
"$PYTHON3" "$top_srcdir/scripts/umb-compare" "$tmp/r" >"$tmp/cmp" 2>&1 || { cat "$tmp/cmp"; fail "umb-compare of two builds"; }
grep -q '^# \[0\] r/a: ' "$tmp/cmp" && grep -q '^# \[1\] r/b: ' "$tmp/cmp" && [ "$(grep -c '^[0-9]* *\[1\] .* A/A: no verdict (2 rounds' "$tmp/cmp")" -eq 2 ] \
    || { cat "$tmp/cmp"; fail "umb-compare: the same build under two names is not an A/A pair"; }

one_line 1 "umb_put_latency not found in $PT2PT, nor in mpi/rma under them" \
    $RUN --set full --match '^umb_put_latency H H$' --bindir "$PT2PT" --out "$tmp/x"

one_line 1 "--build a=$tmp/nothere: no umbench-build.json there" $RUN --build "a=$tmp/nothere" --out "$tmp/x"
one_line 1 "--build a: expected NAME=DIR" $RUN --build a --out "$tmp/x"
one_line 1 "--build with --config" $RUN --build "a=$top_builddir" --config c:X=1 --out "$tmp/x"
one_line 1 "--build with --bindir" $RUN --build "a=$top_builddir" --bindir "$PT2PT" --out "$tmp/x"
one_line 1 "--build: a name given twice (a, a)" $RUN --build "a=$top_builddir" --build "a=$top_builddir" --out "$tmp/x"
printf '{"mpiexec": ""}' >"$tmp/umbench-build.json"
one_line 1 "mpiexec must not be empty" $RUN --build "a=$tmp" --out "$tmp/x"
[ ! -e "$tmp/x" ] || fail "a refused --build wrote results"
# A script's empty flags ("DIR:", "DIR::" or "DIR: ") are no flags, not part
# of DIR; flags may follow the colon after a blank.
for case in ":|" ": |" "::|" ": --oversubscribe|--oversubscribe" "::-x A|-x A"; do
    "$PYTHON3" -c 'import sys; sys.path.insert(0, sys.argv[1]); from umbench import configs
c = configs.parse_build("a=" + sys.argv[2] + sys.argv[3])
assert c["launcher_flags"] == sys.argv[4].split() and c["build"]["dir"] == sys.argv[2], c' \
        "$top_srcdir/scripts" "$top_builddir" "${case%%|*}" "${case#*|}" || fail "--build a=DIR'${case%%|*}': not the build DIR with flags '${case#*|}'"
done
one_line 1 "--build a=:: expected NAME=DIR" $RUN --build "a=:" --out "$tmp/x"
# A build folder whose name holds a colon is one folder.
mkdir "$tmp/with:colon" && ln -s "$top_builddir/mpi" "$tmp/with:colon/mpi" && cp "$top_builddir/umbench-build.json" "$tmp/with:colon/"
$RUN --build "a=$tmp/with:colon$flags" --match '^umb_latency H H$' --out "$tmp/colon" -- -m 8:8 -i 10 >"$tmp/log" 2>&1 \
    || { cat "$tmp/log"; fail "umb-run --build with a colon in the folder's name"; }

# Every family's programs are found under a build folder's top, one-sided
# ones in mpi/rma too: through --build, and through --bindir naming the top
# (with the flags, if any, under which this MPI makes a window).
window_flags
flags=${mpi_flags:+:$mpi_flags}
export MPIEXEC_FLAGS="$mpi_flags"
for how in --build --bindir; do
    rm -rf "$tmp/f"
    case $how in --build) where="a=$top_builddir$flags" ;; *) where=$top_builddir ;; esac
    $RUN --set full --within off --match '^umb_(put_latency|bw) H H$' $how "$where" --out "$tmp/f" -- -m 8:8 -i 10 >"$tmp/log" 2>&1 \
        || { cat "$tmp/log"; fail "umb-run --set full $how: the one-sided program"; }
    "$PYTHON3" - "$tmp/f" "$top_builddir" <<'PY' || { cat "$tmp/log"; fail "umb-run $how: programs' folders"; }
import json, os, sys
m, build = json.load(open(os.path.join(sys.argv[1], "run.json"))), os.path.abspath(sys.argv[2])
want = {"umb_bw": "mpi/pt2pt", "umb_put_latency": "mpi/rma"}
assert sorted(r["program"] for r in m["runs"]) == sorted(want) and all(r["status"] == 0 for r in m["runs"]), m["runs"]
for r in m["runs"]:
    assert os.path.join(build, want[r["program"]], r["program"]) in r["command"], r["command"]
PY
done
exit 0
