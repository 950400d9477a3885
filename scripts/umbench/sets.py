"""The named sets of benchmarks and buffer pairs that umb-run runs; "full"
is every MPI program of the registry (programs.txt)."""
from . import programs
from .fail import Fail

# (program, kind, extra options, pairs): kind "pt2pt" takes SRC DST,
# "coll" takes --buffer KIND, or "ROOT OTHERS" as --root-buffer ROOT --buffer OTHERS.
AWARE_PAIRS = ["H H", "D D", "MH MH", "MD MD", "MD MH"]
# The quick and full sets place managed buffers with a prefetch before every
# iteration, not the programs' touch kernel: a touch leaves the driver's
# thrashing state, so a few iterations in each size take ten times as long
# and the mean needs thousands of them; a prefetch clears that state, and
# the four heaviest runs of the full set took 20.5 s instead of 208.9 s on
# an H100 (docs/method.md, "Which placement the sets use").
PREFETCH = ["--place-with", "prefetch"]
# The full set runs every pair, H and D too, until its interval is within
# +-5% (OMB's fixed counts cannot be shared out: umb-run --within, and
# docs/decisions.md, "The full set within five minutes").
PRECISION = ["--precision", "5%"]
SETS = {
    "quick": [
        # 1000 iterations, more only where a row is not within +-10% (1 s at
        # most): as quick as before, and each row says how close it is.
        ("umb_latency", "pt2pt", ["-m", "1:64K", "-i", "1000", "-x", "100", "--precision", "10%", "--size-budget", "1"] + PREFETCH,
         ["H H", "MH MH", "MD MD", "MD MH"]),
        ("umb_bw", "pt2pt", ["-m", "1K:4M", "-i", "20", "-x", "2"] + PREFETCH, ["H H", "MH MH", "MD MD", "MD MH"]),
        ("umb_bcast", "coll", ["-m", "1:64K", "-i", "200", "-x", "20"] + PREFETCH, ["H", "MH", "MD"]),
    ],
    # CUDA-aware stacks (docs/stacks.md): every pair validated, 8 B to 4 MiB.
    # OMB's warm-up (no -x): with 5, the first size of MH and MD MH measured
    # the driver still learning that the pages bounce (docs/method.md, "The
    # first size").
    "aware": [
        ("umb_latency", "pt2pt", ["-m", "8:4M", "-i", "50", "-c"], AWARE_PAIRS),
        ("umb_bw", "pt2pt", ["-m", "8:4M", "-i", "5", "-c"], AWARE_PAIRS),
        ("umb_bcast", "coll", ["-m", "8:4M", "-i", "50", "-c"], AWARE_PAIRS),
    ],
    # Why (docs/method.md, "The path of a row"): the path of every row and the findings.
    "why": [
        ("umb_latency", "pt2pt", ["-m", "8:4M", "-i", "50", "--path"], ["D D", "MD MD", "MH MH", "MD MH"]),
        ("umb_bw", "pt2pt", ["-m", "8:4M", "-i", "10", "--path"], ["D D", "MD MD", "MH MH", "MD MH"]),
        ("umb_bcast", "coll", ["-m", "8:4M", "-i", "50", "--path"], ["D D", "MD MD", "MH MH", "MD MH"]),
    ],
}
NAMES = sorted(list(SETS) + ["full"])


def full():
    """Every MPI program of the registry over every buffer kind: pairs for
    the point-to-point and one-sided ones, placements for the collectives."""
    kinds = "H D MH MD".split()
    return [(p["name"], "pt2pt", PREFETCH + PRECISION, [a + " " + b for a in kinds for b in kinds]) if p["family"] in programs.PAIR_FAMILIES
            else (p["name"], "coll", PREFETCH + PRECISION, kinds) for p in programs.load() if p["needs"] == "mpi"]


def commands(name, want, extra):
    """[(program, pair, its arguments after the program)] of the set whose
    "program pair" the regular expression finds."""
    items = []
    for prog, kind, opts, pairs in (full() if name == "full" else SETS[name]):
        for pair in (p for p in pairs if want.search("%s %s" % (prog, p))):
            root, _, others = pair.rpartition(" ")
            bufs = pair.split() if kind == "pt2pt" else (["--root-buffer", root] if root else []) + ["--buffer", others]
            # The user's options last: their --timeout wins over umb-run's
            # default (it was silently replaced by 120), and an option left
            # without its value ("-- -m") finds none to take, where it took
            # umb-run's --format and was refused as "-m --format".
            items.append((prog, pair, opts + FIXED + bufs + extra))
    return items


# The words the MPI programs take as a buffer kind (util/core/memkind.c:
# each kind's name and long name; M is MH).
KINDS = ("H", "P", "D", "MH", "MD", "M", "pageable", "pinned", "device", "managed-host", "managed-device", "managed")


# What umb-run gives every program before its buffers.
FIXED = ["--format", "json", "--timeout", "120"]


def pair_slot(item):
    """Where a point-to-point or one-sided run's two kinds are in its
    arguments (commands puts them right after FIXED), or None: the runs
    that may share a launch with their program's other pairs (pairs.py)."""
    prog, pair, args = item
    s = next((s + len(FIXED) for s in range(len(args)) if args[s:s + len(FIXED)] == FIXED), None)
    return s if s is not None and len(pair.split()) == 2 and args[s:s + 2] == pair.split() else None


# Benchmark options that make a program print and exit 0 without results:
# every run would then be kept as incomplete.
PRINT_ONLY = ("-h", "--help", "-v", "--version")


def check_extra(extra):
    """The user's benchmark options (after "--"), or one line refusing
    those that would leave every run without results."""
    shown = [w for w in extra if w in PRINT_ONLY]
    if shown:
        raise Fail("-- {0}: prints the program's help or version instead of measuring, in every run; see it with "
                   "PROGRAM {0} (e.g. umb_latency {0}), and umb-run's own with umb-run -h".format(shown[0]))
    # The user's options come last and win (named), so each of umb-run's own is refused.
    for option, why in OWN.items():
        given = named(extra, option)
        if given:
            raise Fail("-- %s: %s" % (given[0][0], why))
    return extra


# The options umb-run gives the programs itself, and why the user's cannot
# be taken: --check-options made every run check its options and measure
# nothing (pass 12); --format (or --form) would lose every run's results,
# --pair-files every run's output in a launch of several pairs.
OWN = {
    "--check-options": "umb-run asks each program whether it takes the options before any run; in the runs it would "
                       "measure nothing; ask a program alone (e.g. umb_latency --check-options -m 8:64)",
    "--format": "umb-run reads the programs' JSON lines and sets --format itself; run a program alone for a table "
                "or CSV (e.g. umb_latency --format csv)",
    "--pair-files": "umb-run sets it for a launch of several pairs; run a program alone for files of your own"}


def named(extra, option):
    """The user's benchmark options (after "--") that name the long option
    OPTION in a spelling getopt_long takes: whole, or a prefix of it of 4
    characters or more ("--fo"), alone or with "=VALUE"; each as (the word,
    its value: joined, else the next word). The user's options come last
    and win, so umb-run refuses those that would undo what it sets."""
    found = []
    for i, word in enumerate(extra):
        name, joined, value = word.partition("=")
        if len(name) >= 4 and name.startswith("--") and option.startswith(name):
            found.append((word, value if joined else (extra[i + 1] if i + 1 < len(extra) else "")))
    return found

