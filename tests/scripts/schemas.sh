#!/bin/sh
# One schema per kind of file, one reader (scripts/umbench/schema.py;
# docs/output.md, "Schemas"): a malformed tune.json, catalogue or
# references file is one line naming the field, never an internal error;
# a FIFO or a device is refused before it is opened, never read; a
# catalogue is checked up front with the limits umb-run --config applies
# later; umb-run takes only the --rounds and --np run.json may hold; and
# what a writer writes, its readers read (run.json, tune.json, the run line).
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
RUN="$PYTHON3 $S/umb-run --bindir $PT2PT:$top_builddir/mpi/collective --match ^umb_latency.H.H$"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
Q="-- -m 8:8 -i 10 -x 1"
# A stand-in launcher (as in adversary_more.sh): one header, one result at 8 bytes, the end record.
standin_emit "$tmp/emit"
MPIEXEC="$tmp/emit" $RUN --out "$tmp/a" --config c:X=1 --rounds 2 $Q >/dev/null 2>&1 || fail "a first run"

# valid KIND FILE: the file is a valid KIND by its schema.
valid() {
    "$PYTHON3" -c 'import json, sys; sys.path.insert(0, sys.argv[1]); from umbench import schema
why = schema.problem(json.load(open(sys.argv[3])), sys.argv[2]); assert why is None, why' "$S" "$1" "$2" || fail "$2: not a valid $1"
}

# 1. Round trip: what umb-run wrote (run.json, its run lines) is what the
#    schemas take, and every reader reads it; a tune.json of that shape too.
round_trip() {
    valid run "$tmp/a/run.json"
    "$PYTHON3" -c 'import glob, sys; sys.path.insert(0, sys.argv[1]); from umbench import schema
for f in glob.glob(sys.argv[2] + "/*.jsonl"):
    good, bad = schema.lines(f)
    assert not bad and good[-1][1]["type"] == "run", (f, bad)' "$S" "$tmp/a" || fail "run lines not valid"
    "$PYTHON3" "$S/umb-compare" "$tmp/a" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-compare of umb-run's folder"; }
    "$PYTHON3" "$S/umb-findings" "$tmp/a" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-findings of umb-run's folder"; }
    MPIEXEC="$tmp/emit" $RUN --out "$tmp/a" --append --config c:X=1 $Q >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "--append"; }
    valid run "$tmp/a/run.json"
}
try "round trip: umb-run's files" round_trip

# 2. umb-run's --rounds and --np: what run.json's schema holds, no more;
#    refused before a folder is made. The largest accepted is read back.
bounds() {
    # (the stand-in launcher and a time limit: a code that took them would run for ever)
    one_line 1 "--rounds 1000001: expected a whole number from 1 to 1000000" env MPIEXEC="$tmp/emit" timeout 20 $RUN --out "$tmp/r" --rounds 1000001 $Q
    one_line 1 "--np 99999999: expected a whole number from 2 to 1000000" env MPIEXEC="$tmp/emit" timeout 20 $RUN --out "$tmp/r" --np 99999999 $Q
    one_line 1 "--rounds 1000001: expected a whole number from 2 to 1000000" env MPIEXEC="$tmp/emit" timeout 20 $PYTHON3 "$S/umb-tune" --rounds 1000001 --out "$tmp/r"
    [ ! -e "$tmp/r" ] || fail "a refused --rounds or --np made its folder"
    MPIEXEC="$tmp/emit" $RUN --out "$tmp/big" --np 1000000 --rounds 1000000 --budget 0.01 $Q >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "the largest --np"; }
    valid run "$tmp/big/run.json"
    "$PYTHON3" "$S/umb-findings" "$tmp/big" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-findings of --np 1000000"; }
    "$PYTHON3" "$S/umb-compare" "$tmp/big" "$tmp/a" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-compare of --np 1000000"; }
}
try "umb-run --rounds and --np within run.json's bounds" bounds

# 3. tune.json of the wrong shape: one line naming the field, never an internal error.
TUNE='{"tried": [{"name": "c", "entry": "x", "library": "ucx", "variable": "X", "value": "1", "env": {"X": "1"}}],
       "refused": [], "cannot_act": [], "left_out": [], "rounds": 2, "min_effect": 0.05, "budget": 10, "pass_s": 1.0, "findings": null}'
bad_tune() {
    d=$tmp/t$1; cp -r "$tmp/a" "$d"
    "$PYTHON3" -c "import json, sys; t = json.loads(sys.argv[2]); $2; json.dump(t, open(sys.argv[1], 'w'))" "$d/tune.json" "$TUNE"
    one_line 1 "--report $d: $d/tune.json: not umb-tune's tune.json: $3" timeout 20 $PYTHON3 "$S/umb-tune" --report "$d"
}
tune_ok() {
    d=$tmp/t0; cp -r "$tmp/a" "$d" && printf '%s' "$TUNE" >"$d/tune.json"
    valid tune "$d/tune.json"
    "$PYTHON3" "$S/umb-tune" --report "$d" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "umb-tune --report of a valid tune.json"; }
}
t1() { bad_tune 1 't["tried"][0]["dropped"] = "x"' 'tried[0].dropped must be an object, found "x"'; }
t2() { bad_tune 2 't["tried"][0]["dropped"] = {"round": "x", "why": "y"}' 'tried[0].dropped.round must be a whole number'; }
t3() { bad_tune 3 't["tried"][0]["dropped"] = {"why": "y"}' 'tried[0].dropped has no "round"'; }
t4() { bad_tune 4 't["left_out"] = 3' 'left_out must be a list, found 3'; }
t5() { bad_tune 5 't["left_out"] = [1]' 'left_out[0] must be an object, found 1'; }
t6() { bad_tune 6 't["left_out"] = [{"variable": "V"}]' 'left_out[0] has no "'; }
t7() { bad_tune 7 't["budget"] = "x"; t["left_out"] = t["tried"]' 'budget must be a number or null, found "x"'; }
t8() { bad_tune 8 't["tried"][0]["env"] = {"X": 1}' 'tried[0].env.X must be a string, found 1'; }
try "a valid tune.json is read" tune_ok
for t in t1 t2 t3 t4 t5 t6 t7 t8; do try "tune.json: $t" $t; done

# 4. Special files: a FIFO as tune.json or as the catalogue, /dev/zero as
#    the catalogue: refused before they are opened, in one line.
special() {
    mkdir "$tmp/sf" && mkfifo "$tmp/sf/tune.json" "$tmp/fifo"
    one_line 1 "--report $tmp/sf: $tmp/sf/tune.json: cannot read it (not a regular file)" timeout 20 $PYTHON3 "$S/umb-tune" --report "$tmp/sf"
    one_line 1 "--catalogue $tmp/fifo: cannot read it (not a regular file)" timeout 20 $PYTHON3 "$S/umb-tune" --catalogue "$tmp/fifo" --out "$tmp/x"
    one_line 1 "--catalogue /dev/zero: cannot read it (not a regular file)" timeout 20 $PYTHON3 "$S/umb-tune" --catalogue /dev/zero --out "$tmp/x"
    [ ! -e "$tmp/x" ] || fail "a refused catalogue made a folder"
}
try "FIFOs and /dev/zero" special

# 5. A catalogue that umb-run --config would refuse after the pilot is
#    refused when it is read, with --config's limits: a name and value
#    over 64 characters, a value twice, two values that make one name,
#    one name twice. The stand-in launcher keeps a pilot short where one runs.
bad_catalogue() {
    printf '{"settings": [%s]}' "$2" >"$tmp/cat$1.json"
    one_line 1 "--catalogue $tmp/cat$1.json: $3" env MPIEXEC="$tmp/emit" timeout 60 $PYTHON3 "$S/umb-tune" --catalogue "$tmp/cat$1.json" \
        --bindir "$PT2PT" --match '^umb_latency H H$' --out "$tmp/c$1" --rounds 2
    [ ! -e "$tmp/c$1/pilot" ] || fail "a bad catalogue ran a pilot"
}
E='"library": "openmpi", "variable": "OMPI_MCA_pml"'
long=$(printf '%062d' 0 | tr 0 n)
c1() { bad_catalogue 1 "{\"name\": \"$long\", $E, \"values\": [\"ob1\"]}" "setting 1 ($long): value 'ob1': configuration $long-ob1: the name must be 1 to 64"; }
c2() { bad_catalogue 2 "{\"name\": \"p\", $E, \"values\": [\"ob1\", \"ob1\"]}" 'not a catalogue of settings: settings[0].values holds a value twice ("ob1")'; }
c3() { bad_catalogue 3 "{\"name\": \"p\", $E, \"values\": [\"a b\", \"a_b\"]}" "setting 1 (p): value 'a_b': its configuration p-a_b is also setting 1's"; }
c4() { bad_catalogue 4 "{\"name\": \"p\", $E, \"values\": [\"ob1\"]}, {\"name\": \"p\", $E, \"values\": [\"ucx\"]}" 'setting 2: the name p is also setting 1'"'"'s'; }
c5() { bad_catalogue 5 "{\"name\": \"p\", $E, \"values\": [\"ob1\"], \"extra\": 1}" 'not a catalogue of settings: settings[0] holds an unknown field (extra)'; }
# A setting whose configuration would take a named configuration's name (umb-run --config @NAME).
c6() { bad_catalogue 6 "{\"name\": \"emulate-internode\", $E, \"values\": [\"ucx\"]}" "setting 1 (emulate-internode): value 'ucx': configuration emulate-internode-ucx: the name must be 1 to 64 letters, digits, '_', '.' or '-', and not 'default' nor a named configuration's"; }
for c in c1 c2 c3 c4 c5 c6; do try "catalogue: $c" $c; done
catalogue_ok() { valid settings "$S/umbench/settings.json"; }
try "the package's catalogue is valid" catalogue_ok

# 6. A writer writes nothing its readers refuse: run.json and tune.json
#    are checked against their schema first.
writer() {
    "$PYTHON3" -c 'import os, sys; sys.path.insert(0, sys.argv[1]); from umbench import cli, results
for kind, data in (("run", {"runs": [{"file": "x.jsonl", "program": "p", "buffers": "H H", "status": 0, "round": 0}]}),
                   ("tune", {"tried": [], "refused": [], "rounds": 2.5}), ("run", {"elapsed_s": float("nan")})):
    path = os.path.join(sys.argv[2], kind + ".json")
    try:
        results.write_whole(path, data, kind)
        raise AssertionError("written: %r" % data)
    except cli.Fail as e:
        assert "not written" in str(e), e
    assert not os.listdir(sys.argv[2]), os.listdir(sys.argv[2])' "$S" "$(mkdir "$tmp/w" && echo "$tmp/w")" || fail "a writer wrote what its readers refuse"
}
try "writers check what they write" writer

# 7. ReFrame references, read by the same reader (umbench_judge.references):
#    a missing file, a cut one, a size the check does not measure are
#    errors naming it, not an empty table; the shipped file is read.
references() {
    "$PYTHON3" - "$S" "$top_srcdir/reframe-checks" "$tmp" <<'PY' || fail "references"
import sys
sys.path[:0] = sys.argv[1:3]
from umbench_judge import references
here, tmp = sys.argv[2], sys.argv[3]
got = references(here + "/references.json", "umb_latency H H", {"latency_8", "latency_65536"})
assert got == {"h200:gpu": {"latency_8": (0.4, None, 0.5)}}, got
text = open(here + "/references.json").read()
open(tmp + "/cut.json", "w").write(text[:len(text) // 2])
open(tmp + "/odd.json", "w").write('{"s:p": {"umb_latency H H": {"latency_1024": [1.0, null, 0.5]}}}')
open(tmp + "/bad.json", "w").write('{"s:p": {"umb_latency H H": {"latency_8": [1.0, 0.5]}}}')
for path, said in ((tmp + "/nothere.json", "no such file (UMBENCH_REFERENCES"), (tmp + "/cut.json", "not JSON"),
                   (tmp + "/odd.json", 's:p: "umb_latency H H": latency_1024: this check measures latency_65536, latency_8 only'),
                   (tmp + "/bad.json", "s:p.umb_latency H H.latency_8 must have at least 3 entries")):
    try:
        references(path, "umb_latency H H", {"latency_8", "latency_65536"})
        raise AssertionError("read: " + path)
    except ValueError as e:
        assert said in str(e) and "\n" not in str(e), (path, str(e))
PY
}
try "ReFrame references" references

# 9. A writer never writes what its readers refuse, its size included:
#    schema.dumps refuses, in one line, a file over the readers' limit.
too_large() {
    "$PYTHON3" - "$S" <<'PY' || fail "schema.dumps wrote a file larger than its readers take"
import sys
sys.path.insert(0, sys.argv[1])
from umbench import schema
from umbench.cli import Fail
run = {"program": "umb_latency", "buffers": "H H", "file": "f.jsonl", "status": 1, "stderr": "\x01" * 4000}
m = {"state": "finished", "runs": [run]}
schema.dumps(m, "run", "run.json")  # valid, and under the real limit
schema.MOST_BYTES = 20000  # 4000 control characters are 24000 bytes, escaped
try:
    schema.dumps(m, "run", "run.json")
except Fail as e:
    assert "larger than 0 MiB, which its readers refuse" in str(e) and "\n" not in str(e), str(e)
else:
    raise SystemExit("written")
PY
}
try "a file larger than its readers take" too_large

# 8. jsonschema: a Python without it runs the command again with the
#    system's; where that has none either, one line naming the package.
no_jsonschema() {
    one_line 1 "umb-findings: needs Python's jsonschema (python3 -m pip install --user jsonschema, or Debian/Ubuntu's python3-jsonschema)" \
        env PYTHONPATH= PATH="$(dirname "$(command -v "$PYTHON3")"):$PATH" "$(command -v "$PYTHON3")" -S "$S/umb-findings" "$tmp/a"
}
[ "$("$PYTHON3" -c 'import os, sys; print(os.path.realpath(sys.executable))')" = "$(realpath /usr/bin/python3 2>/dev/null)" ] \
    && try "no jsonschema" no_jsonschema

cases_done schemas
