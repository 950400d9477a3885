"""umb-run: run a named set of umbench benchmarks over buffer pairs and keep
the results: one JSON Lines file per run and a run.json manifest.

  umb-run [--set quick|full|aware|why] [--out DIR] [--append] [--np N] [--launcher auto|mpirun|srun|jsrun]
          [--bindir DIR] [--match REGEX] [--rounds N] [--config NAME[:ENV=VALUE,...][:LAUNCHER FLAGS]|@NAMED] ...
          [--build NAME=DIR[:LAUNCHER FLAGS]] ... [--precision P%] [--budget SECONDS] [--run-limit SECONDS]
          [--within SECONDS|off] [-- EXTRA BENCHMARK OPTIONS]

Anything before "--" that is not one of these options is refused.

--out names a new folder: one that holds another run is refused, unless
--append adds these runs to it (later rounds, never replacing a file; the
same --set, rank counts as the programs report them, benchmark options
and MPI library only). One
umb-run at a time writes a folder: a second is refused, naming the first's
pid. run.json is rewritten whole after every run, so whatever stops umb-run
the folder lists every run that finished (docs/output.md, "Results folders").

--match REGEX runs only the "program pair" names of the set that it finds
(e.g. "^umb_bw H H$"). --rounds N repeats the set N times. --config (any number) adds a
configuration beside the default one: environment variables and launcher
flags, e.g. --config tcp:OMPI_MCA_btl=self,tcp or --config bound::--bind-to core.
A value runs to the next comma that starts another VAR=, or to the ":-"
where the launcher flags start; quoted as in the shell, it holds anything
(--config x:VAR='8192,B=1:-y'). NAME: 1 to 64 letters, digits, '_', '.', '-'.
--config @emulate-internode-ucx and @emulate-internode-ob1 force the
transports of a run across nodes without GPUDirect RDMA between the ranks
of one node, labelled so (docs/cluster.md, "The path across nodes, emulated").
--build NAME=DIR (any number, instead of --config and --bindir) runs the
programs of an umbench build folder of another MPI library through the
launcher its configure recorded (DIR/umbench-build.json); the builds are
then the configurations.
Every round runs each benchmark and pair once per configuration, back to
back, in an order that turns from round to round, so that drift favours
none. A point-to-point or one-sided program runs its pairs of a round in
one launch (--launch-per program, the default) or one per pair.
--within SECONDS (the full set: 300; off: none) shares that time out: each
launch's precision loops get their share of what is left (--launch-budget),
and a size whose share ran out first says so (docs/method.md). --precision
P% ends the rounds once every size's 95% interval of the median (of the
value alone, or of each configuration's ratio to the default) is within
+-P%, --rounds (default 20 then) being the most, and
--budget SECONDS starts no new round after that long; the sizes that did
not get there are listed. --run-limit SECONDS stops any one run that takes
longer, as a signal does (kept in run.json with status 124); that benchmark, pair and
configuration is not run again in later rounds (run.json's "dropped"),
nor waited for by --precision. A configuration whose launcher cannot start
is kept as one failed run (127) and the others go on.
umb-compare reads the rounds.

The launcher is found from the environment: srun inside Slurm, jsrun (else
mpirun) inside LSF, mpirun or mpiexec otherwise. MPIEXEC (a command with
its options) and MPIEXEC_FLAGS override it; umb-run then adds only the rank
count (-n, or -np for mpirun/mpiexec; none with MPIEXEC_NP_FLAG=none), and
for Open MPI without MPIEXEC_FLAGS --oversubscribe. As root, Open MPI is
allowed to run as umb-suite allows it. Runs that cannot
work here (no GPU, D without a CUDA-aware MPI) are kept as skipped with the
reason; once a run's ranks find no GPU, the later pairs of its configuration
that need one are kept as skipped without starting them. Each run has a
session of its own: Ctrl-C or SIGTERM sends SIGTERM to every process of
the run in progress (its launcher, a wrapper that did not exec it, the
ranks, whatever their process group), SIGKILL 3 s later or at a second
signal, marks it unfinished and exits 130. The variables read are in
docs/decisions.md (env.py). Needs only Python 3.
"""
import copy
import datetime
import os
import socket
import sys
import time

from . import cli, configs, env, findings, launch, like, pairs, pattern, records, results, rounds, schema, sets, share, timing
from .standing import note_standing, standing_skip


def options(argv):
    ap = cli.parser("umb-run", __doc__)
    ap.add_argument("--set", default="quick", choices=sets.NAMES)
    ap.add_argument("--out", help="results folder (default umb-results/DATE-HOST)")
    ap.add_argument("--append", action="store_true", help="add these runs to the --out folder's (later rounds)")
    ap.add_argument("--np", default="2", help="ranks of the programs that take any number (collectives; default 2); "
                    "two-rank programs take 2, programs of pairs the largest even number up to it (programs.txt)")
    ap.add_argument("--launcher", default="auto", choices=["auto", "mpirun", "srun", "jsrun"])
    ap.add_argument("--bindir", help="where the umb_* programs are: a build folder, or folders separated by ':'")
    ap.add_argument("--match", metavar="REGEX", help='run only the "program buffers" this finds, e.g. "^umb_bw H H$"' + pattern.HELP)
    ap.add_argument("--rounds", help="repeat the set this many times (default 1; 20 at most with --precision)")
    ap.add_argument("--config", action="append", default=[], help="NAME[:ENV=VALUE,...][:LAUNCHER FLAGS]")
    ap.add_argument("--build", action="append", default=[], help="NAME=DIR[:LAUNCHER FLAGS]: an umbench build folder of "
                    "another MPI library, run with its own launcher (any number; they are the configurations)")
    ap.add_argument("--precision", help="end the rounds once every interval is within +-P%%")
    ap.add_argument("--budget", help="seconds after which no new round starts")
    ap.add_argument("--run-limit", help="seconds after which one run is stopped (exit 124 in run.json)")
    share.add_option(ap)
    ap.add_argument("--launch-per", default="program", choices=["program", "pair"],
                    help="one launch for a program's pairs in a round and configuration (default), or one per pair")
    # Benchmark options come after "--" only: a stray word before it would
    # otherwise reach every program.
    own, extra = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    a, stray = ap.parse_known_args(own)
    if stray:
        hint = " (did you mean --set %s?)" % stray[0] if stray[0] in sets.NAMES else "; benchmark options go after --"
        raise cli.Fail("unknown argument '%s'%s" % (stray[0], hint))
    a.extra = sets.check_extra(extra)
    # The bounds are run.json's (its schema): a run its readers would refuse is not started.
    a.np = cli.count(a.np, "--np", 2, schema.bound("run", "np")[1])
    a.precision = cli.percent(a.precision, "--precision", 0, 1, low_open=True) if a.precision else None
    a.rounds = cli.count(a.rounds, "--rounds", 1, schema.bound("run", "rounds")[1]) if a.rounds is not None else 20 if a.precision else 1
    a.budget = cli.seconds(a.budget, "--budget") if a.budget is not None else None
    a.run_limit = cli.seconds(a.run_limit, "--run-limit") if a.run_limit is not None else None
    a.within = share.seconds(a)
    a.want = pattern.regex(a.match)
    if a.build and (a.config or a.bindir):
        raise cli.Fail("--build with %s: compare builds, or settings within one build, not both at once"
                       % ("--config" if a.config else "--bindir"))
    if a.build:
        a.config = [configs.parse_build(b) for b in a.build]
    else:
        a.config = [{"name": "default", "env": {}, "launcher_flags": []}] + [configs.parse_config(c) for c in a.config]
    names = [c["name"] for c in a.config]
    if len(set(names)) != len(names):
        raise cli.Fail("%s: a name given twice (%s)" % ("--build" if a.build else "--config", ", ".join(names)))
    return a


class Run:
    """One umb-run: its folder's writer, its manifest, and what stops it."""

    def __init__(self, a, here):
        env.check()  # a malformed variable is refused before anything runs
        launch.check_file_limit()
        self.a, self.signals, self.stdout_error, self.count, self.time_lines = a, 0, None, 0, []
        self.dropped = set()  # this umb-run's: an --append on another machine may run what an earlier one skipped
        self.cannot_start = {}  # configuration -> why its launcher cannot start (take)
        self.refused = None  # set when an --append turns out not to belong (same_as_before)
        self.before = {}  # an earlier run's file -> what it ran (like.ran), for same_as_before
        self.items = share.mark(sets.commands(a.set, a.want, a.extra), a.within)
        if not self.items:
            raise cli.Fail("--match %s: no benchmark of --set %s matches" % (pattern.said(a.match), a.set))
        if a.build:
            self.how = {c["name"]: launch.Launch.of_build(c["build"], a.np, here) for c in a.config}
            how = "build"
        else:
            launcher, how = launch.find_launcher(a.launcher)
            one = launch.Launch(launcher, how, a.np, launch.folders(a.bindir), here)
            self.how = dict.fromkeys([c["name"] for c in a.config], one)
        first, asked, every = next(iter(self.how.values())), {}, {}
        for ln in self.how.values():  # every program is there before anything runs
            for prog, _, args in self.items:
                path = launch.find_program(ln.dirs, prog, here)
                if ln is first:
                    asked.setdefault(prog, (path, args))
                every.setdefault(path, (prog, args))
        for path, (prog, args) in every.items():  # and takes these options: each configuration's, its first run
            launch.check_options(path, prog, args, a.extra, a.within)
        self.groups = pairs.ask(asked, self.items, a)  # program -> whether its pairs share a launch
        for prog, (path, _) in asked.items():  # each run, where its runs were not asked at once
            if not self.groups.get(prog):
                launch.check_each(path, prog, [it[2] for it in self.items if it[0] == prog], a.extra, a.within)
        self.shares = {}  # (program, configuration) -> whether its pairs share a launch: the plan's launches
        for it in self.items:
            for c in a.config:
                if (it[0], c["name"]) not in self.shares:
                    self.shares[it[0], c["name"]] = pairs.shares_launch(a.launch_per, self.groups, self.how[c["name"]], it)
        self.stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = a.out if a.out is not None else os.path.join("umb-results", "%s-%s" % (self.stamp, socket.gethostname()))
        self.writer = results.Writer(out, a.append)
        self.ex = records.Executor(self.writer, self.how, a.np, a.run_limit, a.within, self.stop_asked)
        self.old = copy.deepcopy(self.writer.manifest)  # restored if an --append is refused once a run has begun
        try:
            self.manifest, self.offset = self._manifest(how)
        except cli.Fail:
            self.writer.give_up()
            raise
        self.t0 = time.time()

    def _manifest(self, how):
        a, old = self.a, self.writer.manifest
        session = {"command": sys.argv, "start": self.stamp, "pid": os.getpid(), "host": socket.gethostname(), "launcher": how,
                   "rounds": a.rounds, "within_s": a.within, "launch_per": a.launch_per}  # an --append's own (run.json's are the first session's)
        if old is None:
            m = {"set": a.set, "command": sys.argv, "launcher": how, "np": a.np, "start": self.stamp,
                 "env": env.recorded(),
                 "rounds": a.rounds, "launch_per": a.launch_per, "within_s": a.within, "configs": a.config, "mpi_library": None, "cuda_aware": None, "nodes": [], "gpus": [],
                 "runs": [], "dropped": [], "state": "running", "sessions": [session]}
            return m, 0
        configs.check_append(old, a)
        results.load(self.writer.folder, results.Problems())  # a folder its readers refuse takes no round: they would after
        offset = max([r.get("round", 1) for r in old.get("runs", [])] + [old.get("rounds_done", 0) or 0])
        m = dict(old, state="running", rounds=offset + a.rounds, sessions=old.get("sessions", []) + [session])
        known = {x["name"] for x in old.get("configs", [])}
        m["configs"] = old.get("configs", []) + [c for c in a.config if c["name"] not in known]
        m.setdefault("dropped", [])
        m.setdefault("runs", [])
        return m, offset

    def plan(self, rnd):
        """Round rnd's runs, as plain data: [(item, configuration, its
        launch)], each benchmark and pair once per configuration, in an
        order that turns with the folder's round (--append one round at a
        time turns too) so that drift favours none. The runs of a launch
        share its name (pairs.launch_key) where their program's pairs share
        one; a run alone has its own."""
        configs = self.a.config
        turn = (rnd - 1) % len(configs)
        return [(it, c, pairs.launch_key(it, c) if self.shares[it[0], c["name"]] else (it[0], it[1], c["name"]))
                for it in self.items for c in configs[turn:] + configs[:turn]]

    def run_rounds(self):
        """Every round: each run of its plan, its launches formed of the
        runs still to run (batch), until the rounds, --precision or --budget end."""
        a, m = self.a, self.manifest
        plain = a.rounds == 1 and len(a.config) == 1 and not self.offset
        total, i = a.rounds * len(self.items) * len(a.config), 0
        standing = {}  # (configuration, STANDING index, what it covers) -> the skip that stands for it (note_standing)
        for k in range(1, a.rounds + 1):
            rnd = self.offset + k
            entries, done = self.plan(rnd), set()

            def waiting(j):  # not yet run this round, and to be started
                return j not in done and not self.not_to_run(*entries[j][:2]) and not standing_skip(standing, *entries[j][:2])
            for j, (item, cfg, _) in enumerate(entries):
                if j in done:
                    continue
                if self.interrupted():  # asked to stop between two runs
                    return
                if not waiting(j):  # dropped, its configuration cannot start, or an earlier skip stands for it
                    i += 1
                    known_skip = not self.not_to_run(item, cfg) and standing_skip(standing, item, cfg)
                    if known_skip:
                        rec = records.unstarted(self.ex, item, cfg, rnd, plain, known_skip)
                        self.keep(rec, cfg, None)
                        self.after_run(item, cfg, rec, k, True)
                    continue
                group = batch(entries, j, waiting)
                chosen = share.budgets(entries, group, waiting, a.rounds - k, self.mine(), time.time() - self.t0, a.within,
                                       a.run_limit)  # with --within: the launch's time
                for x, (it, c, rec) in zip(group, self.launch(chosen, rnd, plain, i, total)):
                    done.add(x)
                    i += 1
                    standing_said = note_standing(standing, it, c, rec)
                    if standing_said:
                        self.say(standing_said)
                    self.after_run(it, c, rec, k, False)
                if self.interrupted():
                    return
            m["rounds_done"] = rnd
            if not self.more_rounds(k):
                break
        m["state"] = "finished"

    def launch(self, chosen, rnd, plain, i, total):
        """One launch of the runs chosen ([(item, cfg)]): its progress
        lines, what its runs say, each kept (take); [(item, cfg, rec)]."""
        def show(n):
            self.progress(i + n + 1, total, chosen[n][0], chosen[n][1], rnd, plain)
        if len(chosen) > 1:
            ran = pairs.run_launch(self.ex, chosen, rnd, plain, len(self.manifest["runs"]), show)
        else:
            show(0)
            ran = [chosen[0] + records.one_run(self.ex, chosen[0][0], chosen[0][1], rnd, plain, len(self.manifest["runs"]))
                   + (False,)]
        for n, (item, cfg, rec, header, said, late) in enumerate(ran):
            if late:
                show(n)
            self.take(item, cfg, rec, header, said)
        return [r[:3] for r in ran]

    def take(self, item, cfg, rec, header, said):
        """A run that ended: what it says, said; a launcher that cannot
        start marks its configuration in run.json's "configs", not run
        again (the others go on); an --append's run unlike the folder's
        refused (same_as_before); one of another library not counted; kept."""
        for line in said:
            self.say(line)
        if rec["status"] == 127 and rec.get("not_started"):
            self.cannot_start[cfg["name"]] = rec["error"]
            for c in (c for c in self.manifest["configs"] if c["name"] == cfg["name"]):
                c["cannot_start"] = rec["error"]
            self.say("    FAILED: %s; configuration %s is not run again" % (rec["error"], cfg["name"]))
        self.same_as_before(cfg, header, rec)
        other = self.other_library(cfg, header)
        if other and rec["complete"]:  # kept, not counted: its readers pool only one library per configuration
            rec["complete"], rec["error"] = False, other
            self.say("    %sNOT COUNTED: %s" % ("%s %s: " % item[:2] if "launch" in rec else "", other))
        self.keep(rec, cfg, header)

    def keep(self, rec, cfg, header):
        """Ends the run's file with umb-run's "run" line, from the record run.json
        lists (like.RUN_LINE), then lists it in the manifest."""
        line = {k: rec[k] for k in like.RUN_LINE}
        self.writer.end_file(rec["file"], dict(line, env=cfg["env"], launcher_flags=cfg["launcher_flags"]))
        records.note_header(self.manifest, header, cfg["name"])
        self.manifest["runs"].append(rec)
        self.count += 1

    def same_as_before(self, cfg, header, rec):
        """An --append's run is alike (like.alike) the folder's first
        finished round of its benchmark, pair and configuration (of a new
        one: in its library, unless --build names its own); else it would
        be pooled as a round of what it is not. Then the folder is put back
        as it was (this umb-run's files removed, run.json restored) and
        umb-run refuses in one line naming both files."""
        if not self.old or not isinstance(header, dict):
            return
        done = [r for r in self.old.get("runs", []) if results.finished(r)]
        mine = [r for r in done if r.get("config", "default") == cfg["name"]]
        same = [r for r in mine if (r["program"], r["buffers"]) == (rec["program"], rec["buffers"])]
        first = (same or mine or ([] if self.a.build else done))[:1]
        if not first:
            return
        was = self.writer.path(first[0]["file"])
        if was not in self.before:
            self.before[was] = like.ran(self.old, first[0].get("config", "default"), results.first_header(was))
        differ = [d for d in like.alike(self.before[was], like.ran(self.manifest, cfg["name"], header))
                  if same or d[0] == "library"]
        if differ:
            self.refused = "--append: %s and %s differ in %s; add to a folder only runs like its own (or use a new --out)" \
                % (was, self.writer.path(rec["file"]), like.differences(differ))
            self.writer.undo(self.old)
            raise cli.Fail(self.refused)

    def after_run(self, item, cfg, rec, k, known_skip):
        """A run stopped at the limit would only spend it again; a skipped one
        would skip again: neither runs in later rounds. Then run.json is saved."""
        if rec["status"] in (77, 124) and k < self.a.rounds and not rec.get("interrupted"):
            self.dropped.add((item[0], item[1], cfg["name"]))
            self.manifest["dropped"].append({"program": item[0], "buffers": item[1], "config": cfg["name"],
                                             "round": rec["round"], "why": "skipped" if rec["status"] == 77 else "run-limit"})
            if not known_skip:
                # named: after a launch of several pairs, the lines around it are other pairs'
                self.say("    %s %s%s: not run again in later rounds" % (item[0], item[1], "" if cfg["name"] == "default"
                                                                         else " (%s)" % cfg["name"]))
        if not known_skip:  # those are saved with the next run, or at the end
            self.save()

    def not_to_run(self, item, cfg):
        """Whether this benchmark, pair and configuration was dropped, or its configuration cannot start."""
        return (item[0], item[1], cfg["name"]) in self.dropped or cfg["name"] in self.cannot_start

    def interrupted(self):
        """Whether a signal asked umb-run to stop; the manifest then says so."""
        if self.signals:
            self.manifest["state"], self.manifest["interrupted"] = "interrupted", True
        return self.signals

    def more_rounds(self, k):
        a, m = self.a, self.manifest
        if a.precision:
            m["precision"] = rounds.precision_state(self.writer.folder, m["runs"], a.precision, self.dropped | {
                (it[0], it[1], c) for it in self.items for c in self.cannot_start})
            if m["precision"]["converged"] or rounds.waits_for_nothing(m["precision"]):
                return False
        if all(self.not_to_run(it, c) for it in self.items for c in a.config):  # no round would run anything
            return False
        if a.budget is not None and time.time() - self.t0 >= a.budget and k < a.rounds:
            m["budget_spent"] = True
            self.say("umb-run: --budget %g s spent after round %d" % (a.budget, m["rounds_done"]))
            return False
        return True

    def progress(self, n, total, item, cfg, rnd, plain):
        """A run's progress line: its place in the set, the time so far, the
        program and pair (and the round and configuration, where there are several)."""
        self.say("[%d/%d %6.1fs] %s %s%s" % (n, total, time.time() - self.t0, item[0], item[1],
                                             "" if plain else "  (round %d, %s)" % (rnd, cfg["name"])))

    def other_library(self, cfg, header):
        """Why a run of this umb-run does not count, where it reports another
        MPI library than its configuration's earlier runs (a PATH or module
        changed mid-run): the rounds of one configuration run one library."""
        lib = header.get("mpi_library") if isinstance(header, dict) else None
        was = next((c.get("mpi_library") for c in self.manifest["configs"] if c["name"] == cfg["name"]), None)
        if isinstance(lib, str) and isinstance(was, str) and lib != was:
            return "configuration %s ran '%s' here, '%s' in its earlier runs: not counted (the rounds of one " \
                "configuration run one library)" % (cfg["name"], lib.split(",")[0], was.split(",")[0])
        return None

    def say(self, text, err=False):
        """Progress and reports: a failed write is remembered, not fatal,
        since the results folder is what matters."""
        try:
            # One line each: a folder's name may hold a newline (cli.escaped).
            print(cli.escaped(text), file=sys.stderr if err else sys.stdout, flush=True)
        except OSError as e:
            self.stdout_error = self.stdout_error or e

    def say_emulated(self):
        """A label is a fact: a configuration that emulates another machine says so, at the start and the end."""
        for c in self.a.config:
            if c.get("emulates"):
                self.say("# umb-run: configuration %s: %s" % (c["name"], c["emulates"]))

    def stop_asked(self):
        """A run is stopped on a signal, or as soon as its results folder
        is moved or removed: what follows says so (writer.check_there)
        without waiting the launch out (pass 8)."""
        return self.signals or int(not self.writer.there())

    def on_signal(self, signum):
        self.signals += 1

    def save(self):
        self.manifest["elapsed_s"] = round(time.time() - self.t0, 1)
        self.writer.save(self.manifest)

    def go(self):
        cli.interrupts(self.on_signal)
        try:
            self.save()  # the folder is claimed before the first run
        except cli.Fail:
            self.writer.give_up()
            raise
        self.say_emulated()
        try:
            self.run_rounds()
        finally:
            if not self.refused:  # a refusal put the folder back as it was: nothing more is written
                self.close()
        return self.finish()

    def close(self):
        """run.json's last state, findings and times, whatever ended the rounds."""
        self.writer.check_there()  # a folder moved or removed is said as such, not read by its old name
        if self.manifest["state"] == "running":
            self.manifest["state"] = "stopped"
        self.manifest["findings"] = findings.gather(self.writer.folder, self.manifest["runs"], results.Problems())
        self.manifest["elapsed_s"] = round(time.time() - self.t0, 1)
        self.time_lines = timing.time_report(self.manifest, self.mine(), len(self.a.config))
        self.save()

    def mine(self):
        """This umb-run's runs (an --append adds to earlier ones)."""
        runs = self.manifest["runs"]
        return runs[len(runs) - self.count:] if self.count else []

    def finish(self):
        m = self.manifest
        findings.report(m["findings"], self.say)
        if self.a.precision and "precision" in m:
            for line in rounds.report_precision(m["precision"], m.get("rounds_done", 0)):
                self.say(line)
        mine = self.mine()
        for line in self.time_lines:
            self.say(line)
        self.say_emulated()
        for name, why in self.cannot_start.items():
            self.say("umb-run: configuration %s could not start (%s): its runs are missing" % (name, why), err=True)
        failed = sum(1 for r in mine if r["status"] != 77 and not results.finished(r))
        skipped = sum(1 for r in mine if r["status"] == 77)
        self.say("umb-run: %s: %d runs, %d skipped, %d failed, %.1f s" % (self.writer.folder, len(mine), skipped, failed,
                                                                         m["elapsed_s"]))
        if m["state"] == "interrupted":
            self.say("umb-run: interrupted; %s lists the %d runs that ended" % (
                os.path.join(self.writer.folder, results.MANIFEST), len(mine)), err=True)
            return 130
        if self.stdout_error:
            raise self.stdout_error
        return 1 if failed else 0


def batch(entries, j, free):
    """The entries (indices) that run in entry j's launch: j and every
    later free one of the same launch (the plan's), pairs.MOST_PAIRS at most."""
    return ([j] + [k for k in range(j + 1, len(entries)) if free(k) and entries[k][2] == entries[j][2]])[:pairs.MOST_PAIRS]


def main(here):
    cli.main("umb-run", lambda: Run(options(sys.argv[1:]), here).go())
