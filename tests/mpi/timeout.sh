#!/bin/sh
# --timeout ends a job that stops making progress. One rank of a 2-rank run
# is stopped (SIGSTOP, as a hang would) or killed (SIGKILL); the job must end
# within the timeout plus a few seconds, not at CI's limit, and the
# watchdog's message must name the benchmark, the size and the rank.
. "$top_srcdir/tests/lib.sh"
command -v ps >/dev/null || skip "no ps"
LIMIT=3

# The umb_latency processes under the launcher PID $1 (children or
# grandchildren: tests run in parallel, so never match by name alone).
ranks_of() {
    ps -e -o pid=,ppid=,comm= | awk -v top="$1" '
        { parent[$1] = $2; name[$1] = $3 }
        END { for (p in parent) { q = p; while (q in parent && q != top && q > 1) q = parent[q]
                                  if (q == top && name[p] == "umb_latency") print p } }' | sort -n
}

hang_one() {  # hang_one SIGNAL: stop or kill one rank, then time the end
    "$MPIEXEC" $mpi_flags -np 2 "$PT2PT/umb_latency" -m 1M:1M -i 1000000 -x 0 --timeout $LIMIT H H \
        </dev/null >"$tmp/out" 2>"$tmp/err" &
    job=$!
    i=0
    while [ "$(ranks_of $job | wc -l)" -lt 2 ] || ! grep -q '^# Size' "$tmp/out"; do
        i=$((i + 1)); [ $i -lt 300 ] || { kill $job; fail "the run did not start"; }
        sleep 0.1
    done
    victim=$(ranks_of $job | tail -1)
    t0=$(date +%s)
    kill -"$1" "$victim"
    # The job must end by itself; this only guards the test.
    ( sleep 60; kill -9 $job 2>/dev/null ) &
    guard=$!
    rc=0
    wait $job || rc=$?
    t1=$(date +%s)
    kill $guard 2>/dev/null
    for p in $(ranks_of $job); do kill -9 "$p" 2>/dev/null; done
    [ "$rc" -ne 0 ] || fail "SIG$1: the job exited 0"
    [ $((t1 - t0)) -le $((LIMIT + 7)) ] || fail "SIG$1: the job ended $((t1 - t0)) s after the hang (timeout $LIMIT s)"
    echo "SIG$1 on rank pid $victim: the job ended after $((t1 - t0)) s, exit $rc (timeout $LIMIT s)"
}

hang_one STOP
grep -q "^umb_latency: rank [01] on .*: no progress for $LIMIT s (--timeout) in latency, size 1048576, iteration [0-9]*; ending the job" "$tmp/err" \
    || { cat "$tmp/err"; fail "SIGSTOP: no watchdog message naming benchmark, size and rank"; }
hang_one KILL

# A run that makes progress outlives --timeout: inside the timed loop each
# iteration is marked by one store (umb_progress_loop, issue 43), and the
# watchdog counts it as progress (about 2.5 s here, 64 KiB round trips).
rc=0
"$MPIEXEC" $mpi_flags -np 2 "$PT2PT/umb_latency" -m 64K:64K -i 150000 -x 0 --timeout 1 H H </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] && grep -q "^65536 " "$tmp/out" || { cat "$tmp/err"; fail "a run making progress past --timeout 1 was ended (exit $rc)"; }
exit 0
