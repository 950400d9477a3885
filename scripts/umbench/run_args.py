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
import os
import socket
import sys

from . import cli, configs, env, pairs, pattern, results, schema, sets, share


def options(argv):
    ap = cli.Parser("umb-run", __doc__)
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
    a.config = [configs.parse_build(b) for b in a.build] if a.build else \
        [{"name": "default", "env": {}, "launcher_flags": []}] + [configs.parse_config(c) for c in a.config]
    names = [c["name"] for c in a.config]
    if len(set(names)) != len(names):
        raise cli.Fail("%s: a name given twice (%s)" % ("--build" if a.build else "--config", ", ".join(names)))
    return a


def manifest(a, old, stamp, how, folder):
    """run.json as this umb-run starts it, and the folder's rounds before
    it: a new one, or (--append) the folder's old one with this session
    added, once this command line is found to belong to it (configs.check_append)."""
    session = {"command": sys.argv, "start": stamp, "pid": os.getpid(), "host": socket.gethostname(), "launcher": how,
               "rounds": a.rounds, "within_s": a.within, "launch_per": a.launch_per}  # an --append's own (run.json's are the first session's)
    if old is None:
        m = {"set": a.set, "command": sys.argv, "launcher": how, "np": a.np, "start": stamp,
             "env": env.recorded(),
             "rounds": a.rounds, "launch_per": a.launch_per, "within_s": a.within, "configs": a.config, "mpi_library": None, "cuda_aware": None, "nodes": [], "gpus": [],
             "runs": [], "dropped": [], "state": "running", "sessions": [session]}
        return m, 0
    configs.check_append(old, a)
    results.load(folder, results.Problems())  # a folder its readers refuse takes no round: they would after
    offset = max([r.get("round", 1) for r in old.get("runs", [])] + [old.get("rounds_done", 0) or 0])
    known = {x["name"] for x in old.get("configs", [])}
    return dict(old, state="running", rounds=offset + a.rounds, sessions=old.get("sessions", []) + [session],
                configs=old.get("configs", []) + [c for c in a.config if c["name"] not in known],
                dropped=old.get("dropped", []), runs=old.get("runs", [])), offset


def plan(items, cfgs, rnds, groups):
    """The runs of the rounds rnds, as plain data, made before any run: for
    each round, [(item, configuration, its launch)], each benchmark and pair
    once per configuration, in an order that turns with the folder's round
    (--append one round at a time turns too) so that drift favours none. The
    runs of a launch share its name (pairs.launch_key) where their program's
    pairs share one (pairs.shares_launch, from pairs.ask's groups); a run
    alone has its own."""
    return [[(it, c, pairs.launch_key(it, c) if pairs.shares_launch(groups, it) else (it[0], it[1], c["name"]))
             for it in items for c in cfgs[(rnd - 1) % len(cfgs):] + cfgs[:(rnd - 1) % len(cfgs)]] for rnd in rnds]


def batch(entries, j, free):
    """The entries (indices) that run in entry j's launch: j and every
    later free one of the same launch (the plan's), pairs.MOST_PAIRS at most."""
    return ([j] + [k for k in range(j + 1, len(entries)) if free(k) and entries[k][2] == entries[j][2]])[:pairs.MOST_PAIRS]
