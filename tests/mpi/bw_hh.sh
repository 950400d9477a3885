#!/bin/sh
# umb_bw, umb_bibw (2 ranks) and umb_mbw_mr (2 and 4 ranks) with H H: the
# OMB table, -f and -c, CSV and JSON. Needs no GPU. The programs come from
# programs.txt: the two-rank point-to-point programs whose column is OMB's
# bandwidth, and those of an even number of ranks (pairs).
. "$top_srcdir/tests/lib.sh"

n=0
for path in $(programs family=pt2pt ranks=2 --path); do
    prog=${path##*/}
    run_mpi 2 "$PT2PT/$prog" -m 1:64K -i 20 -x 2 --timeout 60
    expect_rc 0 "$prog H H"
    grep -q '^# Size *Bandwidth (MB/s)$' "$tmp/out" || continue  # a latency program
    n=$((n + 1))
    grep -q '^# Window: 64$' "$tmp/out" || fail "$prog: header lacks the window"
    grep -q '^# Loop: classic OMB' "$tmp/out" || fail "$prog: H H should use the classic loop"
    # A figure with two decimals per size: on a loaded 2-core machine the
    # first size's windows can wait for a time slice and print 0.00, so the
    # same run in JSON checks every size's bandwidth is above 0 at full precision.
    awk '!/^#/ { n++; if ($1 != 2^(n-1) || NF != 2 || $2 !~ /^[0-9]+\.[0-9][0-9]$/) bad = 1 } END { exit !(n == 17 && !bad) }' "$tmp/out" \
        || { cat "$tmp/out"; fail "$prog rows"; }
    # (One launch for both JSON cases: the header's fields and every row's
    # columns, with the bandwidths above 0, over 1 B to 64 KiB.)
    run_mpi 2 "$PT2PT/$prog" -m 1:64K -i 20 -x 2 --timeout 60 --format json
    expect_rc 0 "$prog H H json, 1 B to 64 KiB"
    json_check --rows 17 --header window window_buffers loop units ranks \
        --keys avg_bandwidth_mbs min_bandwidth_mbs max_bandwidth_mbs p50_bandwidth_mbs p99_bandwidth_mbs iterations \
        --positive avg_bandwidth_mbs p99_bandwidth_mbs

    # -f -c, a small window: every slot has its own buffer and is checked.
    run_mpi 2 "$PT2PT/$prog" -m 1K:1M -i 5 -x 1 -W 8 -f -c --timeout 60
    expect_rc 0 "$prog -f -c"
    grep -q '^# Window buffers: 8 ' "$tmp/out" || fail "$prog -c: one buffer per slot"
    grep -q '^# Loop: handshake' "$tmp/out" || fail "$prog -c: handshake loop"
    # P99 <= P50 <= Max, Min <= P99, Min <= Avg <= Max, Pass.
    awk '!/^#/ { n++; if (!($3 <= $6 && $6 <= $5 && $5 <= $4 && $3 <= $2 && $2 <= $4 && $7 == 5 && $8 == "Pass")) bad = 1 }
         END { exit !(n == 11 && !bad) }' "$tmp/out" || { cat "$tmp/out"; fail "$prog -f -c rows"; }

done

[ "$n" -ge 2 ] || fail "programs.txt lists $n two-rank bandwidth programs (umb_bw and umb_bibw)"

pairs=$(programs family=pt2pt ranks=even)
[ -n "$pairs" ] || fail "programs.txt lists no point-to-point program of pairs"
for prog in $pairs; do for np in 2 4; do
    run_mpi $np "$PT2PT/$prog" -m 1:4K -i 10 -x 2 -f -c --timeout 60
    expect_rc 0 "$prog -np $np"
    grep -q "^# Pairs: $((np / 2))$" "$tmp/out" || fail "$prog -np $np: pairs"
    grep -q '^# Size *MB/s *Messages/s *Min Bandwidth (MB/s)' "$tmp/out" || fail "$prog columns"
    awk '!/^#/ { n++; if ($NF != "Pass") bad = 1 } END { exit !(n == 13 && !bad) }' "$tmp/out" \
        || { cat "$tmp/out"; fail "$prog -np $np rows"; }
    # Messages/s = MB/s x 10^6 / size (both OMB's sums over senders), from
    # the JSON's full precision rather than the table's two decimals.
    run_mpi $np "$PT2PT/$prog" -m 1:4K -i 10 -x 2 --format json --timeout 60
    expect_rc 0 "$prog -np $np json"
    "$PYTHON3" - "$tmp/out" <<'PY' || fail "$prog -np $np: Messages/s is not MB/s x 10^6 / size"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"result"' in l]
assert len(rows) == 13, len(rows)
for r in rows:
    want = r["avg_bandwidth_mbs"] * 1e6 / r["size"]
    assert r["messages_per_s"] > 0 and abs(r["messages_per_s"] - want) <= 1e-4 * want, r
PY
done; done
run_mpi 4 "$PT2PT/umb_mbw_mr" -m 64:128 -i 10 --format csv
expect_rc 0 "umb_mbw_mr csv"
grep -q '^size,avg_bandwidth_mbs,messages_per_s,min_bandwidth_mbs,max_bandwidth_mbs,p50_bandwidth_mbs,p99_bandwidth_mbs,iterations,validation$' "$tmp/out" \
    || fail "umb_mbw_mr csv columns"
exit 0
