"""umb-compare: compare umb-run results: folders (one per MPI library, say),
or the configurations of one folder (umb-run --config): per benchmark,
buffer pair and size, each side's median over the rounds and its own
spread, the median of the per-round ratios to the first side with its 95%
interval, and a verdict: faster, slower, or the same within the noise,
kept only where it holds over the whole table (a 5% false discovery rate
over every comparison with an interval; "alone" says what the size alone
would have said).

  umb-compare DIR [DIR ...] [--plot out.png] [--match REGEX] [--min-effect P%]

The sides are the folders, or, where a folder holds several configurations,
each configuration ([0] is the first folder's default); the header says
what else they differ in (ranks, benchmark options, environment). One round gives no
verdict: a single ratio cannot be told from noise. Where one configuration
ran twice with the same settings (A/A), its ratio is shown and the verdict
must clear it. --min-effect P% also calls smaller changes "the same".
--match keeps the benchmarks whose "program buffers" (e.g. "umb_latency MD
MD") the regular expression finds. --plot draws medians with bars from the
first to the third quartile of the rounds.

Only runs that finished count (docs/output.md, "Results folders"); bad
lines are skipped and counted. Reads the JSON Lines the programs wrote,
never their tables. The table needs only Python 3; --plot needs matplotlib.
"""
import os
import sys

from . import cli, findings, like, paths, pattern, plot, results, stats

TITLES = dict(plot.PANELS)


def load_sides(folders, problems):
    """The sides of every folder; a folder without finished results is named."""
    sides = []
    for f in folders:
        if not os.path.isdir(f):
            raise cli.Fail("%s: not a folder" % f)
        got, unfinished = results.load(f, problems)
        if not got:
            raise cli.Fail("%s: no finished results%s" % (f, results.why_empty(f, problems)))
        if got[0].manifest.get("state") == "running":
            print("# %s: its run.json says umb-run is still writing it (or was killed): read as it stands" % cli.escaped(f))
        if unfinished:
            print("# %s: %d runs left out: they did not finish (run.json)" % (cli.escaped(f), unfinished))
        sides += got
    return sides


def print_table(keys, rows):
    for prog, bufs in keys:
        mine = [r for r in rows if (r["program"], r["buffers"]) == (prog, bufs)]
        print("\n## %s %s: %s" % (prog, bufs, TITLES[mine[0]["metric"]] if mine else "not in [0]"))
        aa = any(r["aa"] for r in mine)
        if mine:
            print("%-9s %5s %13s %13s %8s %17s %9s %9s%s  %s" % ("size", "side", "[0] median", "[i] median", "ratio",
                                                              "95% interval", "[0] sprd", "[i] sprd",
                                                              "      A/A" if aa else "", "verdict"))
        for r in mine:
            verdict = ("A/A: " if r["is_aa"] else "") + r["verdict"]
            if r["verdict"] in ("faster", "slower") or r.get("alone"):
                verdict += " (%s%s)" % ("alone " + r["alone"] + " " if r.get("alone") else "",
                                        stats.change(r["ratio"], stats.METRICS[r["metric"]]))
            print("%-9d %5s %13s %13s %8s %17s %9s %9s%s  %s" % (
                r["size"], "[%d]" % r["side"], *("-" if v is None else "%.2f" % v for v in (r["base"], r["other"])),
                "-" if r["ratio"] is None else "%8.3f" % r["ratio"],
                "%7.3f - %7.3f" % r["interval"] if r["interval"] else "-",
                *("-" if v is None else "%8.1f%%" % (100 * v) for v in (r["spread_base"], r["spread_other"])),
                ("%9.3f" % r["aa"] if r["aa"] else "%9s" % "-") if aa else "", verdict))


def print_summary(sides, rows):
    print()
    for i in range(1, len(sides)):
        mine = [r for r in rows if r["side"] == i]

        def n(v):
            return sum(1 for r in mine if r["verdict"].startswith(v))
        alone = sum(1 for r in mine if r.get("alone"))
        more = ("; %d of those alone would be faster or slower: changes at that many sizes are kept with %d rounds"
                % (alone, stats.rounds_kept(alone / sum(1 for r in rows if r["interval"])))) if alone else ""
        print("# [%d] against [0]: faster at %d sizes, slower at %d, the same within the noise at %d%s, no verdict at %d"
              % (i, n("faster"), n("slower"), n("same"), more, n("no verdict")))


def main():
    cli.main("umb-compare", _compare)


def _compare():
    ap = cli.Parser("umb-compare", __doc__)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--plot", metavar="PNG")
    ap.add_argument("--match", metavar="REGEX", help='keep only "program buffers" this finds, e.g. "umb_latency (D D|MD MD)"' + pattern.HELP)
    ap.add_argument("--min-effect", metavar="P%", default="0%", help="changes smaller than this are the same (default 0%%)")
    a = ap.parse_intermixed_args()  # folders after options too ("A --match X B" refused B)
    want = pattern.regex(a.match)
    min_effect = cli.percent(a.min_effect, "--min-effect")
    if a.plot:
        plot.out_picture(a.plot, "--plot")
    problems = results.Problems()
    folders, twice = paths.distinct_folders(a.folders)
    sides = load_sides(folders, problems)
    if len(sides) < 2:
        raise cli.Fail("give two or more results folders, or a folder with several configurations (%s has one)%s"
                       % (folders[0], "; " + twice[0] if twice else ""))
    for note in twice:
        print("umb-compare: " + note, file=sys.stderr)
    keys = sorted({k for s in sides for k in s.runs if want.search("%s %s" % k)})
    if not keys:
        raise cli.Fail("no results in these folders%s" % (" match --match %s" % pattern.said(a.match) if a.match else ""))
    rows = stats.comparisons(sides, keys, min_effect)
    if not rows:
        raise cli.Fail("nothing to compare: no benchmark, pair and size of [0] %s is in another side (%s)"
                       % (sides[0].label, ", ".join("[%d] %s" % (i, s.label) for i, s in enumerate(sides) if i)))
    for i, s in enumerate(sides):
        n = max((len(v) for r in s.runs.values() for v in r["rows"].values()), default=0)
        print("# [%d] %s: %s (%d benchmarks with results, %d rounds)" % (i, s.label, s.lib or "library unknown", len(s.runs), n))
    for i, s in enumerate(sides[1:], 1):  # like with like: what else differs is said, never left to the reader
        differ = [d for d in like.alike(sides[0].ran, s.ran) if d[0] != "library"]
        if differ:
            print("# [0] | [%d] differ besides the library: %s" % (i, like.differences(differ)))
    print("# ratio: the median over rounds of [i] / [0] in the same round; interval: its 95%% interval; spread: each side's "
          "(Q3 - Q1) / median over rounds%s" % ("; A/A: the same settings run twice" if any(r["aa"] for r in rows) else ""))
    print("# verdicts: beyond %g%% (--min-effect) and kept over the whole table, a false discovery rate of 5%% over its %d "
          "comparisons with an interval; \"alone\": what that size alone would say" % (100 * min_effect, sum(1 for r in rows if r["interval"])))
    print_table(keys, rows)
    print_summary(sides, rows)
    findings.diff(sides, want, problems)
    if a.plot:
        plot.draw(sides, keys, a.plot, "umb-compare")
    if problems.count:
        print("\n# umb-compare: %s" % problems.summary())
