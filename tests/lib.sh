# Shared by the shell tests: how to launch, skip and fail.
# automake's harness: exit 0 pass, 1 fail, 77 skip.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
MPIEXEC=${MPIEXEC:-mpirun}
PT2PT=$top_builddir/mpi/pt2pt
# The registry (programs.txt), through its one shell reader: registry,
# programs FIELD=VALUE... [--path] and window_programs BUILD (programs.sh).
programs_txt=$top_srcdir/programs.txt
. "$top_srcdir/programs.sh"
# The MPI programs of the registry, as DIR/NAME under the build.
mpi_programs() {
    programs needs=mpi --path
}
# programs_of FAMILY...: the registry's programs of those families, as DIR/NAME.
programs_of() {
    programs family="$(echo "$*" | tr ' ' ',')" --path
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
    # Every test runs on this one host, over loopback. Left to itself Open
    # MPI also takes every other interface, among them the bridge that
    # tests/cluster/slurm.sh makes and removes beside the others (make -j2):
    # a run that began while it was there stalled 15 s in its teardown once
    # it was gone (umb_tune.sh, "after the last line 15.7 s").
    export OMPI_MCA_oob_tcp_if_include="${OMPI_MCA_oob_tcp_if_include:-lo}"
    export OMPI_MCA_btl_tcp_if_include="${OMPI_MCA_btl_tcp_if_include:-lo}"
    # A launch that ends non-zero (a refusal, a skip) without mpirun's wait
    # before its SIGKILLs, as umb-run and umb-suite launch (docs/decisions.md,
    # "A skip without mpirun's wait"): 2.4 s each, 0.4 s without (issue 67).
    export OMPI_MCA_odls_base_sigkill_timeout="${OMPI_MCA_odls_base_sigkill_timeout:-0}"
    # A rank that waits yields its core (sched_yield) instead of polling
    # through its time slice: make -j2 runs two tests on two cores, and a
    # rank that polls while its peer waits for a core costs a slice a
    # message. rma_hh.sh on a loaded host: 11 s of CPU, 4 s yielding (issue
    # 67). Not the GPU tests, whose figures are judged, nor overhead.sh,
    # which runs alone and times umbench against a bare loop.
    case $0 in
    */tests/gpu/* | */tests/mpi/overhead.sh) ;;
    *) export OMPI_MCA_mpi_yield_when_idle="${OMPI_MCA_mpi_yield_when_idle:-1}" ;;
    esac
fi
# The launcher's own flags for the library under test (as umb-run and
# umb-suite take them), e.g. the UCX pml's on a node without InfiniBand.
mpi_flags="$mpi_flags${MPIEXEC_FLAGS:+ $MPIEXEC_FLAGS}"
# Tests paste it after a colon (umb-run's NAME=DIR:FLAGS): never blanks only.
mpi_flags=${mpi_flags# }

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
# needs_scripts: the scripts (umb-run and the other Python commands) need a
# Python with jsonschema (configure's PYTHON3, which falls back to
# /usr/bin/python3): where none has it the test skips in one line and the
# C and GPU tests still run; CI sets UMB_NEED_SCRIPTS=1, which makes that a
# failure, as for lint and ReFrame. Every test of tests/scripts calls it
# here; a test elsewhere calls it before its first command (lint.sh checks).
needs_scripts() {
    if [ -z "${PYTHON3:-}" ] || ! "$PYTHON3" -c "import jsonschema" 2>/dev/null; then
        why="no Python with jsonschema (${PYTHON3:-none}): python3 -m pip install --user jsonschema (or pip install . of the tree, or Debian's python3-jsonschema), then configure again"
        if [ "${UMB_NEED_SCRIPTS:-0}" = 1 ]; then fail "$why (UMB_NEED_SCRIPTS=1)"; else skip "$why"; fi
    fi
}
case $0 in */tests/scripts/*) needs_scripts ;; esac
# needs_python WHAT PACKAGE CODE: where $PYTHON3 -c CODE fails, WHAT is
# missing: skip in one line naming it and Debian's PACKAGE; a failure
# under UMB_NEED_SCRIPTS=1 only where .ci/run's apt-get line installs
# PACKAGE (CI has it, so its absence there is a broken setup).
needs_python() {
    "$PYTHON3" -c "$3" >/dev/null 2>&1 && return 0
    why="$PYTHON3 has no $1 (Debian's $2)"
    if [ "${UMB_NEED_SCRIPTS:-0}" = 1 ] && sed -n '/apt-get install/,/[^\\]$/p' "$top_srcdir/.ci/run" 2>/dev/null | grep -qw -- "$2"; then
        fail "$why (UMB_NEED_SCRIPTS=1; .ci/run installs $2)"
    fi
    skip "$why"
}
# standin_emit FILE: a stand-in launcher at FILE that prints one run of
# umb_latency H H (its header, one result at 8 bytes, the end record), for
# tests of umb-run's folders, not of MPI.
standin_emit() {
    cat >"$1" <<'EOF' && chmod +x "$1"
#!/bin/sh
echo '{"type":"header","program":"umb_latency","buffers":"H H"}'
echo '{"type":"result","program":"umb_latency","buffers":"H H","size":8,"avg_latency_us":1.5}'
echo '{"type":"end","program":"umb_latency","status":0}'
EOF
}
# A rank that died of a segfault, as the shell, srun or mpirun says it, or
# as a sanitizer build's ASan reports it: ASan catches SIGSEGV and exits 1,
# so no "Segmentation fault" is ever said there (docs/cluster.md).
CRASH_RE='Segmentation fault|AddressSanitizer: SEGV on unknown address'
crashed() { grep -Eq "$CRASH_RE" "$@"; }
# A test of many cases: try NAME FUNCTION runs one in a subshell, so that a
# failure is counted and the rest go on; cases_done NAME ends the test with
# how many failed.
cases=0 failed=0
try() {
    cases=$((cases + 1))
    ( "$2" ) || { failed=$((failed + 1)); echo "FAILED: $1" >&2; }
}
cases_done() {
    echo "$1: $failed failed of $cases"
    [ "$failed" -eq 0 ]
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each test's MPI launches keep their session directory in the test's own
# folder: make -j runs tests at once, and two tests' first launches raced to
# make Open MPI 4's shared one ("/tmp/ompi.HOST.UID: File exists", issue 67).
# TMPDIR is where Open MPI 4 (ORTE) and 5 (PRRTE, PMIx) put it, launched
# here or through umb-run; it is removed with the test's folder.
export TMPDIR="$tmp"

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
    run_mpi "$np" "$path" "$@"
    said_usage_error "$path" "$names" "$@"
}
# said_usage_error PROGRAM NAMES ARGS...: the last run, of PROGRAM ARGS
# (launched or alone), ended as usage_error asks.
said_usage_error() {
    name=$(basename "$1") names=$2; shift 2
    expect_rc 1 "$name $*"
    [ "$(grep -c "^$name: " "$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "$name $*: not one message line"; }
    grep "^$name: " "$tmp/err" | grep -qF -- "$names" || { cat "$tmp/err"; fail "$name $*: message does not name '$names'"; }
    [ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "$name $*: printed results"; }
}

# window_flags: adds to mpi_flags what this MPI needs to make a window over
# a rank's own buffer, or skips (77) with the library's reason. Open MPI's
# default osc makes none on some builds (Ubuntu's 4.1.6 on a node without
# InfiniBand): then, as umbench's message advises, the UCX osc with the UCX pml.
window_flags() {
    run_mpi 2 "$top_builddir/mpi/rma/umb_put_latency" -m 8:8 -i 2 -x 1
    [ "$rc" -eq 77 ] || return 0
    grep -q 'try --mca osc ucx' "$tmp/err" || skip "no window: $(cat "$tmp/err")"
    no_window=$(grep "^umb_put_latency: " "$tmp/err")
    mpi_flags="$mpi_flags --mca osc ucx --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
    run_mpi 2 "$top_builddir/mpi/rma/umb_put_latency" -m 8:8 -i 2 -x 1
    [ "$rc" -ne 77 ] || skip "no window with the default osc ($no_window), nor with the UCX osc: $(cat "$tmp/err")"
    echo "the default osc makes no window here ($no_window): the UCX osc and pml instead"
}

# judge NAME ARG...: the reading NAME of tests/gpu/judge.py over the output
# files (and values) ARG; its lines on stdout, its status in $rc. CI runs the
# same readings on output recorded on a GPU machine (tests/gpu/recorded.sh):
# with UMB_GPU_RECORD=DIR, each call's files, values and status are kept in
# DIR/TEST/NNN-NAME for that (tests/data/gpu/README.md).
judge() {
    [ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot read the output"
    rc=0
    "$PYTHON3" "$top_srcdir/tests/gpu/judge.py" "$@" || rc=$?
    [ -z "${UMB_GPU_RECORD:-}" ] || record_reading "$@"
}
record_reading() {
    judged=$((${judged:-0} + 1))
    case_dir=$UMB_GPU_RECORD/$(basename "$0" .sh)/$(printf '%03d' "$judged")-$1
    mkdir -p "$case_dir" && : >"$case_dir/args" || fail "cannot record into $case_dir"
    k=0
    for arg in "$@"; do
        if [ -f "$arg" ]; then
            k=$((k + 1)); cp "$arg" "$case_dir/f$k" && echo "@f$k" >>"$case_dir/args"
        else
            echo "$arg" >>"$case_dir/args"
        fi
    done
    echo "$rc" >"$case_dir/status"
}
# must_judge NAME ARG...: judge, and fail the test unless the reading holds.
must_judge() {
    judge "$@"
    [ "$rc" -eq 0 ] || fail "reading $1 did not hold (above)"
}
# gpu_count: the GPUs this machine shows (0 without nvidia-smi).
gpu_count() {
    nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true
}
