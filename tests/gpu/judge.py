"""The readings of the GPU tests: what each test in tests/gpu asserts about
the programs' output, apart from the runs that make it, so that CI runs the
same readings on output recorded on a GPU machine (tests/gpu/recorded.sh,
tests/data/gpu) and a renamed field fails there, not only on the next GPU run.

usage: judge.py NAME ARG...   (the tests call it through judge in tests/lib.sh)

Exit status: 0 the reading holds, 1 it does not (the reason on stderr), 2
bad use.
Each reading is a function below, named in READINGS; tests/gpu/judge_node.py
holds those of one rank per GPU, tests/gpu/judge_drivers.py those of the
single-node drivers.
"""
import inspect
import json
import math
import re
import sys


def objects(path):
    """A JSON Lines file's objects, the end record included; a line that is
    JSON but no object is an error, as a line that is not JSON."""
    with open(path) as f:
        out = [json.loads(l) for l in f if l.strip()]
    bad = next((o for o in out if not isinstance(o, dict)), None)
    if bad is not None:
        raise ValueError("%s: a line that is no JSON object: %.60r" % (path, bad))
    return out


def results(path, size=None):
    return [o for o in objects(path) if o.get("type") == "result" and (size is None or o["size"] == size)]


def header(path):
    """The program's header: its first object, or the first after umb-run's run record."""
    heads = [o for o in objects(path)[:2] if o.get("type") == "header"]
    assert heads, "no header among the first objects: %r" % objects(path)[:2]
    return heads[0]


def link_gbs(text):
    """"Gen5 x16 (max Gen5 x16)": the link's maximum, one direction, GB/s (0 if unknown); the current
    generation only where no maximum is given (an idle link may train down: the maximum bounds any transfer)."""
    m = re.search(r"max Gen(\d) x(\d+)", text or "") or re.match(r"Gen(\d) x(\d+)", text or "")
    if not m:
        return 0
    gts = {1: 2.5, 2: 5, 3: 8, 4: 16, 5: 32, 6: 64}[int(m.group(1))]
    return gts * int(m.group(2)) * (0.8 if int(m.group(1)) < 3 else 128 / 130) / 8


def physics_mdmd(hh_path, md_path):
    """MD MD through an MPI that is not CUDA-aware is slower than H H by the message's crossing of the link."""
    hh, head, md = results(hh_path)[0], header(md_path), results(md_path)[0]
    aware = head["cuda_awareness"]["verdict"]
    if aware != "no":
        print("not judged: this MPI may be CUDA-aware (%s)" % head["cuda_aware"])
        return
    link = max(link_gbs(r.get("gpu_pcie")) for r in head["ranks"])
    assert link, "the header gives no link rate"
    cross_us = md["size"] / (link * 1e9) * 1e6
    gap = md["p50_latency_us"] - hh["p50_latency_us"]
    print("%d B one-way p50: H H %.2f us, MD MD %.2f us, gap %.2f us, the message across the link %.2f us"
          % (md["size"], hh["p50_latency_us"], md["p50_latency_us"], gap, cross_us))
    assert gap >= cross_us, "MD MD is not slower than H H by the message's crossing of the link"


def counters(md_path, hh_path):
    """--counters: an MD send through a non-aware MPI migrates the message each iteration; H H shows no GPU faults."""
    md = [o for o in objects(md_path) if o["type"] == "rank_counters"]
    hh = [o for o in objects(hh_path) if o["type"] == "rank_counters"]
    assert md and hh, "no rank_counters records"
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


def path_md(path, rows="16"):
    """--path MD MD: through a non-aware MPI every round trip stages or migrates at least the message."""
    aware = header(path)["cuda_awareness"]["verdict"]
    res = results(path)
    assert len(res) == int(rows), "%d rows, expected %s" % (len(res), rows)
    for r in res:
        staged = r["copy_htod_bytes_per_iter"] + r["copy_dtoh_bytes_per_iter"]
        moved = (r["htod_bytes_per_iter"] or 0) + (r["dtoh_bytes_per_iter"] or 0)
        print("MD MD %7d B (CUDA-aware: %s): path %-8s copies HtoD+DtoH %9.0f B/it, migrated %9.0f B/it"
              % (r["size"], aware, r["path"], staged, moved))
        assert r["path"] != "unknown", "CUPTI recorded no copies: %r" % r
        if aware == "no":
            assert staged + moved >= r["size"], "less than the message moved per round trip: %r" % r
            assert r["path"] in ("migrated", "staged", "mixed"), r


def path_dd(path, direct_from="65536"):
    """--path D D through a CUDA-aware MPI: from DIRECT_FROM bytes up, GPU to GPU with at least the message."""
    objs = objects(path)
    res = [o for o in objs if o.get("type") == "result"]
    assert res, "no rows"
    for r in res:
        gpu = r["copy_dtod_bytes_per_iter"] + (r.get("copy_ptop_bytes_per_iter") or 0)
        print("D D %7d B: path %-7s DtoD+PtoP %9.0f B/it, HtoD %9.0f, DtoH %9.0f"
              % (r["size"], r["path"], gpu, r["copy_htod_bytes_per_iter"], r["copy_dtoh_bytes_per_iter"]))
        if r["size"] >= int(direct_from):
            assert r["path"] == "direct" and gpu >= r["size"], "not GPU to GPU from %s B: %r" % (direct_from, r)
    tables = [o for o in objs if o.get("type") == "ucx_protocol"]
    print("UCX's tables: %d ranges" % len(tables))


def placement(hh, observe, enforce, mh, nopagemap, counted, bcast_h, bcast_md):
    """The placement check: observe shows small MD pages left on the host, enforce places them again, MH holds."""
    bad = []

    def check(ok, what):
        print("%s  %s" % ("PASS" if ok else "FAIL", what))
        if not ok:
            bad.append(what)
    h, ob, en, m = results(hh)[0], results(observe)[0], results(enforce)[0], results(mh)[0]
    print("H H p50 %.2f us; observe: held %.1f%%, held p50 %s, not-held p50 %s; enforce: held %.1f%%, re-placed %d, "
          "not placed %d, p50 %.2f us, place p50 %.2f us, check p50 %.2f us"
          % (h["p50_latency_us"], ob["placed_pct"], ob["held_p50_latency_us"], ob["unheld_p50_latency_us"],
             en["placed_pct"], en["replacements"], en["not_placed"], en["p50_latency_us"], en["place_p50_us"], en["check_p50_us"]))
    check(ob["placed_pct"] < 100, "kernel placement at 4 KiB, pages preferred on the CPU: observe under 100%% held (%.1f%%)" % ob["placed_pct"])
    check(ob["held_n"] + ob["unheld_n"] == ob["iterations"], "observe: held and not-held iterations add up to the row's")
    check(ob["replacements"] == 0, "observe places nothing again")
    check(en["placed_pct"] == 100 or en["replacements"] > 0, "enforce: placed 100%% or re-placed (%.1f%%, %d)" % (en["placed_pct"], en["replacements"]))
    check(en["not_placed"] == 0 and en["iterations"] == 300, "enforce: every iteration placed and kept")
    check(en["p50_latency_us"] > 3 * h["p50_latency_us"], "enforce: MD MD p50 %.2f us is not host speed (H H %.2f us)" % (en["p50_latency_us"], h["p50_latency_us"]))
    check("enforce" in header(enforce)["placement_check"] and "observe" in header(observe)["placement_check"], "the header names the check")
    check(header(enforce)["uvm_thrashing"].startswith("enable="), "the header shows the driver's thrashing parameters")
    check(m["placed_pct"] == 100 and m["replacements"] == 0, "MH MH: every CPU placement held")
    check("unavailable" in header(nopagemap)["placement_check"] and results(nopagemap)[0]["placed_pct"] is None,
          "without pagemap: the header says so and Placed % is null")
    rp = [o for o in objects(enforce) if o["type"] == "rank_placement"]
    check(len(rp) == 2 and all(o["managed"] for o in rp), "a placement row per rank")
    for size in (4096, 65536):
        c = results(counted, size)[0]
        check(c["dtoh_bytes_per_iter"] >= size, "--counters MD MD %d B: %.0f B device-to-host per round trip" % (size, c["dtoh_bytes_per_iter"]))
    bh, bm = results(bcast_h)[0], results(bcast_md)[0]
    check(bm["p50_latency_us"] > 3 * bh["p50_latency_us"], "umb_bcast root MD at 8 B: p50 %.2f us is not host speed (H %.2f us)" % (bm["p50_latency_us"], bh["p50_latency_us"]))
    check(bm["placed_pct"] is not None, "umb_bcast: Placed % reported")
    assert not bad, "%d placement checks failed" % len(bad)


def precision(path):
    """The precision default: every row met +-5% or is named at the end; one placement record per rank and row."""
    objs = objects(path)
    head, rows = objs[0], [o for o in objs if o.get("type") == "result"]
    rec = [o for o in objs if o.get("type") == "precision"]
    assert "the default for managed buffers" in head["precision"], head.get("precision")
    assert len(rows) == 11 and len(rec) == 1 and rec[0]["target_pct"] == 5, rec
    missed = {m["size"] for m in rec[0]["not_converged"]}
    for r in rows:
        p = r["precision_pct"]
        assert (p is not None and p <= 5) == (r["size"] not in missed), (r, missed)
        assert r["placed_pct"] is not None and r["not_placed"] is not None, r
    per_rank = [o for o in objs if o.get("type") == "rank_placement"]
    assert len(per_rank) == 2 * len(rows), len(per_rank)
    by_size = {r["size"]: r for r in rows}
    for o in per_rank:
        r = by_size[o["size"]]
        assert o["records"] == r["iterations"] + r["not_placed"], (o, r)
    for r in rows:
        print("%-6d %10.2f %8s %10d" % (r["size"], r["avg_latency_us"], r["precision_pct"], r["iterations"]))
    print("not converged:", sorted(missed) or "none")


def launch_share(path):
    """--launch-budget: every pair's record names the launch's budget; a
    row has a figure exactly where iterations ran, and the rows without
    one are those its record lists as not measured (a label is a fact)."""
    objs = objects(path)
    rows = [o for o in objs if o.get("type") == "result"]
    recs = [o for o in objs if o.get("type") == "precision"]
    assert rows and recs and all(r["launch_budget_s"] > 0 for r in recs), recs
    listed = {(r["buffers"], m["size"]) for r in recs for m in r["not_converged"] if m.get("measured") is False}
    for r in rows:
        figures = [v for k, v in r.items() if k.startswith("avg_")]
        assert figures and all((v is None) == (r["iterations"] == 0) for v in figures), r
        assert ((r["buffers"], r["size"]) in listed) == (r["iterations"] == 0), (r, sorted(listed))
    print("%d rows, %d not measured, launch budget %s s" % (len(rows), len(listed), sorted({r["launch_budget_s"] for r in recs})))


def topo(path):
    """tests/tools/topo_probe: links, PCIe bounds, measured copies under their nominal bounds."""
    lines = [l.split() for l in open(path) if l.strip()]
    nvml = [l for l in lines if l[0] == "nvml"][0][1] == "yes"
    gpus = {int(l[1]): float(l[3]) for l in lines if l[0] == "gpu"}
    links = {int(l[2]): l for l in lines if l[0] == "link"}
    assert gpus and set(links) == set(gpus), (gpus, links)
    assert links[0][3] == "same" and "same GPU" in " ".join(links[0]), links[0]
    for j, l in links.items():
        if j and nvml:
            assert l[3] in ("nvlink", "pcie"), ("NVML is loaded, yet the link is", " ".join(l))
            assert float(l[4]) > 0, ("no nominal bound", " ".join(l))
    hosts = [l for l in lines if l[0] == "host"]
    assert len(hosts) == len(gpus), hosts
    for h in hosts:
        g, htod, dtoh = int(h[1]), float(h[2]), float(h[3])
        assert htod > 0 and dtoh > 0, ("not measured", " ".join(h))
        if not math.isnan(gpus[g]):
            assert htod < gpus[g] and dtoh < gpus[g], ("above the nominal PCIe bound", " ".join(h))
        print("GPU %d: HtoD %.1f, DtoH %.1f GB/s of %.1f nominal" % (g, htod, dtoh, gpus[g]))
    for p in (l for l in lines if l[0] == "peer"):
        j, gbs = int(p[2]), float(p[3])
        assert gbs > 0, ("peer copy not measured", " ".join(p))
        bound = float(links[j][4])
        if j and p[4] == "1" and not math.isnan(bound):
            assert gbs < bound, ("peer copy above the link's nominal bound %.1f" % bound, " ".join(p))
        print("0->%d: %.1f GB/s, link %s" % (j, gbs, links[j][3]))
    for c in (l for l in lines if l[0] == "compare"):
        assert c[3] in ("ok", "skipped"), " ".join(c)


READINGS = {
    "physics-mdmd": physics_mdmd, "counters": counters, "path-md": path_md, "path-dd": path_dd,
    "placement": placement, "precision": precision, "launch-share": launch_share, "topo": topo,
}
# The readings of one rank per GPU and of the single-node drivers, each
# module a READINGS of its own; imported when asked (after a replay has
# put its own objects() in this module's place).
PARTS = ("judge_node", "judge_drivers")


def all_readings():
    readings = dict(READINGS)
    for part in PARTS:
        readings.update(__import__(part).READINGS)
    return readings


def main(argv):
    readings = all_readings()
    if len(argv) < 2 or argv[1] not in readings:
        sys.stderr.write("judge.py: expected a reading, one of %s; got %r\n" % (", ".join(sorted(readings)), argv[1:2]))
        return 2
    reading, args = readings[argv[1]], argv[2:]
    try:  # the files a reading takes: a wrong count is bad use (2), not a failed reading
        inspect.signature(reading).bind(*args)
    except TypeError as e:
        sys.stderr.write("judge.py %s: %s; its arguments: %s\n" % (argv[1], e, inspect.signature(reading)))
        return 2
    try:
        rc = reading(*args)
    except (AssertionError, KeyError, IndexError, TypeError, ValueError, OSError, RecursionError) as e:
        sys.stderr.write("judge.py %s: %s: %s\n" % (argv[1], type(e).__name__, e))
        return 1
    return rc or 0


if __name__ == "__main__":
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    sys.exit(main(sys.argv))
