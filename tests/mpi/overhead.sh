#!/bin/sh
# Each family's figures against a bare MPI loop on the same pair, in the
# same run (issue 70): a pass condition. These comparisons, and --wait-idle
# (which waits while other work keeps the CPUs busy), are what must run
# alone, after every other test (Makefile.am); the rest of
# tests/tools/overhead, which depends on no timing, is
# tests/mpi/overhead_tool.sh, run beside the others.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"

# reference KIND SIZE ITERS PROGRAM ARGS...: umbench's figure at SIZE over
# tests/tools/mpi_reference's of the same loop, from the same run, between
# 0.67 and 1.5, which no factor of 2 passes (a round trip for one way, one
# direction of umb_bibw's two, a collective's sum for its mean). The
# bandwidths compare their best window (umbench's max) with the bare loop's
# best: on a loaded 2-core host most windows of a busy-polling library can
# wait for a time slice (MPICH beside other tests: umb_bw's P50 read 44
# MB/s, the bare loop 5,111), and the best window is the one a preempted run
# keeps. The latencies compare medians: a sub-microsecond iteration's best
# is the clock's and the lap marks' noise (umb_latency's min read 0.125 us
# against the bare loop's best 0.265, its P50 as the bare median), while a
# window's is not. The broadcast compares medians at 64 KiB, above the
# eager limits: there the root's call lasts as long as the receiver's. At 1
# KiB the root returns at once, the pooled samples fall in two modes, and
# the median lands on the edge between them (MPICH on a loaded host: 1.20
# us against the bare loop's 4.26; Open MPI idle: the bare loop itself 0.45
# to 1.24). 2 to 5 attempts, each side keeping its best figure
# so far: one side slowed in a single attempt cannot carry a wrong factor
# into range.
reference() {
    kind=$1 size=$2 iters=$3
    shift 3
    best_ref= best_umb= ratio=
    for attempt in 1 2 3 4 5; do
        run_mpi 2 "$top_builddir/tests/tools/mpi_reference" "$kind" "$size" "$iters"
        expect_rc 0 "mpi_reference $kind $size $iters"
        case $kind in bw|bibw) column=max field=3 ;; *) column=p50 field=2 ;; esac
        ref=$(awk -v s="$size" -v f="$field" '$1 == s { print $f }' "$tmp/out")
        run_mpi 2 "$@" -m "$size:$size" -i "$iters" -x $((iters / 10)) --format csv
        expect_rc 0 "$* -m $size:$size"
        umb=$(awk -F, -v s="$size" -v col="$column" '$1 == "size" { for (i = 1; i <= NF; i++) if (index($i, col "_") == 1) c = i }
                                    $1 == s && c { print $c }' "$tmp/out")
        [ -n "$ref" ] && [ -n "$umb" ] || { cat "$tmp/out"; fail "reference $kind: no figure at $size bytes"; }
        ratio=$(awk -v k="$kind" -v r="$ref" -v u="$umb" -v br="$best_ref" -v bu="$best_umb" 'BEGIN {
            lower = k == "latency" || k == "bcast"
            if (br != "" && (lower ? br < r : br > r)) r = br
            if (bu != "" && (lower ? bu < u : bu > u)) u = bu
            printf "%s %s %.3f\n", r, u, u / r }')
        best_ref=${ratio%% *} ratio=${ratio#* } best_umb=${ratio%% *} ratio=${ratio#* }
        [ "$attempt" -ge 2 ] && awk -v q="$ratio" 'BEGIN { exit !(q >= 0.67 && q <= 1.5) }' && return 0
    done
    fail "reference $kind: $* at $size bytes gives $best_umb, the bare loop $best_ref: ratio $ratio, accepted 0.67 to 1.5 (best of 5 attempts)"
}
reference latency 1024 200 "$top_builddir/mpi/pt2pt/umb_latency" H H
reference bw 16384 40 "$top_builddir/mpi/pt2pt/umb_bw" H H
reference bibw 16384 40 "$top_builddir/mpi/pt2pt/umb_bibw" H H
reference bcast 65536 100 "$top_builddir/mpi/collective/umb_bcast"

# --wait-idle: before each round the CPUs' idle share over a second, and
# after it the CPU time others used (/proc/stat); here nearly any share
# will do, so no round waits long.
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" \
    --rounds 1 --iterations 20 --wait-idle 0.001 --launch "$MPIEXEC $mpi_flags" \
    --only latency --max-latency 4 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && grep -q "^# --wait-idle 0.001: waited [0-9]* s in all for the CPUs that idle; [0-4] rounds run again, .*; [01] kept so after 5 tries" "$tmp/out" \
    || { cat "$tmp/out" "$tmp/err"; fail "overhead --wait-idle: exit $rc or no line saying how long it waited"; }
rc=0
"$PYTHON3" "$top_srcdir/tests/tools/overhead" --build "$top_builddir" --wait-idle 1.5 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^overhead: --wait-idle 1.5: accepted a share from 0 .* to below 1" "$tmp/err" \
    || { cat "$tmp/err"; fail "overhead --wait-idle 1.5: not one line naming it, exit 1"; }
exit 0
