"""umb-run --within's shares (scripts/umbench/share.py) over generated sets:
programs with any number of pairs, collectives alone, rounds, a --within,
launches that cost any time and runs that take any part of their share, or
more. The properties: every launch gets a --launch-budget of at least its
fair share of what is left and never more than what is left; and where
every launch takes no more than its share and launches cost what umb-run
reserves for them, the set ends within --within."""
import os
import re
import shutil
import tempfile
import types
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

from common import counted, scale
from umbench import launch, run_args, sets, share
from umbench.pairs import ask, command_args
from umbench.programs import load as registry, takes_pairs

PAIRS = [a + " " + b for a in ("H", "D", "MH", "MD") for b in ("H", "D", "MH", "MD")]
# A set: (program, its pairs) with 1 pair for a collective's placement.
SETS = st.lists(st.tuples(st.sampled_from(["pt2pt", "coll"]), st.integers(1, 16)), min_size=1, max_size=12)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def time(self):
        return self.now


def launch_of(item, cfg, grouped):
    """The launch a run is in, as run.py's plan names it where every
    program takes several pairs (pairs.ask's verdict), else its own."""
    return (item[0], cfg["name"]) if grouped and sets.pair_slot(item) is not None else (item[0], item[1], cfg["name"])


def simulate(programs, within, rounds, cost, use, grouped=True):
    """Runs the set as run.py does, one launch per program (or per
    collective placement), each launch costing `cost` seconds outside its
    sizes and measuring `use` of its share; returns [(fair, share, spare)]
    per launch and the set's wall time. Each launch's records are as
    umb-run writes them: its pairs, its command, each pair's measuring."""
    clock = Clock()
    items = []
    for p, (kind, pairs) in enumerate(programs):
        name = "umb_p%d" % p
        if kind == "pt2pt":
            items += [(name, pair, share.sets.FIXED + pair.split()) for pair in PAIRS[:pairs]]
        else:
            items.append((name, "H", ["--buffer", "H"]))
    items = share.mark(items, within)
    runs_done, t0 = [], clock.now
    entries = [(it, {"name": "default"}, launch_of(it, {"name": "default"}, grouped)) for it in items]
    seen = []
    for k in range(1, rounds + 1):
        j = 0
        while j < len(entries):
            group = [j] + [x for x in range(j + 1, len(entries)) if entries[x][2] == entries[j][2]]
            spare = within * (1 - share.KEEP) - (clock.now - t0)
            chosen = share.budgets(entries, group, lambda x: x >= j, rounds - k, runs_done, clock.now - t0, within, None)
            values = {float(c[2][c[2].index("--launch-budget") + 1]) for c, _ in chosen}
            assert len(values) == 1, values
            seen.append((values.pop(), spare))
            clock.now += cost + use * seen[-1][0]
            took = use * seen[-1][0] / len(group)  # each pair's part of what the launch measured
            runs_done += [{"times_s": dict({"measure": took}, **({"start": cost} if i == 0 else {})),
                           "launch": {"pairs": len(group), "index": i + 1}, "command": chosen[i][0][2]}
                          for i in range(len(group))]
            j = group[-1] + 1
    return seen, clock.now - t0


class Shares(unittest.TestCase):
    @settings(max_examples=scale(60), deadline=None)
    @given(SETS, st.floats(10, 3600), st.integers(1, 3), st.floats(0, 5), st.floats(0, 1))
    def test_within(self, programs, within, rounds, cost, use):
        counted("share_within")
        seen, wall = simulate(programs, within, rounds, cost, use)
        for value, spare in seen:
            # Never more than what is left (nor less than the 0.01 s that still runs a first size).
            self.assertLessEqual(value, max(spare, 0.01) + 0.01, seen)
            self.assertGreaterEqual(value, 0.01, seen)
        if cost <= share.LAUNCH_S:
            # Launches cost no more than reserved for the first, and runs take their share at most: within
            # --within, unless the launches alone take longer (each share is then the 0.01 s that runs a first size).
            self.assertLessEqual(wall, max(within, cost * len(seen)) + 0.02 * len(seen), (wall, seen))

    @settings(max_examples=scale(30), deadline=None)
    @given(SETS, st.floats(100, 3600))
    def test_fair(self, programs, within):
        """A launch's share is at least its fair share of what is left: a
        set that takes nothing of its shares leaves each later launch more."""
        counted("share_fair")
        seen, _ = simulate(programs, within, 1, 0.5, 0.0)
        values = [v for v, _ in seen]
        total = sum(n if kind == "pt2pt" else 1 for kind, n in programs)
        first = (within * (1 - share.KEEP) - share.LAUNCH_S * len(seen)) * (programs[0][1] if programs[0][0] == "pt2pt" else 1) / total
        self.assertGreaterEqual(values[0] + 0.01, max(first, 0.01), values)

    @settings(max_examples=scale(30), deadline=None)
    @given(SETS, st.floats(100, 3600))
    def test_not_starved(self, programs, within):
        """Where every launch measures its whole share, no launch takes more
        than its fair share: a run's share stays what the first had, and the
        runs at the end of the set are not starved by those before them."""
        counted("share_not_starved")
        seen, _ = simulate(programs, within, 1, share.LAUNCH_S, 1.0)
        sizes = [n if kind == "pt2pt" else 1 for kind, n in programs]
        per_run = [v / n for (v, _), n in zip(seen, sizes)]
        for k, v in enumerate(per_run):
            self.assertGreaterEqual(v, per_run[0] * 0.99 - 0.01, (k, per_run))
            self.assertLessEqual(v, per_run[0] * 1.01 + 0.01, (k, per_run))

    @settings(max_examples=scale(60), deadline=None)
    @given(st.lists(st.one_of(st.none(), st.floats(0, 100)), max_size=40), st.integers(1, 500), st.floats(0, 5000))
    def test_level(self, needed, runs, spare):
        """The level a run gets: from its fair share to OVER times it; the
        fair share where no run so far took less than its share; and runs
        that need what the runs so far needed spend no more than what is left."""
        counted("share_level")
        lvl = share.level(needed, runs, spare)
        fair = spare / runs
        self.assertGreaterEqual(lvl, fair * (1 - 1e-9))
        self.assertLessEqual(lvl, share.OVER * fair * (1 + 1e-9))
        if all(n is None for n in needed):
            self.assertAlmostEqual(lvl, fair, delta=1e-9 * max(1.0, fair))
        else:
            spent = runs * sum(lvl if n is None else min(n, lvl) for n in needed) / len(needed)
            self.assertLessEqual(spent, spare * (1 + 1e-6) + 1e-9)

    @settings(max_examples=scale(60), deadline=None)
    @given(st.sampled_from(["--launch-budget", "--precision", "--format"]), st.data())
    def test_named(self, option, data):
        """Every spelling getopt_long takes for a long option (the option
        or a prefix of 4 characters or more, its value joined by "=" or the
        next word) is found with its value among other words; other words
        are not."""
        counted("share_named")
        cut = data.draw(st.integers(4, len(option)))
        value = data.draw(st.sampled_from(["off", "OFF", "2", "json", ""]))
        joined = data.draw(st.booleans())
        words = [option[:cut] + "=" + value] if joined else [option[:cut], value]
        other = st.sampled_from(["-m", "8:16", "--pre", "-precision", "--precision-off", "--launch-budgets", "off", "--"])
        before, after = data.draw(st.lists(other, max_size=4)), data.draw(st.lists(other, max_size=4))
        found = share.sets.named(before + words + after, option)
        self.assertIn((words[0], value), found)
        for word, _ in found:
            self.assertTrue(option.startswith(word.partition("=")[0]), found)

    @settings(max_examples=scale(30), deadline=None)
    @given(SETS, st.floats(100, 3600), st.booleans())
    def test_first_share(self, programs, within, grouped):
        """The first launch gets its fair share, with a launch's start-up
        reserved for every launch to come: one a program where its pairs
        share a launch, one a pair where the program keeps its pairs apart
        (the user's -U or --path: pairs.ask; adversarial pass 10)."""
        counted("share_first")
        seen, _ = simulate(programs, within, 1, share.LAUNCH_S, 0.0, grouped)
        runs = sum(n if kind == "pt2pt" else 1 for kind, n in programs)
        first = programs[0][1] if programs[0][0] == "pt2pt" and grouped else 1
        fair = (within * (1 - share.KEEP) - share.LAUNCH_S * len(seen)) * first / runs
        self.assertEqual(len(seen), sum(1 if kind == "pt2pt" and grouped else (n if kind == "pt2pt" else 1) for kind, n in programs))
        self.assertAlmostEqual(seen[0][0], max(fair, 0.01), delta=0.006)

    @settings(max_examples=scale(60), deadline=None)
    @given(st.lists(st.sampled_from(["--launch-budget", "--oversubscribe", "2.00", "x", "nan", "", "umb_bw"]), max_size=8))
    def test_given(self, command):
        """The --launch-budget a run's command gave: read from any command
        (a launcher's flags may hold the word: --config 'odd::--launch-budget'
        was a traceback; adversarial pass 10), the last one's value or None."""
        counted("share_given")
        got = share.given(command)
        at = [i for i, w in enumerate(command[:-1]) if w == "--launch-budget"]
        if not at or command[at[-1] + 1] in ("--launch-budget", "--oversubscribe", "x", "", "umb_bw"):
            self.assertIsNone(got)
        else:
            self.assertEqual(repr(got), repr(float(command[at[-1] + 1])))


# What umb-run asks the programs before any run (pairs.ask): the benchmark
# options after "--" it may be given, and the pairs each set runs.
EXTRA = st.lists(st.sampled_from([["-m", "8:64"], ["-i", "20"], ["--path"], ["--loop", "classic"], ["-c"], ["H"], ["MD", "MD"],
                                  ["--measure-bound"]]), max_size=3).map(lambda ws: [w for x in ws for w in x])


def answer(args):
    """A program's --check-options over args, as the programs answer: one
    pair per launch with --path or --measure-bound, no managed pair with
    --loop classic, else good."""
    kinds = [w for w in args if w in sets.KINDS]
    if len(kinds) > 2 and ("--path" in args or "--measure-bound" in args):
        return 1, "%d buffer pairs: observes one pair per launch" % (len(kinds) // 2)
    if "--loop" in args and any(k.startswith("M") for k in kinds):
        return 1, "--loop classic: placing managed buffers"
    return 0, ""


class Asked(unittest.TestCase):
    """What a program can do comes from the registry (programs.takes_pairs)
    and its --check-options over a run's own options: asked at most once
    per program and option set, only over the options of a run or of a
    launch umb-run makes (no invented arguments), and no program file read."""

    @classmethod
    def setUpClass(cls):
        cls.bindir = tempfile.mkdtemp(prefix="umb-asked-")
        for p in registry():
            with open(os.path.join(cls.bindir, p["name"]), "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(os.path.join(cls.bindir, p["name"]), 0o755)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.bindir, ignore_errors=True)

    @settings(max_examples=scale(60), deadline=None)
    @given(st.sampled_from(sets.NAMES), st.sampled_from(["", "umb_(latency|bw) ", "umb_bcast", "(H|MD) ", "H H$"]), EXTRA,
           st.sampled_from(["program", "pair"]), st.integers(1, 3))
    def test_asked_once(self, name, match, extra, per, nconfigs):
        counted("share_asked_once")
        items = sets.commands(name, re.compile(match), extra)
        if not items:
            return
        asked = []

        def fake_run(argv, **_):
            asked.append((argv[0], tuple(argv[2:])))
            rc, said = answer(argv[2:])
            return types.SimpleNamespace(returncode=rc, stderr=("%s: %s\n" % (os.path.basename(argv[0]), said)).encode())

        def no_open(*a, **k):
            raise AssertionError("a program's file read: %r" % (a,))
        how = types.SimpleNamespace(dirs=[self.bindir], here=self.bindir)
        a = types.SimpleNamespace(extra=extra, within=None, launch_per=per)
        launch.verdict.cache_clear()
        real = launch.subprocess.run
        launch.subprocess.run, launch.open = fake_run, no_open
        try:
            groups = ask([how] * nconfigs, items, a, self.bindir)
        except launch.Fail as e:
            groups, refused = None, str(e)
        finally:
            launch.subprocess.run = real
            del launch.open
        self.assertEqual(len(asked), len(set(asked)), asked)  # once per program and option set
        mine = {p: [it for it in items if it[0] == p] for p, _, _ in items}
        launches = {p: command_args(m) for p, m in mine.items() if sets.pair_slot(m[0]) is not None}
        real_args = {(p, tuple(args)) for p, _, args in items} | {(p, tuple(args)) for p, args in launches.items()}
        for path, args in asked:
            self.assertIn((os.path.basename(path), args), real_args)  # a run's or a launch's own options
        stray = next((w for w in extra if w in sets.KINDS), None)
        if groups is None:
            self.assertTrue(refused.startswith("-- %s: umb-run gives each run its buffer kinds" % stray)
                            or any(said in refused for said in ("observes one pair", "placing managed")), refused)
            return
        self.assertFalse(stray and any(takes_pairs(p) for p in mine), (extra, groups))  # a kind after --: refused
        for p in mine:
            self.assertEqual(bool(groups[p]), per == "program" and takes_pairs(p) and p in launches
                             and answer(launches[p])[0] == 0, (p, groups))
        cfgs = [{"name": "c%d" % i} for i in range(nconfigs)]
        for rnd in run_args.plan(items, cfgs, [1], groups):  # the plan: one launch per program and configuration where grouped
            for p, m in mine.items():
                for c in cfgs:
                    names = {e[2] for e in rnd if e[0][0] == p and e[1] is c}
                    self.assertEqual(len(names), 1 if groups[p] else len(m), (p, names))
