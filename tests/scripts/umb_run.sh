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
        # Managed buffers add a placement row per rank and size after the results.
        assert all(o["type"] in ("result", "rank_placement", "finding") for o in lines[1:]), r
    else:
        assert r["skipped"] and not lines, r
ok = {(r["program"], r["buffers"]) for r in m["runs"] if r["status"] == 0}
assert {("umb_latency", "H H"), ("umb_bw", "H H"), ("umb_bcast", "H")} <= ok, ok
PY
done

$CMP "$tmp/a" "$tmp/b" >"$tmp/cmp" || { cat "$tmp/cmp"; fail "umb-compare"; }
grep -q '^## umb_latency H H: avg latency, us' "$tmp/cmp" || fail "umb-compare: no latency table"
grep -q '^## umb_bw H H: bandwidth, MB/s' "$tmp/cmp" || fail "umb-compare: no bandwidth table"
grep -q '^size  *\[0\]  *\[1\]  *\[1\]/\[0\]$' "$tmp/cmp" || fail "umb-compare: columns"
# Each ratio is the second column over the first (the columns are rounded
# to 0.01, so allow for that).
awk '/^[0-9]/ && NF == 4 { n++; r = $3 / $2; e = 0.006 * (r / $2 + r / $3) + 0.006; if (r - $4 > e || $4 - r > e) bad = 1 }
     END { exit !(n >= 18 && !bad) }' "$tmp/cmp" \
    || { cat "$tmp/cmp"; fail "umb-compare: ratios"; }

rc=0; $CMP "$tmp/a" >"$tmp/o" 2>&1 || rc=$?
[ $rc -ne 0 ] && grep -q "two or more results folders" "$tmp/o" || fail "umb-compare with one folder"
rc=0; $RUN --np 1 >"$tmp/o" 2>&1 || rc=$?
[ $rc -ne 0 ] && grep -q -- "--np 1" "$tmp/o" || fail "umb-run --np 1"
# A stray word before "--" is refused in one line (exit 1), not passed on
# to every program; a set name given bare gets a hint.
for args in "quick --out $tmp/stray" "--out $tmp/stray -f" "--set nope"; do
    rc=0; $RUN $args >"$tmp/o" 2>&1 || rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/o")" -eq 1 ] && grep -q '^umb-run: ' "$tmp/o" || { cat "$tmp/o"; fail "umb-run $args: exit $rc"; }
done
grep -q "unknown argument 'quick' (did you mean --set quick?)" "$tmp/o" || $RUN quick 2>&1 | grep -q "did you mean --set quick" \
    || fail "umb-run quick: no hint"
[ ! -e "$tmp/stray" ] || fail "umb-run with a stray word wrote results"

# SIGTERM (what a batch system sends at its limit) keeps the finished runs.
$RUN --set quick --out "$tmp/c" -- -m 8:8 -i 20 >"$tmp/run-c.log" 2>&1 &
pid=$!
i=0; until grep -q '^\[3/' "$tmp/run-c.log" 2>/dev/null; do i=$((i + 1)); [ $i -lt 600 ] || break; sleep 0.05; done
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 130 ] || { cat "$tmp/run-c.log"; fail "umb-run after SIGTERM: exit $rc, expected 130"; }
"$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['interrupted'] and 2 <= len(m['runs']) < 11, m" "$tmp/c/run.json" \
    || fail "umb-run after SIGTERM: manifest"
# The launcher is found from the batch system: srun inside Slurm, jsrun
# inside LSF, each with its rank-count flags. Fake ones on PATH log their
# arguments and hand the run to the real launcher, outside the "job".
mkdir "$tmp/bin"
for l in srun jsrun; do
    cat >"$tmp/bin/$l" <<EOF
#!/bin/sh
echo "$l \$*" >>"$tmp/launch.log"
[ "\$1" = -n ] || exit 9
np=\$2; shift 2
[ $l = srun ] || shift 6
unset SLURM_JOB_ID LSB_JOBID
exec $MPIEXEC $mpi_flags -np "\$np" "\$@"
EOF
    chmod +x "$tmp/bin/$l"
    job=SLURM_JOB_ID=42; [ $l = srun ] || job=LSB_JOBID=42
    env -u MPIEXEC "$job" PATH="$tmp/bin:$PATH" $RUN --set quick --out "$tmp/$l" -- -m 8:8 -i 10 -x 1 >"$tmp/run-$l.log" 2>&1 \
        || { cat "$tmp/run-$l.log" "$tmp/launch.log"; fail "umb-run under a fake $l"; }
    "$PYTHON3" -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['launcher'] == sys.argv[2] and any(r['status'] == 0 for r in m['runs']), m" \
        "$tmp/$l/run.json" $l || fail "umb-run under $l: manifest"
done
grep -q '^srun -n 2 .*/umb_latency' "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "umb-run did not launch with srun -n 2"; }
grep -q '^jsrun -n 2 -a 1 -g 1 -c 1 .*/umb_latency' "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "umb-run did not launch with jsrun -n 2 -a 1 -g 1 -c 1"; }
exit 0
