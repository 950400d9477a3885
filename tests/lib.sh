# Shared by the shell tests: how to launch, skip and fail.
# automake's harness: exit 0 pass, 1 fail, 77 skip.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
MPIEXEC=${MPIEXEC:-mpirun}
PT2PT=$top_builddir/mpi/pt2pt
# The registry's lines (programs.txt), comments and blank lines left out:
# name family dir ranks needs sources.
registry() {
    awk '!/^[ \t]*(#|$)/' "$top_srcdir/programs.txt"
}
# The MPI programs of the registry, as DIR/NAME under the build.
mpi_programs() {
    registry | awk '$5 == "mpi" { print $3 "/" $1 }'
}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The source tree may be read-only (make distcheck): no __pycache__ in it.
export PYTHONDONTWRITEBYTECODE=1
# Sanitizer builds (--enable-sanitizers): every memory or UB error fails the
# run. Leak checking stays on in the unit tests but is off for MPI runs:
# the MPI library's own allocations, from plugins it has unloaded by exit,
# cannot be suppressed by name (docs/decisions.md).
# allocator_may_return_null: a refused allocation reaches the program's own
# message, as without ASan.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# Every MPI run ends within this many seconds, hang or not.
RUN_LIMIT=${RUN_LIMIT:-300}

# make -j runs several tests at once: Open MPI would bind every job's
# ranks to cores 0 and 1, and busy-polling ranks would then share them
# (seen as 8 ms stalls per window on the GPU machine). Tests check
# behaviour, not speed: leave placement to the scheduler.
mpi_flags=
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI"; then
    mpi_flags="--oversubscribe --bind-to none"
fi

fail() { echo "FAIL: $*" >&2; exit 1; }
# one_line STATUS TEXT COMMAND...: exit STATUS, one line on stderr holding
# TEXT, no traceback anywhere.
one_line() {
    want=$1 text=$2; shift 2
    rc=0; "$@" >"$tmp/o" 2>"$tmp/e" || rc=$?
    [ "$rc" -eq "$want" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -qF -- "$text" "$tmp/e" && ! grep -q Traceback "$tmp/o" "$tmp/e" \
        || { cat "$tmp/o" "$tmp/e"; fail "$*: exit $rc (expected $want), or not one line with '$text'"; }
}
skip() { echo "SKIP: $*" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_mpi NP PROGRAM ARGS...: stdout to $tmp/out, stderr to $tmp/err, status in $rc.
run_mpi() {
    np=$1; shift
    rc=0
    timeout "$RUN_LIMIT" "$MPIEXEC" $mpi_flags -np "$np" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -ne 124 ] || { cat "$tmp/err" >&2; fail "$* did not end within $RUN_LIMIT s"; }
}

# run_cmd PROGRAM ARGS...: a program without a launcher, the same way as run_mpi.
run_cmd() {
    rc=0
    timeout "$RUN_LIMIT" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -ne 124 ] || { cat "$tmp/err" >&2; fail "$* did not end within $RUN_LIMIT s"; }
}

# expect_rc WANT WHAT: the last run ended with status WANT.
expect_rc() {
    [ "$rc" -eq "$1" ] || { cat "$tmp/out" "$tmp/err" >&2; fail "$2: exit status $rc, expected $1"; }
}

# json_check ARGS...: each stdout line of the last run is JSON (tests/json_check.py).
json_check() {
    [ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot check JSON"
    "$PYTHON3" "$top_srcdir/tests/json_check.py" "$@" <"$tmp/out" || fail "JSON check: $*"
}

# usage_error NP PROGRAM NAMES ARGS...: the run exits 1 with exactly one
# "PROGRAM: " line on stderr, which names NAMES (the bad value).
usage_error() {
    np=$1 path=$2 names=$3; shift 3
    name=$(basename "$path")
    run_mpi "$np" "$path" "$@"
    expect_rc 1 "$name $*"
    [ "$(grep -c "^$name: " "$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "$name $*: not one message line"; }
    grep "^$name: " "$tmp/err" | grep -qF -- "$names" || { cat "$tmp/err"; fail "$name $*: message does not name '$names'"; }
    [ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "$name $*: printed results"; }
}
