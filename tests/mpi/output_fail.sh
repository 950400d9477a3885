#!/bin/sh
# Results that cannot be written are an error (docs/output.md, "Exit
# status"): a rank whose standard output is full says so in one line and
# exits 1, whichever program and format; a closed one is refused at the
# start; a JSON output ends with its "end" record, so that a reader can tell
# it from one cut short (mpirun drops what it cannot write and exits 0).
. "$top_srcdir/tests/lib.sh"

# Each rank's own stdout on /dev/full, not the launcher's: rank 0 writes
# the results and must fail; rank 1 writes nothing.
# selection: one program of each way of printing (ping-pong, window, collective)
for prog in pt2pt/umb_latency pt2pt/umb_bw collective/umb_bcast; do
    for fmt in table json; do
        run_mpi 2 sh -c 'exec "$0" "$@" >/dev/full' "$top_builddir/mpi/$prog" -m 8:64 -i 10 -x 1 --format $fmt
        [ "$rc" -ne 0 ] || { cat "$tmp/err"; fail "$prog --format $fmt to a full stdout: exit 0"; }
        # The reason is errno's where the C library kept it (Open MPI's ranks:
        # "No space left on device"; under MPICH it was lost: "a write failed").
        [ "$(grep -c "^$(basename $prog): cannot write the results to standard output: " "$tmp/err")" -eq 1 ] \
            || { cat "$tmp/err"; fail "$prog --format $fmt to a full stdout: not one line from rank 0"; }
    done
    run_mpi 2 "$top_builddir/mpi/$prog" -m 8:8 -i 10 --format json
    expect_rc 0 "$prog --format json"
    tail -1 "$tmp/out" | grep -qx "{\"type\":\"end\",\"program\":\"$(basename $prog)\",\"status\":0}" \
        || { tail -2 "$tmp/out"; fail "$prog: the JSON output does not end with its end record"; }
done
# -h and --version to a full or closed stdout, run directly (no launcher).
rc=0; "$PT2PT/umb_latency" -h >/dev/full 2>"$tmp/err" || rc=$?
[ $rc -eq 1 ] && grep -q "^umb_latency: cannot write the results to standard output" "$tmp/err" || { cat "$tmp/err"; fail "-h >/dev/full: exit $rc"; }
rc=0; "$PT2PT/umb_latency" --version >&- 2>"$tmp/err" || rc=$?
[ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "umb_latency: standard output is closed: nowhere to write the results" ] \
    || { cat "$tmp/err"; fail "--version with stdout closed: exit $rc"; }
exit 0
