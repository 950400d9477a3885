"""The readings of the single-node drivers (programs.txt's driver family),
beside those of tests/gpu/judge.py, which dispatches them:
the copies against the link the header reports, the unified-memory
policies against each other and the memory's peak, and what CUPTI counted.
"""
import math

from judge import header, objects, results


def copy_pinned(path):
    """umb_copy pinned 256 MiB each way: above 0 and at most the link the header reports (its maximum generation
    and width). The share of the link is printed, not judged: a shared host's link gave pinned device-to-host
    copies 27.0 and then 52.2 GB/s in the same minute (docs/method.md, "What tests/gpu/physics.sh asserts")."""
    link = header(path)["gpus"][0]["link_limit_gbs"]
    assert link and link > 0, "the header gives no link limit"
    rows = results(path)
    assert {r["direction"] for r in rows} == {"htod", "dtoh"}, rows
    for r in rows:
        pct = 100 * r["median_gbs"] / link
        print("pinned %s: %.2f GB/s, %.1f%% of the %.1f GB/s link" % (r["direction"], r["median_gbs"], pct, link))
        assert 0 < r["max_gbs"] <= link, "pinned %s: %.2f GB/s, above the %.1f GB/s link" % (r["direction"], r["max_gbs"], link)


def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2


def physics_um(*paths):
    """umb_um, each advice run in its own processes (a first touch each), the advices taking turns: accessed-by
    (remote mapped, no migration) reads faster than first-touch demand paging in run 1 in every turn, and its
    median run 1 faster than every demand run 1; no accessed-by run and no first demand run above the link the headers report;
    with --repeat 2 or more, demand paging's later runs read HBM, above twice the link. An umb_copy file among
    PATHS: its pinned copies at most the link, and accessed-by's share of them printed (not judged: the host's
    link speed varies run to run)."""
    runs, pinned, links = {"AB": [], "none": []}, [], set()
    for path in paths:
        head = header(path)
        links.add(head["gpus"][0]["link_limit_gbs"])
        for r in results(path):
            if r["program"] == "umb_copy":
                pinned.append(r)
                continue
            assert r["advice"] in runs, "%s: advice %r, expected AB (accessed-by) or none" % (path, r["advice"])
            assert r["prefetch"] == "none", "%s: prefetch %r: run 1 is no first touch" % (path, r["prefetch"])
            runs[r["advice"]].append([r["run%d_gibs" % i] for i in range(1, head["repetitions"] + 1)])
    assert len(links) == 1 and min(links) > 0, "the headers give no link limit, or several: %s" % sorted(links)
    link_gbs = links.pop()
    link = link_gbs * 1e9 / 2**30  # GiB/s, as umb_um's figures
    assert runs["AB"] and runs["none"], "%d accessed-by and %d demand-paging runs: need both" % (
        len(runs["AB"]), len(runs["none"]))
    ab, dem = [r[0] for r in runs["AB"]], [r[0] for r in runs["none"]]
    assert all(math.isfinite(x) for r in runs["AB"] + runs["none"] for x in r), "a rate that is no number: %r" % runs
    print("run 1, turn by turn: accessed-by %s GiB/s, demand paging %s GiB/s; link %.1f GiB/s"
          % (" ".join("%.1f" % x for x in ab), " ".join("%.1f" % x for x in dem), link))
    # The advices took turns (the files in turn order, each advice's apart):
    # a turn's two runs met the same link, whose speed moves between turns
    # (one H200: accessed-by 9.9, then 37.8 and 46.8 GiB/s; tests/data/gpu/h200x1).
    slower = [i + 1 for i, (a, d) in enumerate(zip(ab, dem)) if a <= d]
    assert not slower, "accessed-by's run 1 is not faster than demand paging's in turn(s) %s" % slower
    assert median(ab) > max(dem), "the median accessed-by run 1 (%.1f) is not faster than every demand run 1 (%.1f)" % (
        median(ab), max(dem))
    for r in pinned:
        print("pinned %s %.1f GiB/s: accessed-by reached %.0f%% of it" % (
            r["direction"], r["median_gbs"] * 1e9 / 2**30, 100 * median(ab) / (r["median_gbs"] * 1e9 / 2**30)))
        assert r["max_gbs"] <= link_gbs, "pinned %s above the link: %r" % (r["direction"], r)
    assert max(max(r) for r in runs["AB"]) <= link, "accessed-by above the link: %r" % runs["AB"]
    assert max(dem) <= link, "demand paging's first run above the link: %r" % dem
    later = [x for r in runs["none"] for x in r[1:]]
    if later:
        print("demand paging, later runs (from HBM): %s GiB/s" % " ".join("%.0f" % x for x in later))
        assert min(later) > 2 * link, "demand paging's later runs are not above twice the link: pages not on the GPU?"


def copy_all(path):
    """umb_copy, every combination: validated, ordered statistics, at most the link, Placed % on managed rows."""
    head, res = header(path), results(path)
    assert head["gpus"] and "combinations" in head, head
    seen = set()
    for r in res:
        assert r["validation"] == "pass", r
        assert r["median_gbs"] > 0 and r["min_gbs"] <= r["median_gbs"] <= r["max_gbs"], r
        assert r["link_pct"] is None or r["link_pct"] <= 100, r
        assert (r["placed_pct"] is not None) == r["memory"].startswith("managed"), r
        seen.add((r["memory"], r["direction"], r["method"]))
    for want in [("pinned", "htod", "ce"), ("pinned", "dtoh", "sm"), ("managed-host", "htod", "prefetch"),
                 ("managed-host", "htod", "demand"), ("managed-device", "dtoh", "demand"),
                 ("wc", "bidir", "ce"), ("device", "dtod", "sm"), ("registered", "dtoh", "ce")]:
        assert want in seen, (want, sorted(seen))
    print(len(res), "rows, all validated")


def copy_counters(path):
    """umb_copy -U: a managed-device prefetch to the host moves the buffer each repetition; pinned migrates nothing."""
    res = results(path)
    assert res, "no rows"
    for r in res:
        print(r["memory"], r["method"], "DtoH/rep", r["dtoh_bytes_per_rep"], "place HtoD/rep", r["place_htod_bytes_per_rep"])
        assert r["dtoh_bytes_per_rep"] is not None, "CUPTI counters off on a GPU machine: %r" % r
        if r["memory"] == "managed-device":
            assert r["dtoh_bytes_per_rep"] >= 1 << 20 and r["place_htod_bytes_per_rep"] >= 1 << 20, r
        else:
            assert r["dtoh_bytes_per_rep"] == 0 and r["htod_bytes_per_rep"] == 0, r


def um_rows(want, path):
    """umb_um / umb_oversub JSON: WANT rows, a passed check if any, every GiB/s in (0, the memory peak]."""
    objs = objects(path)
    head = objs[0]
    assert head["type"] == "header" and head["gpus"] and isinstance(head["gpus"], list) and "gpu" not in head, head
    peak = head["hbm_peak_gibs"]
    rows = [o for o in objs if o["type"] == "result" and "fastest_for" not in o]
    assert len(rows) == int(want), "%d rows, expected %s" % (len(rows), want)
    checks = [o for o in objs if o["type"] == "check"]
    assert len(checks) <= 1 and all(c["result"] == "pass" and c["runs"] >= 1 and c["failed"] == 0 for c in checks), checks
    for r in rows:
        rates = [v for k, v in r.items() if k.endswith("gibs")]
        assert rates, r
        for v in rates:
            assert v > 0 and (peak == 0 or v <= peak), "%r: %s GiB/s outside (0, %s]" % (r, v, peak)
    print(" ".join("%.1f" % v for k, v in rows[0].items() if k.endswith("gibs")))


def um_matrix(path):
    """umb_um --matrix: two summary rows, the fastest for a single pass and for repeated passes."""
    rows = [o for o in objects(path) if "fastest_for" in o]
    assert [r["fastest_for"] for r in rows] == ["single", "repeated"], rows
    for r in rows:
        assert r["type"] == "result" and r["gibs"] > 0 and r["demand_gibs"] > 0 and r["speedup"] > 0, r
        print("fastest for %s: advice %s, prefetch %s, %.2f GiB/s, %.1fx demand" % (r["fastest_for"], r["advice"], r["prefetch"], r["gibs"], r["speedup"]))


def um_counters(demand_path, accessed_path, prefetch_path, oversub_path):
    """--counters tell the policies apart: demand migrates on run 1, accessed-by reads in place, prefetch moves first."""
    size = 64 << 20
    demand, accessed, prefetch, over = (results(p)[0] for p in (demand_path, accessed_path, prefetch_path, oversub_path))
    for r in (demand, accessed, prefetch):
        print(r["advice"], r["prefetch"], "run1 HtoD", r["run1_htod_bytes"], "GPU flt", r["run1_gpu_fault_groups"],
              "prefetch HtoD", r["run1_place_htod_bytes"])
    assert demand["run1_htod_bytes"] is not None, "CUPTI counters off on a GPU machine"
    assert demand["run1_htod_bytes"] >= size // 2 and demand["run1_gpu_fault_groups"] > 0, demand
    assert accessed["run1_htod_bytes"] < size // 10, accessed
    assert prefetch["run1_place_htod_bytes"] >= size // 2 and prefetch["run1_htod_bytes"] < size // 10, prefetch
    assert over["htod_bytes"] > 0 and over["gpu_fault_groups"] > 0, over
    print("oversub demand HtoD", over["htod_bytes"], "of", over["accessed_bytes"], "bytes read")


READINGS = {
    "copy-pinned": copy_pinned, "physics-um": physics_um, "copy-all": copy_all, "copy-counters": copy_counters,
    "um-rows": um_rows, "um-matrix": um_matrix, "um-counters": um_counters,
}
