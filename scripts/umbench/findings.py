"""Findings over a folder's results (docs/output.md, "Findings"): the
programs' own, gathered once per program, pair and configuration and
judged over the rounds (the inversion rule again on the pooled rows), and
the rule that needs two runs."""
import json
import os
import sys

from . import cli, like, paths, pattern, results, stats
from .shown import clip

# The inversion rule's margin and floor: util/core/findings.c's
# INVERSION_MARGIN and INVERSION_FLOOR_US (tests/scripts/umb_findings.sh
# checks that they agree), and its fewest iterations for a row's median.
INVERSION_MARGIN, INVERSION_FLOOR_US, INVERSION_MIN_ITERS = 0.20, 0.5, 10
TYPICAL = {"avg_latency_us": "p50_latency_us", "avg_bandwidth_mbs": "p50_bandwidth_mbs"}


def of_file(path, problems):
    """The program's own findings in one result file."""
    return [{k: o.get(k) for k in ("finding", "rows", "what", "try", "confidence")}
            for _, o in results.read_objects(path, problems) if o["type"] == "finding"]  # its schema: a "finding" string


def _tally(runs):
    """Each program finding once per program, pair, configuration and
    finding (the last round's wording), with how often it fired: `seen`
    [k, n], k of the n finished rounds of that program, pair and
    configuration; `rows_seen` {rows: rounds}; `confirmed` when it fired in
    every round naming the same rows, and where a round said it was seen
    once, in at least the rounds an interval needs (docs/output.md,
    "Findings over rounds")."""
    found, rounds = {}, {}
    for r in (r for r in runs if results.finished(r)):
        key = (r["program"], r["buffers"], r.get("config", "default"))
        rounds.setdefault(key, set()).add(r.get("round", 1))
        for f in r.get("findings", []):
            x = found.setdefault(key + (f["finding"],), {"rounds": set(), "rows_seen": {}, "once": False})
            x["once"] |= f.get("confidence") == "seen once"
            x.update(f, program=key[0], buffers=key[1], config=key[2], source="program")
            x["rounds"].add(r.get("round", 1))
            x["rows_seen"][str(f.get("rows"))] = x["rows_seen"].get(str(f.get("rows")), 0) + 1
    for key, x in found.items():
        k, n = len(x.pop("rounds")), len(rounds[key[:3]])
        once = x.pop("once")  # a round's program saw it once: the rounds an interval needs confirm it
        x.update(seen=[k, n], confirmed=k == n and len(x["rows_seen"]) == 1 and (not once or n >= stats.rounds_needed()))
    return found


def _rows(folder, runs, problems):
    """One read of every finished run's results: {(program, pair, config):
    {size: (path, value)}} where rows carry a known path, and the same keys
    to {size: [the row's median as a time, one per round]} (a latency as it
    is, a bandwidth as the time per message, size / rate, as
    util/core/findings.c's op_time)."""
    paths, times = {}, {}
    for r in (r for r in runs if results.finished(r)):
        key = (r["program"], r["buffers"], r.get("config", "default"))
        for _, o in results.read_objects(os.path.join(folder, r["file"]), problems):
            if o["type"] != "result":  # its schema: a whole size, a path string or null, figures numbers or null
                continue
            size = o["size"]
            if o.get("path") not in (None, "unknown"):
                paths.setdefault(key, {})[size] = (o["path"], o.get("avg_bandwidth_mbs", o.get("avg_latency_us")))
            metric = next((m for m in TYPICAL if m in o), None)
            v = o.get(TYPICAL.get(metric))
            if metric and v is not None and v > 0 and (o.get("iterations") or 0) >= INVERSION_MIN_ITERS:
                times.setdefault(key, {}).setdefault(size, []).append(v if metric == "avg_latency_us" else size / v)
    return paths, times


def pooled_step(sizes):
    """The inversion rule on pooled rows ({size: [time per round]}): the
    first step where a size's median interval across rounds lies above the
    next larger size's by the margin; (small, large, their intervals) or None."""
    ivs = {s: stats.median_interval(v) for s, v in sizes.items()}
    timed = [s for s in sorted(ivs) if ivs[s]]
    first = last = None
    for a, b in zip(timed, timed[1:]):
        if ivs[a][0] > ivs[b][1] * (1 + INVERSION_MARGIN) and ivs[a][0] - ivs[b][1] > INVERSION_FLOOR_US:
            first, last = a if first is None else first, b
        elif first is not None:
            break
    return (first, last, ivs[first], ivs[last]) if first is not None else None


def _judge_pooled(found, times):
    """With enough rounds for an interval across them, an inversion is
    confirmed where it holds on the pooled rows, naming their step, and not
    where it does not, however many rounds fired it."""
    for key, sizes in times.items():
        n = max(len(v) for v in sizes.values())
        if n < stats.rounds_needed():
            continue
        step, f = pooled_step(sizes), found.get(key + ("inversion",))
        if f:
            f["confirmed"] = bool(step)
        if not step:
            continue
        small, large, (slo, shi), (llo, lhi) = step
        f = found.setdefault(key + ("inversion",), {"finding": "inversion", "program": key[0], "buffers": key[1], "config": key[2],
                                                     "source": "pooled", "seen": [0, n], "rows_seen": {},
                                                     "try": "run with --path to see which path each size took"})
        f.update(rows="%d,%d" % (small, large), confirmed=True,
                 what="over %d rounds, a step down from size %d to the larger %d: the rounds' medians %.2f-%.2f us against "
                      "%.2f-%.2f (95%% intervals across rounds), apart by more than %.0f%% and %.1f us"
                      % (n, small, large, slo, shi, llo, lhi, 100 * INVERSION_MARGIN, INVERSION_FLOOR_US))


def gather(folder, runs, problems):
    """The programs' findings over the rounds (_tally, then the inversion
    rule on the pooled rows), then the rule that needs two runs: managed
    buffers staged through the host at sizes where D buffers of the same
    program and configuration went GPU to GPU."""
    found = _tally(runs)
    paths, times = _rows(folder, runs, problems)
    _judge_pooled(found, times)
    for (prog, pair, cfg), rows in sorted(paths.items()):
        dev = paths.get((prog, pair.replace("MD", "D").replace("MH", "D"), cfg))
        if "M" not in pair or not dev:
            continue
        sizes = sorted(s for s, (p, _) in rows.items() if p == "staged" and dev.get(s, ("",))[0] == "direct")
        if not sizes:
            continue
        big = sizes[-1]
        (_, mv), (_, dv) = rows[big], dev[big]
        ratio = ("; at %d bytes %s %.6g against D D %.6g" % (big, pair, mv, dv)) if mv and dv else ""
        span = "%d-%d" % (sizes[0], big) if len(sizes) > 1 else str(big)
        found[(prog, pair, cfg, "staged-where-device-direct")] = {
            "finding": "staged-where-device-direct", "program": prog, "buffers": pair, "config": cfg,
            "source": "umb-run", "rows": span,
            "what": "managed buffers (%s) went through host memory at sizes %s, where D buffers of the same ranks went "
                    "GPU to GPU%s" % (pair, span, ratio),
            "try": "the library classes managed pages apart from device memory: see the staged-managed finding's advice, "
                   "or umb-tune over this pair"}
    return [found[k] for k in sorted(found)]


def report(findings, say=print, who="umb-run"):
    """The confirmed findings, then those seen in some rounds only, apart:
    their words from the files shown on one line each (cli.escaped)."""
    e = cli.escaped
    apart = [f for f in findings if not f.get("confirmed", True)]
    for k, f in enumerate([f for f in findings if f.get("confirmed", True)] + apart):
        if not k:
            say("%s: findings%s:" % (who, " (run.json has them whole)" if who == "umb-run" else ""))
        if f is (apart[0] if apart else None):
            say("%s: findings seen in some rounds only:" % who)
        rows = ", rows " + " / ".join(e(r) for r in sorted(f["rows_seen"])) if len(f.get("rows_seen", {})) > 1 else ""
        note = "  (seen in %d of %d rounds%s; not confirmed)" % (*f["seen"], rows) if f in apart else ""
        say("  %s %s%s [%s] %s%s" % (e(f["program"]), e(f["buffers"]), "" if f["config"] == "default" else " (%s)" % e(f["config"]),
                                     e(f["rows"]), e(f["finding"]), note))


def of_side(side, problems):
    """{(program, buffers, finding): rows} of one side: umb-run's summary in
    run.json for its configuration, else the programs' own records."""
    if "findings" in side.manifest:  # the confirmed ones (all, in folders from before the tally)
        return {(f.get("program"), f.get("buffers"), f.get("finding")): f.get("rows")
                for f in side.manifest["findings"] if f.get("config", "default") == side.config and f.get("confirmed", True)}
    found = {}
    for path in results.finished_files(side.folder, side.manifest or None, problems)[0]:
        objs = [o for _, o in results.read_objects(path, problems)]
        if (next((o.get("config") for o in objs if o["type"] == "run"), None) or "default") == side.config:
            found.update({(o.get("program"), o.get("buffers"), o.get("finding")): o.get("rows")
                          for o in objs if o["type"] == "finding"})
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
        where = ", ".join("[%d] %s" % (i, cli.escaped(f[k])) for i, f in enumerate(per) if k in f)
        absent = ", ".join("[%d]" % i for i, f in enumerate(per) if k not in f)
        print("%-13s %-18s %-28s in %s; not in %s" % (tuple(cli.escaped(x) for x in k) + (where, absent)))


USAGE = """umb-findings: the findings of one or more results folders, judged over
all their rounds together: every finished run of a benchmark, pair and
configuration counts as a round, in whichever folder it is.

  umb-findings DIR [DIR ...] [--match REGEX] [--json]

A finding is confirmed where it holds on the pooled rows (the inversion
rule on the rounds' medians, with their interval across rounds, from 6
rounds on), or, for findings of facts (paths, placement, GPUs, binding),
where it fired in every round naming the same rows; the others are listed
apart as seen in k of n rounds. The folders' rounds of a benchmark and
configuration must have run alike (MPI library, ranks, benchmark options,
the libraries' variables): to compare them, use umb-compare. --json prints the findings
as one JSON list (the fields of run.json's "findings").
"""


def main():
    cli.main("umb-findings", _findings)


def _pooled_runs(folders, problems):
    """Every folder's runs, their files made whole paths and their rounds
    told apart by folder; one line when two rounds of one configuration ran
    otherwise (like.same_as_first), or a file contradicts itself or run.json."""
    runs, seen, sessions = [], {}, {}
    for i, folder in enumerate(folders):
        if not os.path.isdir(folder):
            raise cli.Fail("%s: not a folder" % folder)
        m = results.read_manifest(folder) or {}
        like.not_a_copy(sessions, m, folder)
        listed = bool(m.get("runs"))  # else a folder of program outputs, as umb-compare and umb-plot read it
        m = m if listed else dict(m, runs=own_outputs(folder, problems))
        if not m["runs"]:
            raise cli.Fail("%s: no run.json listing runs (umb-run writes it), and no program output with results" % folder)
        if not any(results.finished(r) for r in m["runs"]):
            raise cli.Fail("%s: no finished run%s" % (folder, results.why_empty(folder)))
        # As umb-compare: a folder whose finished runs hold no readable result
        # (a file cut short, unreadable) is no evidence; it was counted as
        # finished runs with "no findings" and exit 0.
        unread = results.Problems()
        # Each finished run read once: a file that contradicts itself or run.json is refused.
        read = {k: results.read_results(os.path.join(folder, r["file"]), unread, (k, r) if listed else None)
                for k, r in enumerate(m["runs"]) if results.finished(r)}
        if not any(got["metric"] for got in read.values()):
            raise cli.Fail("%s: no finished results (no result line of its finished runs could be read%s)"
                           % (folder, "; the first: %s" % clip(unread.first, 200) if unread.first else ""))
        for k, r in enumerate(m["runs"]):
            runs.append(dict(r, file=os.path.join(folder, r["file"]), round=(i, r.get("round", 1))))
            if k in read:  # a configuration is what it ran, not its name: rounds pooled only where alike
                config = r.get("config", "default")
                like.same_as_first(seen, (config, r["program"], r["buffers"]), like.ran(m, config, read[k]["header"]),
                                      runs[-1]["file"])
    return runs


def own_outputs(folder, problems):
    """A folder without run.json (a user's own --format json outputs,
    docs/output.md): each finished file with results is a run of round 1."""
    read = [(path, results.read_results(path, problems)) for path in results.finished_files(folder, None, problems)[0]]
    return [{"file": os.path.basename(path), "program": r["program"], "buffers": r["buffers"], "status": 0,
             "config": "default", "findings": of_file(path, problems)} for path, r in read if r["metric"]]


def _findings():
    ap = cli.Parser("umb-findings", USAGE)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--match", metavar="REGEX", help='keep only "program buffers" this finds' + pattern.HELP)
    ap.add_argument("--json", action="store_true", help="print the findings as one JSON list")
    a = ap.parse_intermixed_args()  # folders after options too ("A --json B" refused B)
    want = pattern.regex(a.match)
    problems = results.Problems()
    folders, twice = paths.distinct_folders(a.folders)
    runs = [r for r in _pooled_runs(folders, problems) if want.search("%s %s" % (r.get("program"), r.get("buffers")))]
    done = [r for r in runs if results.finished(r)]
    if not done:
        raise cli.Fail("--match %s: no finished run of %s matches" % (pattern.said(a.match), clip(" ".join(folders), 200)))
    for note in twice:  # once the folders are read: a refusal stays one line (the property found it)
        print("umb-findings: " + note, file=sys.stderr)
    found = gather("", runs, problems)
    if a.json:
        print(json.dumps(found, indent=1))
    else:
        print("# umb-findings: %d folders, %d finished runs of %d benchmarks and pairs" % (
            len(folders), len(done), len({(r["program"], r["buffers"], r.get("config")) for r in done})))
        report(found, who="umb-findings") if found else print("umb-findings: no findings")
    if problems.count:
        print("# umb-findings: %s" % problems.summary(), file=sys.stderr)
