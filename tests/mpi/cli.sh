#!/bin/sh
# What every program does besides measuring: -h and -v (exit 0, from rank 0
# only), --check-options alone, the wrong number of ranks (one line, exit 1). Bad option values
# are in tests/bad_input.txt (bad_input_table.sh).
. "$top_srcdir/tests/lib.sh"

# The launches that end right after MPI_Init (-h, --version, a rank count
# refused) mostly wait, not work: four programs' go at once, each launch
# with a session folder of its own (TMPDIR: two first launches raced for a
# shared one, issue 67), and are judged below as each case comes.
AT_ONCE=4
# early KEY NP PROGRAM ARGS...: a launch as run_mpi makes it, into $tmp/early/KEY.*.
early() {
    key=$1 np=$2; shift 2
    mkdir -p "$tmp/early/$key.tmp"
    r=0
    TMPDIR="$tmp/early/$key.tmp" timeout "$RUN_LIMIT" "$MPIEXEC" $mpi_flags -np "$np" "$@" </dev/null \
        >"$tmp/early/$key.out" 2>"$tmp/early/$key.err" || r=$?
    echo "$r" >"$tmp/early/$key.rc"
}
# take KEY: that launch's result where run_mpi leaves one.
take() {
    cp "$tmp/early/$1.out" "$tmp/out" && cp "$tmp/early/$1.err" "$tmp/err" && rc=$(cat "$tmp/early/$1.rc") || fail "$1: no launch"
    [ "$rc" -ne 124 ] || { cat "$tmp/err" >&2; fail "$1 did not end within $RUN_LIMIT s"; }
}
# The ranks each program takes are the registry's (programs.txt).
registry | awk '$5 == "mpi" { print $3 "/" $1, $4 }' >"$tmp/ranks"
running=0
while read -r prog takes; do
    name=$(basename "$prog")
    (
        early "$name-h" 2 "$top_builddir/$prog" -h
        early "$name-v" 2 "$top_builddir/$prog" --version
        case $takes in 2|even) early "$name-3" 3 "$top_builddir/$prog" ;; esac
    ) &
    running=$((running + 1))
    [ "$running" -lt "$AT_ONCE" ] || { wait; running=0; }
done <"$tmp/ranks"
wait

for prog in $(mpi_programs); do
    name=$(basename $prog)
    take "$name-h"
    expect_rc 0 "$name -h"
    [ "$(grep -c "^Usage: $name" "$tmp/out")" -eq 1 ] || fail "$name -h: usage once, from rank 0"
    grep -q -- '--timeout S' "$tmp/out" || fail "$name -h: lists --timeout"
    # --check-options: the options' verdict alone, no MPI (umb-run asks it
    # before its runs): nothing and 0 for good ones, one line and 1 for bad.
    rc=0; "$top_builddir/$prog" --check-options -m 8:64 </dev/null >"$tmp/co" 2>&1 || rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/co" ] || { cat "$tmp/co"; fail "$name --check-options -m 8:64: exit $rc"; }
    rc=0; "$top_builddir/$prog" --check-options -m 8:x </dev/null >"$tmp/co" 2>&1 || rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/co")" -eq 1 ] && grep -q "^$name: -m 8:x: expected" "$tmp/co" \
        || { cat "$tmp/co"; fail "$name --check-options -m 8:x: exit $rc"; }
    # Accepted means measurable (issue 66): a size past what the program's
    # MPI calls count in an int, or iterations past what its per-iteration
    # arrays hold, get 1 and the line naming the value; the largest take 0.
    for bad in "-m 8589934592" "-m 4294967297:4294967297" "-i 4611686018427387905" "-x 100000001" "-i 100000001"; do
        rc=0; "$top_builddir/$prog" --check-options -M 64G $bad </dev/null >"$tmp/co" 2>&1 || rc=$?
        [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/co")" -eq 1 ] && grep -q "^$name: .*${bad#* }" "$tmp/co" \
            || { cat "$tmp/co"; fail "$name --check-options $bad: exit $rc"; }
    done
    rc=0; "$top_builddir/$prog" --check-options -M 64G -m 2147483644 -i 100000000 -x 100000000 </dev/null >"$tmp/co" 2>&1 || rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/co" ] || { cat "$tmp/co"; fail "$name --check-options at the largest size and counts: exit $rc"; }
    # -h and -v, in any spelling getopt takes ("-fh", "--vers"), make no run: 1 and the line (pass 12).
    for w in -fh --vers; do
        rc=0; "$top_builddir/$prog" --check-options -m 8:64 $w </dev/null >"$tmp/co" 2>&1 || rc=$?
        [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/co")" -eq 1 ] && grep -q "^$name: -[hv] (--[a-z]*) prints the [a-z]* and measures nothing$" "$tmp/co" \
            || { cat "$tmp/co"; fail "$name --check-options $w: exit $rc"; }
    done
    take "$name-v"
    expect_rc 0 "$name --version"
    [ "$(cat "$tmp/out")" = "$name (umbench) $(sed -n 's/^AC_INIT(\[umbench\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")" ] \
        || { cat "$tmp/out"; fail "$name --version"; }
done

# The ranks each program takes: 3 (launched above) are refused, and so is
# one rank where the registry says 2 or even. One rank is the program
# alone, an MPI singleton, as bad_input_table.sh runs it: the same world
# of one rank without a launch (Open MPI 4 then starts no daemon).
export OMPI_MCA_ess_singleton_isolated=1
one_rank_refused() {  # one_rank_refused PROGRAM TEXT
    run_cmd "$1"
    said_usage_error "$1" "$2"
}
three_refused() {  # three_refused PROGRAM TEXT
    take "$(basename "$1")-3"
    said_usage_error "$1" "$2"
}
while read -r prog takes; do
    case $takes in
    2) three_refused "$top_builddir/$prog" "needs exactly 2 ranks, got 3"
       one_rank_refused "$top_builddir/$prog" "needs exactly 2 ranks, got 1" ;;
    even) three_refused "$top_builddir/$prog" "needs a multiple of 2 ranks, got 3"
       one_rank_refused "$top_builddir/$prog" "needs a multiple of 2 ranks, got 1" ;;
    any) run_cmd "$top_builddir/$prog" -m 8:8 -i 2 -x 0
       expect_rc 0 "$(basename $prog) on 1 rank" ;;
    *) fail "programs.txt: $prog takes '$takes' ranks: not 2, even or any" ;;
    esac
done <"$tmp/ranks"

# An allocation that cannot be had names its size. The address space is
# capped (ulimit -v), so this fails the same way whatever the kernel's
# overcommit policy (a huge request could otherwise succeed and then be
# filled page by page). ASan builds reserve terabytes of shadow: skipped.
if ldd "$PT2PT/umb_latency" | grep -q asan; then
    echo "allocation failure: skipped in a sanitizer build"
else
    run_mpi 2 sh -c 'ulimit -v 1000000 && exec "$0" -m 2147483647 -M 16G H H' "$PT2PT/umb_latency"
    expect_rc 1 "a 2 GiB buffer under a 1 GB address-space limit"
    [ "$(grep -c '^umb_latency: ' "$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "allocation failure: not one line"; }
    grep -q '^umb_latency: rank [01] on .*: cannot allocate 214748364[78] bytes of host memory (buffer H)$' "$tmp/err" \
        || { cat "$tmp/err"; fail "allocation failure: size not named"; }
    echo "allocation failure: $(grep '^umb_latency: ' "$tmp/err")"
fi
# Issue 66's two cases, as a run: refused in one line before any measuring,
# as --check-options refuses them (a 4 GiB bcast reported microseconds; the
# count's iteration arrays wrapped, SIGSEGV, then a hang).
usage_error 2 "$top_builddir/mpi/collective/umb_bcast" "-m 4294967297:4294967297: sizes above 2147483647 bytes" \
    -m 4294967297:4294967297 -M 6G -i 2 -x 0
usage_error 2 "$PT2PT/umb_latency" "-i 4611686018427387905: iterations must be an integer from 1 to 100000000" \
    -m 1:1 -x 0 -i 4611686018427387905
# -M bounds all a rank holds (pass 13): at -M's top, 65,536 window slots of
# 2 GiB (-c: a buffer per slot) and a count whose iteration records pass
# a 1G limit (2 GB of records: the 2G default holds them) are refused in one line before any allocation, and
# --check-options says the same; -M past its top too (SIZE_MAX was taken,
# and the slots were allocated one by one until the job was stopped).
usage_error 2 "$PT2PT/umb_bw" "a rank needs 140737492551632 bytes, above the memory limit -M 1099511627776" \
    -W 65536 -m 2147483647 -M 1024G -c
usage_error 2 "$PT2PT/umb_latency" "of iteration records (100000000 iterations: -i)" -m 1:1 -i 100000000 -x 0 -M 1G
for over in "-W 65536 -m 2147483647 -M 1024G -c" "-W 65536 -m 2147483647 -c -M 18446744073709551615" \
            "-W 65536 -m 1 -c -M 64K" "-m 1:1 -i 100000000 -x 0 -M 1G"; do
    rc=0; "$PT2PT/umb_bw" --check-options $over </dev/null >"$tmp/co" 2>&1 || rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/co")" -eq 1 ] && grep -q "^umb_bw: .*-M" "$tmp/co" \
        || { cat "$tmp/co"; fail "umb_bw --check-options $over: exit $rc"; }
done
# The M note (M is read as MH) is in the header of the pair that gave M
# alone, not in every pair's of the launch (adversarial pass 8).
run_mpi 2 "$PT2PT/umb_latency" -m 8:8 -i 2 -x 0 H H M H
awk '/^# Buffers: /{ b = $3 " " $4 } /^# Note: buffer M is read as MH/{ print b }' "$tmp/out" >"$tmp/noted"
[ ! -s "$tmp/noted" ] || [ "$(cat "$tmp/noted")" = "MH H" ] || { cat "$tmp/out"; fail "the M note in the header of a pair without M"; }
exit 0
