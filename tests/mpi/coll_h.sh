#!/bin/sh
# The collectives with H buffers on 2 and 4 ranks: OMB table, -f columns,
# -c on every rank, rotating root, JSON. Needs no GPU.
. "$top_srcdir/tests/lib.sh"
COLL=$top_builddir/mpi/collective

programs=$(programs_of collective)
[ -n "$programs" ] || fail "programs.txt lists no collective"
rooted=
for path in $programs; do
    prog=${path##*/}
    for np in 2 4; do
        run_mpi $np "$COLL/$prog" -m 4:64K -i 10 -x 2 -c -f --timeout 60
        expect_rc 0 "$prog -np $np"
        grep -q '^# Size *Avg Latency(us) *Min Latency(us) *Max Latency(us) *P50 Latency(us) *P99 Latency(us) *Iterations *Slowest rank *Validation$' "$tmp/out" \
            || fail "$prog: column line"
        grep -q "^# Ranks: $np$" "$tmp/out" || fail "$prog: ranks"
        [ $np -eq 4 ] && grep -q '^# Root: rank 0$' "$tmp/out" && rooted="$rooted $prog"
        grep -q '^# Buffers: all H$' "$tmp/out" || fail "$prog: buffers"
        # 15 sizes, 4 B to 64 KiB; min <= avg <= max over ranks' means; 10 iterations;
        # the slowest rank one of the np (OMB's columns in their places before it); Pass.
        awk -v np=$np '!/^#/ { n++; if ($1 != 2^(n+1) || !($3 <= $2 && $2 <= $4) || $2 <= 0 || $7 != 10 ||
                                        $8 !~ /^[0-9]+$/ || $8 >= np || $9 != "Pass") bad = 1 }
             END { exit !(n == 15 && !bad) }' "$tmp/out" || { cat "$tmp/out"; fail "$prog -np $np rows"; }
    done
done

# The collectives with a root (their header names it) take -k.
[ -n "$rooted" ] || fail "no collective names a root"
for prog in $rooted; do
    run_mpi 4 "$COLL/$prog" -m 4:1K -i 8 -c -k rotate
    expect_rc 0 "$prog -k rotate"
    grep -q '^# Root: rotating' "$tmp/out" || fail "$prog: rotating root in header"
    awk '!/^#/ { n++; if ($NF != "Pass") bad = 1 } END { exit !(n == 9 && !bad) }' "$tmp/out" || fail "$prog rotate rows"
    run_mpi 4 "$COLL/$prog" -m 4:1K -i 8 -c -k fixed:3
    expect_rc 0 "$prog -k fixed:3"
    grep -q '^# Root: rank 3$' "$tmp/out" || fail "$prog: fixed root in header"
done

run_mpi 4 "$COLL/umb_allgather" -m 1:256 -i 5 -c --format json
expect_rc 0 "allgather json"
json_check --rows 9 --validation pass --header collective loop units ranks buffers \
    --keys avg_latency_us slowest_rank min_latency_us max_latency_us p50_latency_us p99_latency_us iterations \
    --positive avg_latency_us iterations
# Each row names its slowest rank (issue 52): one of the 4, whose mean is Max.
"$PYTHON3" - "$tmp/out" <<'PY' || fail "allgather json: slowest_rank"
import json, sys
rows = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "result"]
assert rows and all(type(o["slowest_rank"]) is int and 0 <= o["slowest_rank"] < 4 for o in rows), rows
assert all(o["min_latency_us"] <= o["avg_latency_us"] <= o["max_latency_us"] for o in rows), rows
PY

# OMB's -d managed: managed on every rank. Without a GPU that is exit 77.
run_mpi 2 "$COLL/umb_bcast" -m 8 -i 5 -d managed
if [ "$rc" -eq 77 ]; then
    grep -q 'need a CUDA GPU' "$tmp/err" || fail "-d managed without a GPU: message"
else
    expect_rc 0 "-d managed"
    grep -q '^# Buffers: all MH$' "$tmp/out" || fail "-d managed means MH everywhere"
fi
exit 0
