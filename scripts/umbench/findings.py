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


def _tally(runs):
    """Each program finding once per program, pair, configuration and
    finding (the last round's wording), with how often it fired: `seen`
    [k, n], k of the n finished rounds of that program, pair and
    configuration; `rows_seen` {rows: rounds}; `confirmed` when it fired in
    every round naming the same rows (docs/output.md, "Findings over rounds")."""
    found, rounds = {}, {}
    for r in (r for r in runs if results.finished(r)):
        key = (r["program"], r["buffers"], r.get("config", "default"))
        rounds.setdefault(key, set()).add(r.get("round", 1))
        for f in r.get("findings", []):
            x = found.setdefault(key + (f["finding"],), {"rounds": set(), "rows_seen": {}})
            x.update(f, program=key[0], buffers=key[1], config=key[2], source="program")
            x["rounds"].add(r.get("round", 1))
            x["rows_seen"][str(f.get("rows"))] = x["rows_seen"].get(str(f.get("rows")), 0) + 1
    for key, x in found.items():
        k, n = len(x.pop("rounds")), len(rounds[key[:3]])
        x.update(seen=[k, n], confirmed=k == n and len(x["rows_seen"]) == 1)
    return found


def gather(folder, runs, problems):
    """The programs' findings over the rounds (_tally), then the rule that
    needs two runs: managed buffers staged through the host at sizes where
    D buffers of the same program and configuration went GPU to GPU."""
    found = _tally(runs)
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


def report(findings, say=print):
    """The confirmed findings, then those seen in some rounds only, apart."""
    if not findings:
        return
    say("umb-run: findings (run.json has them whole):")
    apart = [f for f in findings if not f.get("confirmed", True)]
    for f in [f for f in findings if f.get("confirmed", True)] + apart:
        seen = f.get("seen", [1, 1])
        note = "" if f.get("confirmed", True) else "  (seen in %d of %d rounds%s; not confirmed)" % (
            seen[0], seen[1], ", rows " + " / ".join(sorted(f["rows_seen"])) if len(f.get("rows_seen", {})) > 1 else "")
        if f is (apart[0] if apart else None):
            say("umb-run: findings seen in some rounds only:")
        say("  %s %s%s [%s] %s%s" % (f["program"], f["buffers"], "" if f["config"] == "default" else " (%s)" % f["config"],
                                     f["rows"], f["finding"], note))


def of_side(side, problems):
    """{(program, buffers, finding): rows} of one side: umb-run's summary in
    run.json for its configuration, else the programs' own records."""
    if "findings" in side.manifest:  # the confirmed ones (all, in folders from before the tally)
        return {(f.get("program"), f.get("buffers"), f.get("finding")): f.get("rows")
                for f in side.manifest["findings"] if f.get("config", "default") == side.config and f.get("confirmed", True)}
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
