#!/bin/sh
# The ReFrame checks' sanity (reframe-checks/umbench_judge.py) on what GPUs
# printed: tests/data/reframe/MACHINE/ENV-CHECK/ holds one check's run from
# `tests/gpu/run-all OUT reframe` (its `command`, the lines of its output
# the judge reads in `out`, and `call`: which judge, with what). Each passed
# there and must pass here; the four managed runs that held 17 of 20 first
# placements at a size must be the ones the plain 90% comparison fails
# (docs/reframe.md, "How a run is judged"). No GPU, MPI or ReFrame.
. "$top_srcdir/tests/lib.sh"
"$PYTHON3" - "$top_srcdir/reframe-checks" "$top_srcdir/tests/data/reframe" <<'PY' || fail "the recorded ReFrame runs"
import os, sys
sys.path.insert(0, sys.argv[1])
import umbench_judge as u
runs = sorted(os.path.join(m, r) for m in os.listdir(sys.argv[2]) for r in os.listdir(os.path.join(sys.argv[2], m)))
assert len(runs) >= 16, runs
plain_low = []
for run in runs:
    d = os.path.join(sys.argv[2], run)
    how, *kv = open(os.path.join(d, 'call')).read().split()
    k = {a: b == '1' for a, b in (x.split('=') for x in kv)}
    recs = u.records(os.path.join(d, 'out'))
    assert u.exit_status(os.path.join(d, 'out')) == 0, run
    if how == 'judge':
        why = u.judge(recs, k['validate'], 90, k['managed'])
    else:
        why = u.judge_driver(recs, 90, k['managed'], k['link_bound'])
    assert why is None, '%s: %s' % (run, why)
    # The same rows without their iteration counts: the plain comparison.
    bare = [dict((a, b) for a, b in r.items() if a != 'iterations') for r in recs]
    if how == 'judge' and u.judge(bare, k['validate'], 90, k['managed']):
        plain_low.append(run)
        assert '% of 20 iterations' in u.judge(recs, True, 94, True), run  # 17 of 20: a bound of 93.8%
assert len(plain_low) == 4 and all('collective' in r for r in plain_low), plain_low
PY
# A skipped check's reason is the program's own line (umbench_judge.skip_reason),
# its control characters escaped, read in bounded pieces (adversarial pass 7:
# ESC, C1 and BEL reached the terminal raw; a 200 MB line was read whole).
printf 'other\numb_um: needs \033[31ma GPU \302\233 and \007\n' >"$tmp/err"
head -c 20000000 /dev/zero | tr '\0' x >"$tmp/long"
"$PYTHON3" - "$top_srcdir/reframe-checks" "$tmp" <<'PY' || fail "skip_reason"
import os, sys
sys.path.insert(0, sys.argv[1])
import umbench_judge as u
t = sys.argv[2]
got = u.skip_reason(os.path.join(t, 'err'), 'umb_um')
assert got == 'umb_um: needs \\x1b[31ma GPU \\x9b and \\x07', repr(got)
assert u.skip_reason(os.path.join(t, 'err'), 'umb_copy') is None
assert u.skip_reason(os.path.join(t, 'no-such'), 'umb_um') is None and u.skip_reason(t, 'umb_um') is None
assert u.skip_reason(os.path.join(t, 'long'), 'umb_um') is None
PY
# A driver absent from its build is skipped with the reason of a build
# without CUDA only where configure recorded none (umbench-build.json, read
# by umbench's one reader of it); with CUDA, or no readable record, it is a
# failed build and is not skipped.
printf '{"umbench": "0.1.0", "mpicc": "mpicc", "mpiexec": "mpirun", "cuda": "no"}\n' >"$tmp/nocuda.json"
printf '{"umbench": "0.1.0", "mpicc": "mpicc", "mpiexec": "mpirun", "cuda": "yes"}\n' >"$tmp/cuda.json"
printf '{"umbench": "0.1.0", "cuda": "no"' >"$tmp/cut.json"
"$PYTHON3" - "$top_srcdir" "$tmp" <<'PY' || fail "unbuilt_reason"
import os, sys
sys.path[:0] = [os.path.join(sys.argv[1], 'reframe-checks'), os.path.join(sys.argv[1], 'scripts')]
import umbench_judge as u
t = sys.argv[2]
got = u.unbuilt_reason(os.path.join(t, 'nocuda.json'), 'umb_copy')
assert got == 'umb_copy: this build has no CUDA (configured without it)', got
for name in ('cuda.json', 'cut.json', 'no-such.json'):
    assert u.unbuilt_reason(os.path.join(t, name), 'umb_copy') is None, name
PY
