#!/bin/sh
# --path is real (GPU machine; skipped, 77, without a GPU or CUPTI):
#  1. MD MD through this build's MPI: when it is not CUDA-aware, every
#     round trip shows at least the message's size in staging copies or
#     page migration (--counters), and the row names that path.
#  2. D D through a CUDA-aware stack, where UMB_AWARE_MPIEXEC (the launcher
#     with its flags) and UMB_AWARE_PT2PT (that build's mpi/pt2pt) name one
#     (tests/gpu/run-all why): from 64 KiB up the bytes go GPU to GPU
#     (device-to-device or peer copies, at least the message per one-way
#     trip) and the row says "direct".
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot read JSON"
grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h" || skip "built without CUPTI"
lat=$PT2PT/umb_latency
run_mpi 2 "$lat" --path -U -m 8:256K -i 20 -x 2 --format json MD MD
[ "$rc" -ne 77 ] || skip "no GPU: $(cat "$tmp/err")"
expect_rc 0 "umb_latency --path -U MD MD"
"$PYTHON3" - "$tmp/out" <<'PY' || fail "MD MD path (above)"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
head = objs[0]
aware = head["cuda_awareness"]["verdict"]
rows = [o for o in objs if o["type"] == "result"]
assert len(rows) == 16, "%d rows" % len(rows)
for r in rows:
    staged = r["copy_htod_bytes_per_iter"] + r["copy_dtoh_bytes_per_iter"]
    moved = (r["htod_bytes_per_iter"] or 0) + (r["dtoh_bytes_per_iter"] or 0)
    print("MD MD %7d B (CUDA-aware: %s): path %-8s copies HtoD+DtoH %9.0f B/it, migrated %9.0f B/it"
          % (r["size"], aware, r["path"], staged, moved))
    assert r["path"] != "unknown", "CUPTI recorded no copies: %r" % r
    if aware == "no":
        assert staged + moved >= r["size"], "less than the message moved per round trip: %r" % r
        assert r["path"] in ("migrated", "staged", "mixed"), r
print("ok: %d MD MD rows" % len(rows))
PY
if [ -n "${UMB_AWARE_MPIEXEC:-}" ] && [ -n "${UMB_AWARE_PT2PT:-}" ]; then
    rc=0
    timeout "$RUN_LIMIT" $UMB_AWARE_MPIEXEC -np 2 "$UMB_AWARE_PT2PT/umb_latency" --path -m 8:4M -i 20 -x 2 --format json D D \
        </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    expect_rc 0 "umb_latency --path D D through $UMB_AWARE_MPIEXEC"
    "$PYTHON3" - "$tmp/out" <<'PY' || fail "D D path (above)"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
rows = [o for o in objs if o["type"] == "result"]
for r in rows:
    gpu = r["copy_dtod_bytes_per_iter"] + r.get("copy_ptop_bytes_per_iter", 0)
    print("D D %7d B: path %-7s DtoD+PtoP %9.0f B/it, HtoD %9.0f, DtoH %9.0f"
          % (r["size"], r["path"], gpu, r["copy_htod_bytes_per_iter"], r["copy_dtoh_bytes_per_iter"]))
    if r["size"] >= 65536:
        assert r["path"] == "direct" and gpu >= r["size"], "not GPU to GPU above 64 KiB: %r" % r
tables = [o for o in objs if o["type"] == "ucx_protocol"]
print("UCX's tables: %d ranges, e.g. %s" % (len(tables), tables[:1]))
print("ok: %d D D rows, direct from 64 KiB" % len(rows))
PY
else
    echo "D D part not run: no CUDA-aware stack named (UMB_AWARE_MPIEXEC, UMB_AWARE_PT2PT)"
fi
exit 0
