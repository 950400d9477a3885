"""The set's time shared out (umb-run --within; docs/method.md, "The set's
time shared out"): before each launch, umb-run gives its precision loops
their share of what is left of --within, as --launch-budget, and the
program gives each size its share of that (bench_precision.c). What a quick
run or size leaves goes to the ones after it; a size whose share ran out
before its interval was narrow enough says so in its row and record."""
from . import cli, sets

# Seconds a launch spends outside its sizes (launcher, MPI_Init, the GPU's
# context, its end), kept aside for every launch still to come: the mean of
# this umb-run's launches so far, and before the first 1 s (0.7 s through
# Open MPI 4.1.6 on one H200, 2.7 s through Open MPI 5 over UCX with CUDA
# transports: docs/results/h200-fullset-aware.md); 3 s starved the first
# launch of a set of 132 launches (--launch-per pair) to nothing.
LAUNCH_S = 1.0
# A launch may take more than its fair share, up to OVER times it, where
# the runs so far say the runs to come will not need their own: runs differ
# in what they need (on one H200, umb_bibw 10 s a pair, umb_latency 0.6 s),
# and a fair share alone left 60% of the full set's time unused through the
# machine's Open MPI. Up to OVER times wherever FLOOR_S a run to come stays
# starved the later launches where every run needs more than its share:
# through a CUDA-aware stack 1494 rows of 2900 missed +-5% or were not
# measured, against 1182 at fair shares (docs/results/h200-fullset-within.md).
OVER = 3.0
FLOOR_S = 1.0
# A launch that measured this part of its budget or more wanted more than it had.
WANTED = 0.9
# Of --within, what is kept for umb-run itself and for the pairs that start
# and cannot run here (6-7 s and 4-5 s of the full set's 217-233 s,
# docs/results/h200-fullset-pairs.md).
KEEP = 0.1
# The sets that are shared out unless --within says otherwise: the full set
# answers within the five minutes a user gives it (issue 49).
DEFAULT = {"full": 300.0}
OPTION = "--launch-budget"


def add_option(ap):
    ap.add_argument("--within", metavar="SECONDS|off", help="the time shared out over the runs' precision loops "
                    "(default: %s; off for the others)" % ", ".join("%g for --set %s" % (v, k) for k, v in DEFAULT.items()))


# The programs' --launch-budget takes at most cli.SECONDS_MAX; a --within
# under the least share umb-run gives (budgets()) shares nothing.
LEAST_S = 0.01


def seconds(a):
    """--within as seconds, or None (off): the set's default when not given.
    Refuses, in one line, the user's --launch-budget (umb-run gives each
    launch its own). Whether a program can share its time out (a precision
    loop, no -i or -x, not --precision off) is the program's one answer,
    asked through --check-options over the marked runs (mark(),
    launch.check_options), so umb-run says it in the program's words."""
    if a.within is None:
        within = DEFAULT.get(a.set)
    elif a.within == "off":
        return None
    else:
        within = cli.seconds(a.within, "--within", LEAST_S, low_open=False, also=", or off")
    if within is None:
        return None
    budget = sets.named(a.extra, OPTION)
    if budget:
        raise cli.Fail("-- %s: umb-run gives each launch its share of --within as --launch-budget; give --within "
                       "SECONDS instead (or --within off)" % budget[0][0])
    return within


def mark(items, within):
    """The runs' arguments, with --launch-budget first where --within
    shares the time out (its value is set before each launch, budgets()):
    the options checked before any run are those the runs get."""
    if within is None:
        return items
    return [(prog, pair, [OPTION, "%g" % within] + args) for prog, pair, args in items]


def unmarked(args, within):
    """A run's arguments without the --launch-budget mark() put first: the
    command of a run never started, which no share was given (pass 10)."""
    return args[2:] if within is not None and args[:1] == [OPTION] else args


def budgets(entries, group, free, later, mine, spent, within, run_limit):
    """The entries of group ([(item, cfg, its launch)], as run.py plans
    them), each run's arguments with the launch's --launch-budget: what is
    left of --within (less KEEP, the `spent` seconds so far, and a launch's
    start-up and end for every launch still to come) over the runs left,
    times the group's runs: its fair share; up to OVER times that where
    FLOOR_S a run stays for every run after it. The runs left are this
    round's not yet run and every run of the `later` rounds; those that
    will turn out unable to run here are counted too, so shares are small
    at first and grow as the set goes on. mine: this umb-run's records so
    far, what the launches cost and needed."""
    chosen = [entries[x][:2] for x in group]
    if within is None:
        return chosen
    left = [entries[x] for x in range(group[0], len(entries)) if x in group or free(x)]
    runs = len(left) + later * len(entries)
    launches = len({e[2] for e in left}) + later * len({e[2] for e in entries})
    spare = within * (1 - KEEP) - spent - launch_cost(mine) * launches
    fair = max(spare, 0.0) * len(group) / runs
    share = max(fair, min(level(needs(mine), runs, max(spare, 0.0)) * len(group), spare - FLOOR_S * (runs - len(group))))
    if run_limit:  # the launch is stopped at --run-limit a pair: its sizes end well before
        share = min(share, 0.5 * run_limit * len(group))
    # A share of 0 still runs each pair's first size (bench_precision.c):
    # the rows say how far from the target they are, or that they were not measured.
    value = "%.2f" % max(share, 0.01)
    return [((prog, pair, [OPTION, value] + args[2:] if args[:1] == [OPTION] else args), cfg)
            for (prog, pair, args), cfg in chosen]


def launch_cost(mine):
    """Seconds a launch of this umb-run spent outside its sizes so far (its
    start-up and its end, watch.py's times), on average; LAUNCH_S before any."""
    times = [r.get("times_s") or {} for r in mine]
    launches = sum(1 for t in times if "start" in t)  # a launch's start-up goes to its first pair, its end to its last
    if not launches:
        return LAUNCH_S
    return sum((t.get("start") or 0) + (t.get("end") or 0) for t in times) / launches


def needs(mine):
    """What each run of this umb-run so far (mine) needed of its launch's share:
    its measuring time where its launch ended within its --launch-budget,
    None (more than it had) where the launch measured WANTED of it or more.
    A run that could not run here needed nothing."""
    out, launch = [], []

    def close():
        budget = given(launch[0].get("command") or [])
        took = [(r.get("times_s") or {}).get("measure") or 0.0 for r in launch]
        wanted = budget is not None and sum(took) >= WANTED * budget
        out.extend(None if wanted else t for t in took)

    for r in mine:
        if launch and (r.get("launch") or {}).get("index", 1) == 1:
            close()
            launch = []
        launch.append(r)
    if launch:
        close()
    return out


def level(needed, runs, spare):
    """A run's share where the `runs` to come need what the runs so far
    needed: the level L at which they would spend `spare` if each took
    min(its need, L), from fair (spare over runs) to OVER times fair. With
    no run so far, or every run so far wanting more, it is the fair share."""
    fair = spare / runs

    def spent(lvl):
        return runs * sum(lvl if n is None else min(n, lvl) for n in needed) / len(needed)

    if not needed or spent(OVER * fair) <= spare:
        return OVER * fair if needed else fair
    low, high = fair, OVER * fair
    for _ in range(30):
        mid = (low + high) / 2
        low, high = (mid, high) if spent(mid) <= spare else (low, mid)
    return low


def given(command):
    """The --launch-budget a run's command gave its launch: the last one
    (the launcher's flags come first; umb-run refuses the user's), or None."""
    at = [i for i, word in enumerate(command[:-1]) if word == OPTION]
    try:
        return float(command[at[-1] + 1]) if at else None
    except ValueError:
        return None
