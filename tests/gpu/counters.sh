#!/bin/sh
# --counters are real (GPU machine): an MD send through an MPI that is not
# CUDA-aware migrates at least the message to the host every iteration, and
# what placement moves back is counted apart; host buffers show no GPU
# faults. Skips without a GPU or without CUPTI.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency
grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h" || skip "built without CUPTI"
run_mpi 2 "$lat" -U -m 4:64K -i 40 -x 4 --place-with prefetch --format json MD H
[ "$rc" -ne 77 ] || skip "no GPU: $(cat "$tmp/err")"
expect_rc 0 "umb_latency -U --place-with prefetch MD H"
cp "$tmp/out" "$tmp/md.jsonl"
run_mpi 2 "$lat" -U -m 4:4K -i 40 -x 4 --format json H H
expect_rc 0 "umb_latency -U H H"
"$PYTHON3" - "$tmp/md.jsonl" "$tmp/out" <<'PY' || fail "counter values (above)"
import json, sys
def rows(path):
    return [o for o in map(json.loads, open(path)) if o["type"] == "rank_counters"]
md, hh = rows(sys.argv[1]), rows(sys.argv[2])
assert md and hh
for o in md + hh:
    assert o["cupti"], "CUPTI counters did not start on this GPU machine: %r" % o
for o in md:
    it, size = o["iterations"], o["size"]
    if o["rank"] == 0:  # sends from MD: the CPU reads device-resident pages
        print("MD rank 0 size %7d: DtoH %9.0f B/it, placement HtoD %9.0f B/it, CPU faults %.1f/it"
              % (size, o["dtoh_bytes"] / it, o["place_htod_bytes"] / it, o["cpu_faults"] / it))
        assert o["dtoh_bytes"] >= size * it, "DtoH below the message size: %r" % o
        assert o["place_htod_bytes"] >= size * it, "placement did not move the pages back: %r" % o
        assert o["cpu_faults"] >= it, "no CPU fault per iteration: %r" % o
    else:  # H on rank 1
        assert o["gpu_fault_groups"] == 0 and o["htod_bytes"] == 0, o
for o in hh:
    assert o["gpu_fault_groups"] == 0 and o["htod_bytes"] == 0 and o["dtoh_bytes"] == 0, o
print("ok: %d MD rows, %d H H rows" % (len(md), len(hh)))
PY
exit 0
