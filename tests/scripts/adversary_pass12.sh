#!/bin/sh
# The kinds of adversarial pass 12 (2026-11-29, over the drivers as
# descriptors and umb-run asking the programs whether --within can share
# their time): umb-run asks each program, in every configuration and for
# each of its runs where they were not asked at once, and refuses in the
# program's own line before its folder exists; the line is found after a
# warning, a --within refusal says how to run the counts as they are;
# options that make a run measure nothing are refused. (A program gone
# while launches were counted: the plan is made once, before any run.)
# Every case runs; the test ends with how many failed.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
RUN="$PYTHON3 $S/umb-run --bindir $top_builddir --set full"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"

each_pair() {  # only the first pair was asked: MH MH failed in its turn, after H H had run
    one_line 1 "umb_bw: --loop classic: placing managed buffers" \
        $RUN --within off --match '^umb_bw (H H|MH MH)$' --out "$tmp/p3" -- --loop classic -m 8:64
    [ ! -e "$tmp/p3" ] || fail "a refused pair made the folder"
}
try "each pair asked" each_pair

measures_nothing() {  # -fh, --vers and the user's --check-options: every run ended without results
    for w in -fh --vers; do
        one_line 1 "measures nothing" $RUN --within off --match '^umb_bw H H$' --out "$tmp/p4" -- -m 8:8 $w
    done
    one_line 1 "-- --check: umb-run asks each program" $RUN --within off --match '^umb_bw H H$' --out "$tmp/p4" -- --check
    [ ! -e "$tmp/p4" ] || fail "a refused option made the folder"
}
try "options that measure nothing" measures_nothing

within_words() {  # the set's own -i was blamed on the user, with no way out named
    one_line 1 "give --within off to run their counts as they are" \
        "$PYTHON3" "$S/umb-run" --bindir "$top_builddir" --set quick --within 20 --out "$tmp/p6"
    [ ! -e "$tmp/p6" ] || fail "a refused --within made the folder"
}
try "--within refusal words" within_words

# The program's line after a warning, and a value holding
# "--check-options" is the user's: verdict and check_options over a
# stand-in whose answer is made up.
program_line() {
    printf '#!/bin/sh\n' >"$tmp/umb_bw" && chmod +x "$tmp/umb_bw"
    "$PYTHON3" - "$S" "$tmp/umb_bw" <<'PY' || fail "the program's line"
import subprocess, sys, types
sys.path.insert(0, sys.argv[1])
from umbench import launch
from umbench.cli import Fail
def answer(err):
    launch.subprocess.run = lambda *a, **k: types.SimpleNamespace(returncode=1, stderr=err.encode(), stdout=b"")  # bytes, as the program's
answer("UCX  WARN  a transport\numb_bw: -m 8:x: expected MAX\n")
assert launch.verdict(sys.argv[2], ()) == (1, "umb_bw: -m 8:x: expected MAX")
answer("umb_bw: -m --check-options: expected MAX\n")
try:
    launch.check_options(sys.argv[2], "umb_bw", ["-m", "--check-options"], [])
    assert False, "not refused"
except Fail:
    pass
subprocess.run = launch.subprocess.run
PY
}
try "the program's line" program_line

cases_done adversary_pass12
