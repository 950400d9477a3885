#!/bin/sh
# The readers' options and semantics as an adversary met them (issue 47),
# on made-up results folders (no MPI run): an empty or blank value of any
# option or operand is refused in one line, writing nothing; a file where
# a folder is meant and a folder where a file is; rounds of one
# configuration name that ran other libraries are never pooled (and those
# that ran the same one are, whatever the folder's first library); a
# folder left by a search that ran no setting is named as such, never
# sent to a --report that cannot read it; umb-tune's --match against the
# set it tunes; a reason is cut at a word boundary, never mid-word.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
"$PYTHON3" - "$tmp" <<'PY' || fail "fixtures"
import json, os, sys
tmp = sys.argv[1]

def folder(name, configs, top=None, rounds=(1, 2), header_lib=None, error=None):
    """A results folder of umb_latency H H over CONFIGS {name: library},
    each in ROUNDS; HEADER_LIB {(config, round): library} for the headers."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    runs = []
    for cfg, lib in configs.items():
        for k in rounds:
            f = "umb_latency-H-H.%s.r%d.jsonl" % (cfg, k)
            lib_k = (header_lib or {}).get((cfg, k), lib)
            with open(os.path.join(d, f), "w") as out:
                out.write(json.dumps({"type": "header", "program": "umb_latency", "mpi_library": lib_k}) + "\n")
                for size in (8, 64):
                    out.write(json.dumps({"type": "result", "program": "umb_latency", "buffers": "H H", "size": size,
                                          "iterations": 100, "avg_latency_us": 2.0 + k / 10,
                                          "p50_latency_us": 2.0 + k / 10}) + "\n")
                out.write(json.dumps({"type": "end", "status": 0}) + "\n")
                out.write(json.dumps({"type": "run", "round": k, "config": cfg, "status": 0, "complete": True}) + "\n")
            run = {"program": "umb_latency", "buffers": "H H", "file": f, "status": 0, "round": k, "config": cfg, "complete": True}
            if error:
                run.update(status=1, complete=False, error=error)
            runs.append(run)
    json.dump({"runs": runs, "state": "finished", "mpi_library": top or next(iter(configs.values())),
               "configs": [{"name": c, "env": {}, "launcher_flags": [], "mpi_library": lib} for c, lib in configs.items()]},
              open(os.path.join(d, "run.json"), "w"))

OMPI, MPICH = "Open MPI 5.0.8", "MPICH 4.2.0"
folder("a", {"default": OMPI})
folder("b", {"default": OMPI})
# --build names: p and q ran ompi=Open MPI and mpich=MPICH alike (q's first
# run was mpich's); r's "mpich" ran Open MPI.
folder("p", {"ompi": OMPI, "mpich": MPICH})
folder("q", {"ompi": OMPI, "mpich": MPICH}, top=MPICH)
folder("r", {"ompi": OMPI, "mpich": OMPI})
# One folder whose second round of "default" ran another library (--append after a rebuild).
folder("s", {"default": OMPI}, header_lib={("default", 2): "Open MPI 4.1.6"})
folder("failed", {"default": OMPI}, error="umb_latency: cannot place the buffers: cudaMallocManaged returned "
       "cudaErrorMemoryAllocation on rank 1 of 2 while placing 4194304 bytes of managed memory for the receive side "
       "of the exchange, after the first size had run; the other rank waited for it and was stopped by the launcher")
os.makedirs(os.path.join(tmp, "tune", "pilot"))
json.dump({"runs": [], "state": "interrupted", "configs": [{"name": "default", "env": {}, "launcher_flags": []}]},
          open(os.path.join(tmp, "tune", "pilot", "run.json"), "w"))
open(os.path.join(tmp, "file"), "w").close()
os.makedirs(os.path.join(tmp, "dir"))
PY
A=$tmp/a B=$tmp/b MPICH="MPICH 4.2.0"
cd "$tmp" || fail "cd $tmp"  # a relative folder a command makes by mistake lands here

# 1. Empty and blank values, of every kind of option and of the operands:
#    one line naming the option, exit 1, nothing written.
blank() { cmd=$1; shift; one_line 1 "empty" "$PYTHON3" "$S/$cmd" "$@"; }
blank umb-compare "$A" "$B" --plot ""
blank umb-compare "$A" "$B" --plot " "
blank umb-compare "$A" "$B" --match ""
blank umb-compare "$A" "$B" --min-effect ""
blank umb-compare "" "$A"
blank umb-plot "$A" --out ""
blank umb-plot " "
blank umb-findings "$A" --match " "
blank umb-findings ""
blank umb-tune --out " "
blank umb-tune --bindir ""
blank umb-tune --catalogue ""
blank umb-tune --only " "
blank umb-tune --report " "
blank umb-tune --match ""
blank umb-tune --np ""
blank umb-tune --budget " "
blank umb-run --out "$tmp/run" --precision ""
[ ! -e "$A/plot.png" ] && [ ! -e "$tmp/run" ] && [ ! -e "$tmp/ " ] && [ ! -e "$tmp/umb-results" ] || fail "a refused blank value wrote something"
# A file where a folder is meant, a folder where a file is.
one_line 1 "--catalogue $tmp/dir: a folder" "$PYTHON3" "$S/umb-tune" --catalogue "$tmp/dir"
one_line 1 "--bindir $tmp/file: $tmp/file is not a folder" "$PYTHON3" "$S/umb-tune" --bindir "$tmp/file" --out "$tmp/t1"
[ ! -e "$tmp/t1" ] || fail "umb-tune --bindir FILE made its --out"
one_line 1 "--report $tmp/file: not a folder" "$PYTHON3" "$S/umb-tune" --report "$tmp/file"
one_line 1 "--plot $tmp/dir: a folder" "$PYTHON3" "$S/umb-compare" "$A" "$B" --plot "$tmp/dir"
# 6. A number is written as one: Python's int and float also took 1_0 (10) and +3.
one_line 1 "--rounds 1_0: expected a whole number from 2 to" "$PYTHON3" "$S/umb-tune" --rounds 1_0 --catalogue "$tmp/dir"
one_line 1 "--np +3: expected a whole number from 2 to" "$PYTHON3" "$S/umb-tune" --np +3 --catalogue "$tmp/dir"
one_line 1 "--budget 1_0: expected seconds above 0 and at most 1000000" "$PYTHON3" "$S/umb-tune" --budget 1_0 --catalogue "$tmp/dir"
# --report runs nothing: a search's option beside it is refused, not ignored.
one_line 1 "--report $tmp/tune with --match --rounds" "$PYTHON3" "$S/umb-tune" --report "$tmp/tune" --match umb_bw --rounds 3

# 2. A configuration is what it ran: p and q ran each name on one library
#    (q's first run, its run.json's library, was MPICH's): pooled; p and r
#    ran "mpich" on two libraries: refused, naming both.
"$PYTHON3" "$S/umb-findings" "$tmp/p" "$tmp/q" >"$tmp/o" 2>&1 && grep -q "2 folders, 8 finished runs" "$tmp/o" \
    || { cat "$tmp/o"; fail "umb-findings: two folders that ran each configuration on one library"; }
one_line 1 "configuration mpich: $tmp/p/umb_latency-H-H.mpich.r1.jsonl and $tmp/r/umb_latency-H-H.mpich.r1.jsonl differ in library $MPICH | Open MPI 5.0.8" \
    "$PYTHON3" "$S/umb-findings" "$tmp/p" "$tmp/r"
# umb-compare pools a configuration's rounds within a folder: one library too.
one_line 1 "differ in library Open MPI 5.0.8 | Open MPI 4.1.6" "$PYTHON3" "$S/umb-compare" "$tmp/s" "$A"
one_line 1 "configuration default" "$PYTHON3" "$S/umb-compare" "$tmp/s" "$A"

# 3. A search that ran no setting: --out and --report say so, and neither
#    points at a command that cannot read the folder.
one_line 1 "--out $tmp/tune: the search there ran no setting" "$PYTHON3" "$S/umb-tune" --out "$tmp/tune"
! grep -q -- "--report" "$tmp/e" || { cat "$tmp/e"; fail "umb-tune --out: points at --report, which has nothing to read"; }
one_line 1 "--report $tmp/tune: the search there ran no setting" "$PYTHON3" "$S/umb-tune" --report "$tmp/tune"
one_line 1 "--report $A: umb-run's results" "$PYTHON3" "$S/umb-tune" --report "$A"

# 4. umb-tune's --match against the set it tunes (checked before anything
#    runs: the --catalogue that is a folder stops it after the check).
one_line 1 "--match D D: no benchmark and pair of --set quick matches; it holds umb_latency H H" \
    "$PYTHON3" "$S/umb-tune" --match "D D" --catalogue "$tmp/dir"
one_line 1 "--match umb_allreduce: no benchmark" "$PYTHON3" "$S/umb-tune" --match umb_allreduce --set aware --catalogue "$tmp/dir"
rc=0; "$PYTHON3" "$S/umb-tune" --match "^umb_bw (D D|MD MD)$" --catalogue "$tmp/dir" 2>"$tmp/e" || rc=$?
[ $rc -eq 1 ] && grep -qF "D D is not in --set quick" "$tmp/e" && grep -qF "tuning umb_bw MD MD only" "$tmp/e" \
    || { cat "$tmp/e"; fail "umb-tune --match that names a pair the set lacks: not said"; }
"$PYTHON3" "$S/umb-tune" --set why --match "^umb_bw (D D|MD MD)$" --catalogue "$tmp/dir" 2>"$tmp/e"
! grep -q "not in --set" "$tmp/e" || { cat "$tmp/e"; fail "umb-tune --set why --match: the set holds both pairs"; }

# 5. A reason cut to fit a line is cut at a word boundary: every word shown is a word of the reason.
rc=0; "$PYTHON3" "$S/umb-findings" "$tmp/failed" 2>"$tmp/e" || rc=$?
"$PYTHON3" - "$tmp/e" "$tmp/failed/run.json" <<'PY' || fail "a reason cut mid-word (above)"
import json, sys
line = open(sys.argv[1]).read()
error = json.load(open(sys.argv[2]))["runs"][0]["error"]
shown = line.split("the first: ", 1)[1].rstrip(")\n").split()
assert shown[-1] == "...", line
assert all(w in error.split() for w in shown[:-1]), line
PY
exit 0
