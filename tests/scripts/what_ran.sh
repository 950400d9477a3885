#!/bin/sh
# What a run records is what ran, and "ran" means measured (issue 66,
# classes 4 and 5): umb-suite counts a pair as ran only where its output
# holds the program's end (MPIEXEC=true gave "9 ran"); umb-run refuses a
# run whose program reports another rank count than it launched (a
# launcher that ignores -np was kept as a 2-rank run); the scripts' typed
# readers of environment numbers take digits only, wholly. Stand-in
# launchers; each case runs, the test ends with how many failed.
. "$top_srcdir/tests/lib.sh"
S=$top_srcdir/scripts
BIN=$top_builddir/mpi/pt2pt
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"

suite() {  # suite LAUNCHER ARGS...: umb-suite's last line in $tmp/last, its status in $rc
    l=$1; shift
    rc=0; MPIEXEC=$l UMB_BINDIR=$BIN sh "$S/umb-suite" "$@" >"$tmp/o" 2>"$tmp/e" || rc=$?
    tail -n 1 "$tmp/o" >"$tmp/last"
}

launcher_ran_nothing() {
    suite true -m 8:8 -i 2 -x 0
    [ "$rc" -ne 0 ] && grep -q '^# umb-suite: 0 ran, 0 skipped, 9 failed$' "$tmp/last" \
        && grep -q 'H H: FAILED: exit 0, but the output has no end of umb_latency' "$tmp/o" \
        || { cat "$tmp/o" "$tmp/e"; fail "MPIEXEC=true: exit $rc"; }
}
try "MPIEXEC=true ran nothing" launcher_ran_nothing

header_only() {  # a header and a row, exit 0, no end: in the table, and in JSON
    cat >"$tmp/cut" <<'SH'
#!/bin/sh
case " $* " in *" --format json "*) echo '{"type":"header","program":"umb_latency","nranks":2}' ;;
*) printf '# Program: umb_latency\n# Size       Avg Latency(us)\n8                       1.00\n' ;; esac
SH
    chmod +x "$tmp/cut"
    for f in table json; do
        suite "$tmp/cut" -m 8:8 --format $f
        [ "$rc" -ne 0 ] && grep -q '^# umb-suite: 0 ran, 0 skipped, 9 failed$' "$tmp/last" \
            || { cat "$tmp/o" "$tmp/e"; fail "a header without its end ($f): exit $rc"; }
    done
}
try "a header without its end" header_only

measured_counts() {  # a real run still counts, in every format
    for f in table csv json; do
        suite "$MPIEXEC${mpi_flags:+ $mpi_flags}" -m 8:8 -i 2 -x 0 --format $f
        [ "$rc" -eq 0 ] && grep -q '^# umb-suite: [1-9] ran, [0-9] skipped, 0 failed$' "$tmp/last" \
            || { cat "$tmp/o" "$tmp/e"; fail "a measured run ($f): exit $rc"; }
    done
}
try "a measured run counts" measured_counts

# Pass 13 (11): the user's --check-options, in every spelling getopt_long
# takes, is refused in one line before any launch ("9 failed" before).
check_options_refused() {
    for w in --check-options --check-opt --chec --check-options=1; do
        one_line 1 "umb-suite: $w: the suite asks umb_latency --check-options itself" \
            env MPIEXEC=true UMB_BINDIR="$BIN" sh "$S/umb-suite" -m 8:8 "$w"
    done
}
try "the user's --check-options" check_options_refused

# A launcher that drops the rank count: umb_bcast (any number of ranks)
# runs as one rank where umb-run asked for 2.
one_rank() {
    [ -n "${PYTHON3:-}" ] || return 0
    cat >"$tmp/one" <<'SH'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -np|-n) shift 2 ;; -*) shift ;; *) break ;; esac; done
[ $# -eq 0 ] || exec "$@"
SH
    chmod +x "$tmp/one"
    rc=0; MPIEXEC="$tmp/one" MPIEXEC_FLAGS= "$PYTHON3" "$S/umb-run" --bindir "$top_builddir" --set full --within off --match '^umb_bcast H$' \
        --out "$tmp/r1" -- -m 8:8 -i 2 -x 0 >"$tmp/o" 2>&1 || rc=$?
    [ "$rc" -eq 1 ] && grep -q 'umb-run launched it with 2 ranks, the program reports 1 ' "$tmp/o" \
        || { cat "$tmp/o"; fail "a launcher that ran 1 rank of 2: exit $rc"; }
    "$PYTHON3" - "$tmp/r1/run.json" <<'PY' || fail "run.json of the run of 1 rank"
import json, sys
m = json.load(open(sys.argv[1]))
r = [r for r in m["runs"] if r["program"] == "umb_bcast"][0]
assert m["np"] == 2 and r["complete"] is False and "reports 1" in r["error"], (m["np"], r)
PY
}
try "ranks launched, ranks reported" one_rank

# The scripts' readers of environment numbers (job ids): digits, wholly, or one refusal.
job_ids() {
    [ -n "${PYTHON3:-}" ] || return 0
    "$PYTHON3" - "$S" <<'PY' || fail "the job-id readers (above)"
import os, re, sys
sys.path.insert(0, sys.argv[1])
from umbench import env
from umbench.fail import Fail
odd = ["", "0", "3", "-1", "+3", " 3", "3 ", "3\n", "\n3", "3x", "0x10", "1e3", "\u0663", "3\u200b",
       "2147483648", "9223372036854775808", "9" * 100]
bad = []
for name, read in (("SLURM_JOB_ID", env.slurm_job), ("LSB_JOBID", env.lsf_job)):
    for v in odd:
        os.environ[name] = v
        read.cache_clear()
        try:
            got = read()
        except Fail as e:
            assert "\n" not in str(e).strip() and name in str(e), (name, v, e)
            continue
        if not (got is None and v == "" or got == v and re.fullmatch("[0-9]+", v)):
            bad.append("%s=%r read as %r" % (name, v, got))
    del os.environ[name]
assert not bad, bad
PY
}
try "environment numbers in the scripts" job_ids

cases_done what_ran
