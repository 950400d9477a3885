"""umb-tune: find the library settings that change a result. From the
stack's defaults it varies one documented setting at a time (the catalogue
settings.json beside this module), runs the chosen benchmarks and pairs in
interleaved rounds (umb-run --config, with the defaults run twice as an A/A
check) and reports, per benchmark, pair and size, the settings that change
the result beyond the noise, by how much: a ranked table, then the export
lines of the best setting per benchmark and pair.

  umb-tune [OPTIONS] [-- EXTRA BENCHMARK OPTIONS]
  umb-tune --report DIR [--min-effect P%]

Not tried, one line each: a setting the installed MPI or UCX does not know
(ompi_info, mpivars, ucx_info -c), a value already the default, MPS
without more ranks than GPUs, a setting that cannot act on this run (a BTL
under pml ucx). A pass of the defaults (DIR/pilot) is timed first; its
findings and header order the settings, and the settings and rounds that
fit --budget are said before the first round. A setting that stalls a run,
or from --rounds on cannot beat the defaults by --min-effect, leaves the
rounds; under --budget the others go on while rounds fit (at most 3x).
DIR/tune.json keeps the plan, the race and the findings. When a round does
not finish, umb-tune ends with umb-run's status; --report reports what
did. The launcher is umb-run's (MPIEXEC, MPIEXEC_FLAGS). More in
docs/method.md, "Finding the settings that matter".
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import time

from . import cli, configs, installed, launch, paths, pattern, results, schema, sets, tune_plan, tune_report
from . import env as environ  # a setting's env is named env
from .shown import clip

CATALOGUE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "settings.json")
# Each library's variables: a catalogue entry sets one of its library's, never another program's (LD_PRELOAD).
PREFIXES = {"openmpi": "OMPI_MCA_", "ucx": "UCX_", "mpich": "MPIR_CVAR_", "mps": "CUDA_MPS_PIPE_DIRECTORY"}
# What a --match spells out (check_match): a program, a pair, or one buffer kind.
KIND = r"(?<![A-Za-z0-9_])(?:MH|MD|H|D)(?![A-Za-z0-9_])"
NAMED = re.compile(r"umb_[A-Za-z0-9_]+|%s(?: %s)?" % (KIND, KIND))


def options(argv):
    ap = cli.Parser("umb-tune", __doc__)
    ap.add_argument("--set", choices=sets.NAMES, help="default quick")
    ap.add_argument("--match", metavar="REGEX", help="benchmarks and pairs to run, as umb-run --match" + pattern.HELP)
    ap.add_argument("--rounds", metavar="N", help="rounds each setting gets at least (default: as the plan needs)")
    ap.add_argument("--np", metavar="N", help="ranks (default 2)")
    ap.add_argument("--out", metavar="DIR", help="results folder (default umb-results/tune-DATE)")
    ap.add_argument("--only", metavar="NAME,...", help="catalogue names to try (comma-separated; default: every one that applies)")
    ap.add_argument("--catalogue", metavar="FILE", help="settings file (default: the package's settings.json)")
    ap.add_argument("--min-effect", metavar="P%", help="smaller changes count as none (default 5%%, or the search's)")
    ap.add_argument("--budget", metavar="SECONDS", help="seconds for the whole search: the settings and rounds are planned to fit it")
    ap.add_argument("--run-limit", metavar="SECONDS", help="seconds after which one run is stopped (default 120)")
    ap.add_argument("--bindir", metavar="DIR", help="the umb_* programs' build folder, or folders separated by ':'")
    ap.add_argument("--report", metavar="DIR", help="print an earlier search's report; runs and writes nothing")
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    a.extra = argv[argv.index("--") + 1:] if "--" in argv else None
    # --report reads a search: the search's options are refused, not ignored.
    search_only = [x for x in ap._actions if x.dest not in ("help", "min_effect", "report")]
    given = [x.option_strings[0] for x in search_only if getattr(a, x.dest)] + (["--"] if a.extra is not None else [])
    if a.report is not None and given:
        raise cli.Fail("--report %s with %s: --report reads an earlier search and runs nothing; of the options only "
                       "--min-effect applies to it" % (cli.shown(a.report), " ".join(given)))
    a.min_effect = None if a.min_effect is None else cli.percent(a.min_effect, "--min-effect")
    # Bounds of the files they go into (tune.json, run.json): their schemas say them.
    a.rounds = None if a.rounds is None else cli.count(a.rounds, "--rounds", 2, schema.bound("tune", "rounds")[1])
    a.np = cli.count(a.np or "2", "--np", 2, schema.bound("run", "np")[1])
    a.budget = None if a.budget is None else cli.seconds(a.budget, "--budget")
    a.run_limit = cli.seconds(a.run_limit or "120", "--run-limit")
    if a.bindir is not None:
        paths.in_folders(a.bindir, "--bindir")
    a.set = a.set or "quick"
    check_match(a.set, a.match)
    return a


def check_match(name, match):
    """--match against the set being tuned, before anything runs: a pattern
    that finds none of its "program pair" names is refused, naming what the
    set holds; a program or a pair the pattern spells out that the set does
    not hold (the quick set has no D D) is said, with what will be tuned."""
    if match is None:
        return
    want, progs = pattern.regex(match), {}
    for p, pair, _ in sets.commands(name, re.compile(""), []):
        progs.setdefault(p, []).append(pair)
    holds = clip("; ".join("%s %s" % (p, ", ".join(v)) for p, v in progs.items()), 300)  # umb_bw H H, D D; umb_bcast D
    hits = ["%s %s" % (p, pair) for p, pair, _ in sets.commands(name, want, [])]
    if not hits:
        raise cli.Fail("--match %s: no benchmark and pair of --set %s matches; it holds %s"
                       % (pattern.said(match), name, holds))
    # A program, a pair, or one buffer kind of a pair: "D" is in the set that has "D MD".
    missing = [w for w in dict.fromkeys(m.group(0) for m in NAMED.finditer(match)) if not any(
        w in (p, *v) or (" " not in w and not w.startswith("umb_") and w in " ".join(v).split())
        for p, v in progs.items())]
    if missing:
        print("umb-tune: --match %s: %s %s not in --set %s (it holds %s); tuning %s only"
              % (pattern.said(match), ", ".join(missing), "is" if len(missing) == 1 else "are", name, holds,
                 clip(", ".join(hits), 200)), file=sys.stderr)


def read_catalogue(path, only=None):
    """The catalogue's settings that --only names (all without it), checked
    against its schema (schemas/settings.schema.json), then as umb-run
    --config will take them: a malformed one is named in one line before
    anything runs."""
    label = "--catalogue %s" % path
    if os.path.isdir(path):
        raise cli.Fail("%s: a folder; expected the settings file (as %s)" % (label, CATALOGUE))
    entries = schema.load(path, "settings", label, "a catalogue of settings")["settings"]
    names, configs_of = {}, {}  # --only and tune.json name an entry; umb-run a configuration
    for n, e in enumerate(entries, 1):
        where = "%s: setting %d (%s)" % (label, n, e["name"])
        check_entry(where, e)
        if names.setdefault(e["name"], n) != n:
            raise cli.Fail("%s: setting %d: the name %s is also setting %d's; each name once"
                           % (label, n, e["name"], names[e["name"]]))
        for value in e["values"]:
            name = config_name(e, value)
            configs.check_name(name, "%s: value %r: configuration" % (where, value), name)
            if name in configs_of:
                raise cli.Fail("%s: value %r: its configuration %s is also setting %d's; each name and value once"
                               % (where, value, name, configs_of[name]))
            configs_of[name] = n
    if only is None:
        return entries
    wanted = [x.strip() for x in only.split(",")]
    if "" in wanted:
        raise cli.Fail("--only %s: an empty name; expected catalogue names separated by commas, e.g. --only pml,UCX_TLS "
                       "(without --only every one is tried)" % cli.shown(only))
    if set(wanted) - set(names):
        raise cli.Fail("--only %s: not in the catalogue; accepted: %s" % (
            ",".join(cli.shown(x) for x in sorted(set(wanted) - set(names))), ", ".join(sorted(names))))
    return [e for e in entries if e["name"] in wanted]


def check_entry(where, e):
    """A catalogue value is data: one value of its library's variable, passed
    whole. One that umb-run's --config grammar would split (a ',' before
    NAME=, ':-' before launcher flags) or that holds a control character is
    refused with the entry and the value."""
    var, prefix = e["variable"], PREFIXES[e["library"]]
    if not (var.startswith(prefix) if prefix.endswith("_") else var == prefix) or not configs.ENV_NAME.match(var):
        raise cli.Fail("%s: variable %s is not one of %s's (%s%s)" % (where, var, e["library"], prefix,
                                                                      "..." if prefix.endswith("_") else ""))
    for value in e["values"]:
        why = "empty" if not value else "a control character" if not value.isprintable() else tune_plan.unsplit({var: value})
        if why:
            raise cli.Fail("%s: value %r of %s: %s; a value is data, one value of its variable" % (where, value, var, why))


def config_name(entry, value):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", "%s-%s" % (entry["name"], value))


def plan(a, catalogue, lib, out):
    """The settings to try, and those refused with why. An MPS setting runs
    its ranks under a server of umb-tune's own, found through
    CUDA_MPS_PIPE_DIRECTORY; the default configuration's ranks do not."""
    tried, refused = [], []
    mps = {"CUDA_MPS_PIPE_DIRECTORY": os.path.join(os.path.abspath(out), "mps-pipe"),
           "CUDA_MPS_LOG_DIRECTORY": os.path.join(os.path.abspath(out), "mps-log")}
    for entry in catalogue:
        for value in entry["values"]:
            env = {entry["variable"]: value} if entry["library"] != "mps" else mps
            why = lib.check(entry, value, a.np) or tune_plan.unsplit(env)
            if why:
                refused.append({"variable": entry["variable"], "value": value, "why": why})
                print("umb-tune: not tried: %s=%s: %s" % (entry["variable"], value, why))
                continue
            tried.append({"name": config_name(entry, value), "entry": entry["name"], "library": entry["library"],
                          "variable": entry["variable"], "value": value if entry["library"] != "mps" else "on", "env": env})
    if not tried:
        raise cli.Fail("no setting of the catalogue can be tried here (%d refused)" % len(refused))
    return tried, refused


def start_mps(tried):
    """An MPS setting kept in the plan gets its server now (stopped at exit);
    one whose server does not start is dropped."""
    for t in [t for t in tried if t["library"] == "mps"]:
        env = dict(environ.whole(), **t["env"])
        for d in t["env"].values():
            os.makedirs(d, exist_ok=True)
        if subprocess.run(["nvidia-cuda-mps-control", "-d"], env=env).returncode == 0:
            atexit.register(subprocess.run, ["nvidia-cuda-mps-control"], input="quit\n", text=True, env=env)
            continue
        print("umb-tune: not tried: MPS: nvidia-cuda-mps-control -d failed")
        tried.remove(t)
    if not tried:
        raise cli.Fail("no setting left to try: the MPS server did not start (nvidia-cuda-mps-control -d)")
    return tried


def search(a, here):
    launch.find_launcher("auto")  # no launcher: one line saying so, not every setting "not tried"
    launch.check_file_limit()
    catalogue = read_catalogue(a.catalogue or CATALOGUE, a.only)
    a.min_effect = 0.05 if a.min_effect is None else a.min_effect
    target = a.out or os.path.join("umb-results", "tune-" + time.strftime("%Y%m%d-%H%M%S"))
    made = paths.first_missing(target)
    tune_report.refuse_held(target, "--out")  # before the lock: a refusal leaves the folder as it was
    out = paths.out_folder(target)
    paths.hold_lock(out, tune_report.LOCK, "umb-tune")
    try:
        tune_report.refuse_held(out, "--out")  # again under the lock: another search may have begun meanwhile
        return searched(a, here, out, catalogue)
    finally:  # a search that wrote nothing of its own leaves no folder holding only its lock
        paths.leave_untouched(out, tune_report.LOCK, made)


def searched(a, here, out, catalogue):
    t0, lib, child, pilot = time.time(), installed.Installed(), tune_plan.Child(), os.path.join(out, "pilot")
    print("# umb-tune: %s%s; min effect %g%%%s" % (lib.names.get(lib.mpi) or "MPI unknown", ", " + lib.names["ucx"] if lib.ucx else "",
                                                  100 * a.min_effect, "; budget %g s" % a.budget if a.budget else ""))
    tried, refused = plan(a, catalogue, lib, out)
    rc, pass_s, match, benchmarks = tune_plan.pilot(a, here, out, child)
    if rc is not None:
        if os.path.exists(os.path.join(pilot, results.MANIFEST)):
            print("umb-tune: the pass of the defaults did not finish (exit %d): no setting ran, nothing to report; "
                  "a new search needs a new --out (or remove %s)" % (rc, out), file=sys.stderr)
        else:  # umb-run refused before it ran anything, in its own line: the folder stays free
            shutil.rmtree(pilot, ignore_errors=True)
        return rc
    try:
        tried, cannot_act = tune_plan.rank(tried, tune_plan.evidence(pilot))
        tried, left_out, a.rounds = tune_plan.fit(a, tried, pass_s, benchmarks, time.time() - t0)
    except cli.Fail:
        shutil.rmtree(pilot, ignore_errors=True)  # nothing searched: the folder stays free
        raise
    record = {"tried": start_mps(tried), "refused": refused, "cannot_act": cannot_act, "left_out": left_out,
              "rounds": a.rounds, "min_effect": a.min_effect, "budget": a.budget, "pass_s": round(pass_s, 1),
              "findings": None}
    tune_report.save(out, record)
    rc = tune_plan.race(a, here, out, tried, match, pass_s, t0, child)
    tune_report.save(out, record)  # when each setting was dropped
    state = (results.read_manifest(out) or {}).get("state")
    if state is None:  # umb-run refused before it ran anything, in its own line: no search
        os.remove(os.path.join(out, tune_report.TUNE))
        return rc or 1
    if rc is not None:
        print("umb-tune: umb-run did not finish its round (exit %d, run.json: %s); no report. umb-tune --report %s "
              "reports what finished" % (rc, state, out), file=sys.stderr)
        return rc
    tune_report.save(out, tune_report.analyse(out, record))


def main(here):
    def body():
        a = options(sys.argv[1:])
        if a.report is None:
            return search(a, here)
        # A reader: the search's own min effect unless one is given, and nothing written.
        t = tune_report.read(a.report, a.min_effect)
        print("# umb-tune --report %s: min effect %g%% (%s)"
              % (a.report, 100 * t["min_effect"], "--min-effect" if a.min_effect is not None else "the search's"))
        tune_report.analyse(a.report, t, written=False)
    cli.main("umb-tune", body)
