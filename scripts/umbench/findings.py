"""Findings over a folder's results (docs/output.md, "Findings"): the
programs' own, gathered once per program, pair and configuration, and the
rule that needs two runs."""
import os

from . import results


def of_file(path, problems):
    """The program's own findings in one result file."""
    return [{k: o.get(k) for k in ("finding", "rows", "what", "try")}
            for _, o in results.read_objects(path, problems) if o["type"] == "finding" and isinstance(o.get("finding"), str)]


def _paths(folder, runs, problems):
    """{(program, pair, config): {size: (path, value)}} of the finished runs."""
    paths = {}
    for r in runs:
        if not results.finished(r):
            continue
        for _, o in results.read_objects(os.path.join(folder, r["file"]), problems):
            if o["type"] == "result" and isinstance(o.get("path"), str) and o["path"] != "unknown" and isinstance(o.get("size"), int):
                v = o.get("avg_bandwidth_mbs", o.get("avg_latency_us"))
                paths.setdefault((r["program"], r["buffers"], r.get("config", "default")), {})[o["size"]] = (o["path"], v)
    return paths


def gather(folder, runs, problems):
    """Every run's findings once per program, pair, configuration and
    finding (the last round's wording), then the rule that needs two runs:
    managed buffers staged through the host at sizes where D buffers of the
    same program and configuration went GPU to GPU."""
    found = {}
    for r in runs:
        for f in r.get("findings", []):
            found[(r["program"], r["buffers"], r.get("config", "default"), f["finding"])] = dict(
                f, program=r["program"], buffers=r["buffers"], config=r.get("config", "default"), source="program")
    paths = _paths(folder, runs, problems)
    for (prog, pair, cfg), rows in sorted(paths.items()):
        dev = paths.get((prog, pair.replace("MD", "D").replace("MH", "D"), cfg))
        if "M" not in pair or not dev:
            continue
        sizes = sorted(s for s, (p, _) in rows.items() if p == "staged" and dev.get(s, ("",))[0] == "direct")
        if sizes:
            found[(prog, pair, cfg, "staged-where-device-direct")] = _staged_where_direct(prog, pair, cfg, sizes, rows, dev)
    return [found[k] for k in sorted(found)]


def _staged_where_direct(prog, pair, cfg, sizes, rows, dev):
    big = sizes[-1]
    (_, mv), (_, dv) = rows[big], dev[big]
    ratio = ("; at %d bytes %s %.6g against D D %.6g" % (big, pair, mv, dv)) if mv and dv else ""
    span = "%d-%d" % (sizes[0], big) if len(sizes) > 1 else str(big)
    return {"finding": "staged-where-device-direct", "program": prog, "buffers": pair, "config": cfg, "source": "umb-run",
            "rows": span,
            "what": "managed buffers (%s) went through host memory at sizes %s, where D buffers of the same ranks went "
                    "GPU to GPU%s" % (pair, span, ratio),
            "try": "the library classes managed pages apart from device memory: see the staged-managed finding's advice, "
                   "or umb-tune over this pair"}


def report(findings):
    if not findings:
        return
    print("umb-run: findings (run.json has them whole):")
    for f in findings:
        print("  %s %s%s [%s] %s" % (f["program"], f["buffers"], "" if f["config"] == "default" else " (%s)" % f["config"],
                                    f["rows"], f["finding"]))


def of_side(side, problems):
    """{(program, buffers, finding): rows} of one side: umb-run's summary in
    run.json for its configuration, else the programs' own records."""
    if "findings" in side.manifest:
        return {(f.get("program"), f.get("buffers"), f.get("finding")): f.get("rows")
                for f in side.manifest["findings"] if f.get("config", "default") == side.config}
    found = {}
    files, _ = results.finished_files(side.folder, side.manifest or None, problems)
    for path in files:
        objs = [o for _, o in results.read_objects(path, problems)]
        cfg = next((o.get("config") for o in objs if o["type"] == "run"), None) or "default"
        for o in objs:
            if o["type"] == "finding" and cfg == side.config:
                found[(o.get("program"), o.get("buffers"), o.get("finding"))] = o.get("rows")
    return found


def diff(sides, want, problems):
    """Prints the findings that some sides have and others not."""
    per = [of_side(side, problems) for side in sides]
    keys = sorted({k for f in per for k in f if want.search("%s %s" % k[:2])}, key=str)
    differ = [k for k in keys if len({k in f for f in per}) > 1]
    print("\n## Findings%s" % (" that differ between the sides" if differ else ""))
    if not keys:
        print("none on any side")
    elif not differ:
        print("the same %d on every side" % len(keys))
    for k in differ:
        where = ", ".join("[%d] %s" % (i, f[k]) for i, f in enumerate(per) if k in f)
        absent = ", ".join("[%d]" % i for i, f in enumerate(per) if k not in f)
        print("%-13s %-18s %-28s in %s; not in %s" % (k[0], k[1], k[2], where, absent))
