"""umb-plot: plot one umb-run results folder: latency and bandwidth against
message size, one line per benchmark and buffer pair (and configuration);
with several rounds, the median and bars from the first to the third quartile.

  umb-plot DIR [--out PNG]     (default DIR/plot.png; .pdf and .svg too)

Reads the JSON Lines the programs wrote, never their tables, and only the
runs that finished. Needs matplotlib; umb-compare draws the same picture
for several folders.
"""
import os
import statistics
import textwrap

from . import cli, paths, results, stats

PANELS = [("avg_latency_us", "avg latency, us (lower is better)"), ("avg_bandwidth_mbs", "bandwidth, MB/s (higher is better)")]
# The picture's format is its name's ending: matplotlib writes these three
# without more packages (and would add ".png" to a name without one).
FORMATS = (".png", ".pdf", ".svg")


def out_picture(path, option):
    """A file the picture can be written to, in a format its name says, and
    matplotlib to draw it: checked before any output (cli.need_module)."""
    paths.out_file(path, option)
    if os.path.splitext(path)[1].lower() not in FORMATS:
        raise cli.Fail("%s %s: expected a name ending in %s (the picture's format)" % (option, path, ", ".join(FORMATS)))
    cli.need_module("matplotlib")
    return path


def draw(sides, keys, path, who):
    import warnings
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # A glyph the font lacks (a folder named 結果) is drawn as a box: said in
    # matplotlib's many-line warning, with its source lines, on a plot that
    # is still written.
    warnings.filterwarnings("ignore", message="Glyph .* missing from", category=UserWarning)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    # One colour per benchmark and buffer pair, one line style per side, so
    # the same pair is easy to follow from library to library.
    colours = plt.get_cmap("tab20").colors
    styles = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "D")]
    for ax, (metric, title) in zip(axes, PANELS):
        for i, side in enumerate(sides):
            for k, (prog, bufs) in enumerate(keys):
                r = side.runs.get((prog, bufs))
                if r and r["metric"] == metric:
                    _line(ax, r["rows"], styles[i % len(styles)], colours[k % len(colours)], "[%d] %s %s" % (i, prog, bufs))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        if ax.has_data():
            ax.legend(fontsize=6, ncol=2 if len(sides) > 1 else 1)
    fig.suptitle(textwrap.fill(" vs ".join("[%d] %s" % (i, " ".join((s.label + (": " + s.lib if s.lib else "")).split()))
                                           for i, s in enumerate(sides)), 170), fontsize=9)
    fig.tight_layout()
    paths.whole_file(path, lambda f: fig.savefig(f, dpi=100, format=os.path.splitext(path)[1][1:].lower()))
    print("\n%s: wrote %s" % (who, cli.escaped(path)))


def _line(ax, rows, style, colour, label):
    """Medians over rounds, with bars from the first to the third quartile."""
    # Log axes: size 0, and a median of 0 (a bandwidth at size 0), have no place on them.
    xs = sorted(s for s in rows if s > 0 and rows[s] and statistics.median(rows[s].values()) > 0)
    if not xs:
        return
    meds = [statistics.median(rows[s].values()) for s in xs]
    qs = [stats.quartiles(list(rows[s].values())) for s in xs]
    err = [[m - q[0] for m, q in zip(meds, qs)], [q[1] - m for m, q in zip(meds, qs)]]
    ax.errorbar(xs, meds, yerr=err, linestyle=style[0], marker=style[1], markersize=3, capsize=2, elinewidth=0.8,
                color=colour, label=label)


def main():
    cli.main("umb-plot", _plot)


def _plot():
    ap = cli.Parser("umb-plot", __doc__)
    ap.add_argument("folder")
    ap.add_argument("--out", metavar="PNG", help="default: FOLDER/plot.png")
    a = ap.parse_intermixed_args()  # a folder after an option too (it was refused)
    if not os.path.isdir(a.folder):
        raise cli.Fail("%s: not a folder" % a.folder)
    out = out_picture(a.out or os.path.join(a.folder, "plot.png"), "--out")
    problems = results.Problems()
    sides, _ = results.load(a.folder, problems)
    keys = sorted({k for s in sides for k in s.runs})
    if not keys:
        raise cli.Fail("no finished results in %s%s" % (a.folder, results.why_empty(a.folder, problems)))
    draw(sides, keys, out, "umb-plot")
    if problems.count:
        print("# umb-plot: %s" % problems.summary())
