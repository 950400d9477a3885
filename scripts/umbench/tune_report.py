"""umb-tune's reading of a search's folder: what it holds, the ranked
table, the stalled and failed settings, the best setting per benchmark and
pair, and tune.json."""
import math
import os
import shlex

from . import cli, paths, results, schema, stats
from .shown import clip

TUNE, LOCK = "tune.json", ".umb-tune.lock"


def refuse_held(folder, option):
    """One line where FOLDER is not what OPTION takes: --out a new or empty
    folder (umb-run's rounds run there: not one of other files), --report
    a search's (tune.json). A search that ran no setting (pilot/run.json,
    written before umb-run's first run, and no tune.json) has nothing to
    report or resume. Every command a line names works on that folder."""
    if option == "--out":
        paths.not_elsewhere(folder, results.ours, lambda n: results.ours(n) and n != LOCK)
    pilot = os.path.join(folder, "pilot")
    if os.path.exists(os.path.join(folder, TUNE)):
        if option == "--out":
            raise cli.Fail("--out %s: holds an earlier search (umb-tune --report %s reports it); choose a new folder"
                           % (folder, folder))
    elif os.path.exists(os.path.join(pilot, results.MANIFEST)):
        state = (results.read_manifest(pilot) or {}).get("state", "no run.json")
        raise cli.Fail("%s %s: the search there ran no setting (its pass of the defaults, %s: %s): no %s, nothing to "
                       "report or resume; start a new search with a new --out (or remove %s)"
                       % (option, folder, pilot, state, TUNE, folder))
    elif os.path.exists(os.path.join(folder, results.MANIFEST)):
        raise cli.Fail("%s %s: umb-run's results (%s), not a search's: no %s%s" % (
            option, folder, results.MANIFEST, TUNE, "; choose a new folder" if option == "--out" else ""))


def read(folder, min_effect=None):
    """An earlier search's tune.json, checked, with its own min effect
    unless one is given; one line when it is not one."""
    if not os.path.isdir(folder):
        raise cli.Fail("--report %s: not a folder; expected the folder of an earlier search (umb-tune --out)" % cli.shown(folder))
    refuse_held(folder, "--report")
    path = os.path.join(folder, TUNE)
    try:
        t = schema.load(path, "tune", "--report %s: %s" % (folder, path), "umb-tune's tune.json")
    except schema.Missing:
        raise cli.Fail("--report %s: no tune.json of an earlier search there (No such file or directory)" % folder)
    t["min_effect"] = t.get("min_effect", 0.05) if min_effect is None else min_effect
    return t


def save(folder, data):
    paths.write_whole(os.path.join(folder, TUNE), data, "tune")


def compared(out, min_effect, problems=None):
    """The folder's sides and benchmarks, and every configuration against
    the defaults (stats.comparisons) with each row's configuration."""
    sides, _ = results.load(out, problems or results.Problems())
    keys = sorted({k for s in sides for k in s.runs})
    rows = stats.comparisons(sides, keys, min_effect) if sides else []
    for r in rows:
        r["config"] = sides[r["side"]].config
    return sides, keys, rows


def analyse(out, record, written=True):
    """The report of a search from its results folder (record: the plan,
    with "tried", "refused" and "min_effect"); returns the record with the
    findings, for tune.json. It writes nothing: --report is a reader."""
    tried, problems = record["tried"], results.Problems()
    manifest = results.read_manifest(out, required=True)
    sides, keys, rows = compared(out, record["min_effect"], problems)
    by_name, taken = {t["name"]: t for t in tried}, row_paths(sides)
    findings = []
    for r in rows:
        t = by_name.get(r["config"])
        if t and r["verdict"] in ("faster", "slower"):
            key = (r["program"], r["buffers"], r["size"])
            findings.append(dict(t, program=r["program"], buffers=r["buffers"], size=r["size"], verdict=r["verdict"],
                                 ratio=r["ratio"], interval=r["interval"], aa=r["aa"],
                                 gain=r["ratio"] - 1 if stats.METRICS[r["metric"]] else 1 / r["ratio"] - 1,
                                 path=[taken.get(("default",) + key), taken.get((t["name"],) + key)]))
    no_verdict = sum(1 for r in rows if r["verdict"].startswith("no verdict"))
    report(findings, keys, no_verdict)
    gone = [t for t in tried if t.get("dropped")]
    if gone:
        print("\n## The race: settings that left before the last round")
    for t in gone:
        print("%-44s after round %-3d %s" % ("%s=%s" % (t["variable"], t["value"]), t["dropped"]["round"],
                                            t["dropped"]["why"]))
    if record.get("cannot_act"):
        print("# not tried, cannot act on this run: %s" % "; ".join(
            "%s=%s (%s)" % (t["variable"], t["value"], t["why"]) for t in record["cannot_act"]))
    if record.get("left_out"):
        print("# not tried, for the budget (--budget %g): %s" % (record.get("budget") or 0, ", ".join(
            "%s=%s" % (t["variable"], t["value"]) for t in record["left_out"])))
    report_runs(tried, manifest)
    if problems.count:
        print("# umb-tune: %s" % problems.summary())
    print("\numb-tune: %s: %d settings tried, %d refused, %d cannot act here, %d left out for the budget, %d findings%s"
          % (cli.escaped(out), len(tried), len(record["refused"]), len(record.get("cannot_act") or []), len(record.get("left_out") or []),
             len(findings), " (tune.json)" if written else ""))
    return dict(record, findings=findings, no_verdict=no_verdict, rounds_done=manifest.get("rounds_done"))


def report_runs(tried, manifest):
    """Settings whose run was stopped at --run-limit: a loss too large to
    measure, at least the limit over the defaults' median time for the same
    run. And settings the library lists but cannot use (a component that
    does not load here): their runs fail."""
    runs, command, lines, failed = manifest.get("runs", []), manifest.get("command", []), [], []
    try:  # umb-tune always gives umb-run a --run-limit: a stopped run exists only with one
        limit = float(command[command.index("--run-limit") + 1])
    except (ValueError, IndexError):
        limit = None
    for t in tried:
        mine = [r for r in runs if r.get("config") == t["name"]]
        stalled = sorted({(r["program"], r["buffers"]) for r in mine if r["status"] == 124})
        if stalled:
            t["stopped"] = []
        for prog, bufs in stalled:
            base = sorted(r["elapsed_s"] for r in runs if r.get("config") in ("default", "again") and results.finished(r)
                          and (r["program"], r["buffers"]) == (prog, bufs) and r.get("elapsed_s"))
            median = base[len(base) // 2] if base else None
            x = limit / median if median and limit else None
            lines.append("%-44s %-22s no result within %s s%s" % ("%s=%s" % (t["variable"], t["value"]), "%s %s" % (prog, bufs),
                         "%g" % limit if limit else "the limit",
                         ", at least %.0fx slower than the defaults (%.1f s)" % (x, median) if x else ""))
            t["stopped"].append({"program": prog, "buffers": bufs, "at_least_x_slower": round(x, 1) if x else None})
        bad = [r for r in mine if r["status"] not in (0, 77, 124)]
        if bad:
            t["failed_runs"] = len(bad)
            failed.append("umb-tune: %s=%s: %d of %d runs failed: %s" % (
                t["variable"], t["value"], len(bad), len(mine), clip(cli.escaped(bad[0].get("error", "")), 160)))
    if lines:
        print("\n## Settings that stalled a run (stopped at --run-limit, not run again)")
    for line in lines + failed:
        print(line)


def row_paths(sides):
    """{(config, program, buffers, size): the path class most rounds took},
    from rows measured with --path (docs/method.md, "The path of a row")."""
    return {(side.config, prog, bufs, size): max(sorted(set(seen)), key=seen.count) for side in sides
            for (prog, bufs), slot in side.runs.items() for size, seen in slot.get("paths", {}).items()}


def path_change(group):
    """The path column of one setting's findings: what changed, the path
    both took, or '-' without --path."""
    pairs = [tuple(x["path"]) for x in group if all(x["path"])]
    if not pairs:
        return "-"
    changed = sorted({"%s->%s" % p for p in pairs if p[0] != p[1]})
    return ",".join(changed) if changed else "%s (same)" % ",".join(sorted({p[0] for p in pairs}))


def report(findings, keys, no_verdict):
    """The ranked table (largest change first, one line per setting and
    benchmark), then the best setting per benchmark and pair."""
    groups = {}
    for f in findings:
        groups.setdefault((f["name"], f["program"], f["buffers"]), []).append(f)
    ranked = sorted(groups.values(), key=lambda g: -max(abs(math.log(1 + x["gain"])) for x in g))
    print("\n## Settings that change a result beyond the noise (gain: + better, - worse than the defaults)")
    print("%-4s %-44s %-22s %6s  %-26s %-26s %s" % ("rank", "setting", "benchmark", "sizes", "best gain (size)", "worst gain (size)",
                                                    "path (defaults->setting)"))
    for n, g in enumerate(ranked, 1):
        best, worst = max(g, key=lambda x: x["gain"]), min(g, key=lambda x: x["gain"])
        print("%-4d %-44s %-22s %6d  %-26s %-26s %s" % (
            n, "%s=%s" % (g[0]["variable"], g[0]["value"]), "%s %s" % (g[0]["program"], g[0]["buffers"]), len(g),
            "%+.1f%% (%d B)" % (100 * best["gain"], best["size"]),
            "%+.1f%% (%d B)" % (100 * worst["gain"], worst["size"]) if worst["gain"] < 0 else "-", path_change(g)))
    if not ranked:
        print("(none)")
    if no_verdict:
        print("# %d comparisons had no verdict (too few rounds with results)" % no_verdict)
    print("\n## The best setting per benchmark and pair (the largest gain at any size, and no loss at any)")
    for prog, bufs in keys:
        mine = [g for g in groups.values() if (g[0]["program"], g[0]["buffers"]) == (prog, bufs) and min(x["gain"] for x in g) > 0]
        if not mine:
            print("# %s %s: no setting beats the defaults beyond the noise without a loss" % (prog, bufs))
            continue
        best = max((x for g in mine for x in g), key=lambda x: x["gain"])
        g = groups[(best["name"], prog, bufs)]
        value = best["value"] if best["entry"] != "mps" else best["env"].get("CUDA_MPS_PIPE_DIRECTORY", "")
        print("export %s=%s   # %s %s: %+.1f%% at %d B, better at %d sizes"
              % (best["variable"], shlex.quote(value), prog, bufs, 100 * best["gain"], best["size"], len(g)))
