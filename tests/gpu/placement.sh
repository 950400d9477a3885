#!/bin/sh
# The placement check is real (GPU machine). A touch kernel, with the CPU
# writing the pages between rounds (a ping-pong through an MPI that is not
# CUDA-aware does), leaves small MD pages on the host: --place-check
# observe shows under 100% held. By default (enforce) the same run places
# them again, and its latency is not host speed. MH always holds. Without
# pagemap the header says so. Skips without a GPU.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency
bcast=$top_builddir/mpi/collective/umb_bcast
common="-m 4K:4K -i 300 -x 20 --format json --timeout 120"

run_mpi 2 "$lat" $common H H
expect_rc 0 "umb_latency H H"
cp "$tmp/out" "$tmp/hh.jsonl"
run_mpi 2 "$lat" $common --place-check observe MD MD
[ "$rc" -ne 77 ] || skip "no GPU: $(cat "$tmp/err")"
expect_rc 0 "umb_latency --place-check observe MD MD"
cp "$tmp/out" "$tmp/observe.jsonl"
run_mpi 2 "$lat" $common MD MD
expect_rc 0 "umb_latency MD MD (enforce)"
cp "$tmp/out" "$tmp/enforce.jsonl"
run_mpi 2 "$lat" $common MH MH
expect_rc 0 "umb_latency MH MH"
cp "$tmp/out" "$tmp/mh.jsonl"
export UMB_PAGEMAP=/nonexistent/pagemap  # as if /proc/self/pagemap could not be read
run_mpi 2 "$lat" -m 4K:4K -i 50 -x 5 --format json --place-with prefetch MD MD
unset UMB_PAGEMAP
expect_rc 0 "umb_latency MD MD without pagemap"
cp "$tmp/out" "$tmp/nopagemap.jsonl"
run_mpi 2 "$lat" -m 4K:64K -i 100 -x 10 --format json --counters MD MD
expect_rc 0 "umb_latency --counters MD MD"
cp "$tmp/out" "$tmp/counters.jsonl"
run_mpi 4 "$bcast" -m 8:8 -i 300 -x 20 --format json --timeout 120 --buffer H
expect_rc 0 "umb_bcast --buffer H"
cp "$tmp/out" "$tmp/bcast-h.jsonl"
run_mpi 4 "$bcast" -m 8:8 -i 300 -x 20 --format json --timeout 120 --root-buffer MD --buffer MH
expect_rc 0 "umb_bcast --root-buffer MD --buffer MH"
cp "$tmp/out" "$tmp/bcast-md.jsonl"

"$PYTHON3" - "$tmp" <<'PY' || fail "placement checks (above)"
import json, sys
d = sys.argv[1]
def load(name):
    return [json.loads(l) for l in open("%s/%s.jsonl" % (d, name))]
def result(name, size=None):
    rows = [o for o in load(name) if o["type"] == "result" and (size is None or o["size"] == size)]
    assert rows, name
    return rows[0]
def header(name):
    return load(name)[0]
bad = 0
def check(ok, what):
    global bad
    print("%s  %s" % ("PASS" if ok else "FAIL", what)); bad |= not ok

hh, ob, en, mh = result("hh"), result("observe"), result("enforce"), result("mh")
print("H H p50 %.2f us; observe: held %.1f%%, held p50 %s, not-held p50 %s; enforce: held %.1f%%, re-placed %d, "
      "not placed %d, p50 %.2f us, place p50 %.2f us, check p50 %.2f us"
      % (hh["p50_latency_us"], ob["placed_pct"], ob["held_p50_latency_us"], ob["unheld_p50_latency_us"],
         en["placed_pct"], en["replacements"], en["not_placed"], en["p50_latency_us"], en["place_p50_us"], en["check_p50_us"]))
check(ob["placed_pct"] < 100, "kernel placement at 4 KiB with the CPU writing between rounds: observe shows under 100%% held (%.1f%%)" % ob["placed_pct"])
check(ob["held_n"] + ob["unheld_n"] == ob["iterations"], "observe: held and not-held iterations add up to the row's")
check(ob["replacements"] == 0, "observe places nothing again")
check(en["placed_pct"] == 100 or en["replacements"] > 0, "enforce: placed 100%% or re-placed (%.1f%%, %d)" % (en["placed_pct"], en["replacements"]))
check(en["not_placed"] == 0 and en["iterations"] == 300, "enforce: every iteration placed and kept")
check(en["p50_latency_us"] > 3 * hh["p50_latency_us"], "enforce: MD MD p50 %.2f us is not host speed (H H %.2f us)" % (en["p50_latency_us"], hh["p50_latency_us"]))
check("enforce" in header("enforce")["placement_check"] and "observe" in header("observe")["placement_check"], "the header names the check")
check(header("enforce")["uvm_thrashing"].startswith("enable="), "the header shows the driver's thrashing parameters: " + header("enforce")["uvm_thrashing"])
check(mh["placed_pct"] == 100 and mh["replacements"] == 0, "MH MH: every CPU placement held")
np_ = result("nopagemap")
check("unavailable" in header("nopagemap")["placement_check"] and np_["placed_pct"] is None, "without pagemap: the header says so and Placed % is null")
rp = [o for o in load("enforce") if o["type"] == "rank_placement"]
check(len(rp) == 2 and all(o["managed"] for o in rp), "a placement row per rank")
for size in (4096, 65536):
    c = result("counters", size)
    check(c["dtoh_bytes_per_iter"] >= size, "--counters MD MD %d B: %.0f B device-to-host per round trip (at least the message)" % (size, c["dtoh_bytes_per_iter"]))
bh, bm = result("bcast-h"), result("bcast-md")
check(bm["p50_latency_us"] > 3 * bh["p50_latency_us"], "umb_bcast root MD at 8 B: p50 %.2f us is not host speed (H %.2f us)" % (bm["p50_latency_us"], bh["p50_latency_us"]))
check(bm["placed_pct"] is not None, "umb_bcast: Placed %% reported (%.1f%%, re-placed %d)" % (bm["placed_pct"] or -1, bm["replacements"] or 0))
sys.exit(bad)
PY
exit 0
