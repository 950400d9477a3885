"""umb-tune's plan and race (docs/method.md, "The explorer's budget" and
"The explorer's order"): a timed pass of the defaults orders the settings;
those that fit --budget run round after round, and a setting that cannot
beat the defaults by --min-effect leaves the rounds to the rest."""
import os
import re
import subprocess
import sys
import time

from . import cli, configs, programs, results, stats, tune_report

EXTRA_ROUNDS = 3  # under --budget, rounds go on to at most 3x --rounds while settings are undecided
BTL = re.compile(r"OMPI_MCA_btl(_|$)")  # the btl framework's selection and its components' settings


class Child:
    """umb-run in a session of its own: a signal to umb-tune reaches it
    once, forwarded; one between two rounds starts no other."""

    def __init__(self):
        self.proc, self.signals = None, 0
        cli.interrupts(self.on_signal)

    def on_signal(self, signum):
        self.signals += 1
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signum)

    def run(self, cmd):
        try:
            self.proc = subprocess.Popen(cmd, start_new_session=True)
        except OSError as e:
            raise cli.Fail("%s: cannot start it (%s)" % (cmd[1], e.strerror or e))
        rc = self.proc.wait()
        return 128 - rc if rc < 0 else rc  # ended by signal N: 128 + N, as a shell says (-2 became exit 254)


def config_text(name, env):
    """The --config argument of a configuration: NAME:VAR=VALUE,..."""
    return "%s:%s" % (name, ",".join("%s=%s" % kv for kv in env.items()))


def unsplit(env):
    """None when umb-run's --config grammar reads these variables back
    whole, else what it would read instead (one line): a value is data,
    never launcher flags nor another variable."""
    text = config_text("x", env)
    try:
        got = configs.parse_config(text)
    except cli.Fail as e:
        return "umb-run --config would refuse it (%s)" % str(e).replace("--config %s: " % text, "")
    if got["env"] == env and not got["launcher_flags"]:
        return None
    flags = " and launcher flags %s" % " ".join(got["launcher_flags"]) if got["launcher_flags"] else ""
    return "umb-run --config would read it as %s%s" % (", ".join("%s=%s" % kv for kv in got["env"].items()), flags)


def command(a, here, out, settings, match, append=False):
    """umb-run over the defaults, "again" (the defaults a second time: the
    A/A floor each verdict must clear) and these settings. Every run has
    --path: the pilot's findings and the report's path column rest on it,
    and its cost falls on the defaults and the settings alike."""
    cmd = [sys.executable, os.path.join(here, "umb-run"), "--set", a.set, "--out", out, "--np", str(a.np),
           "--rounds", "1", "--run-limit", str(a.run_limit)] + (["--append"] if append else [])
    cmd += (["--match", match] if match else []) + (["--bindir", a.bindir] if a.bindir else [])
    if settings is not None:
        cmd += ["--config", "again"]
    for t in settings or []:
        why = unsplit(t["env"])
        if why:  # plan() refused these: never pass a value that would be split
            raise cli.Fail("%s=%s: %s" % (t["variable"], t["value"], why))
        cmd += ["--config", config_text(t["name"], t["env"])]
    bench = a.extra or []
    return cmd + ["--"] + bench + ([] if "--path" in bench else ["--path"])


def pilot(a, here, out, child):
    """One pass of the defaults in OUT/pilot: its wall time, and a --match
    of the benchmarks and pairs that finished (those skipped here, or
    stopped at --run-limit, would only spend every round); or umb-run's
    status and None when the pass did not finish."""
    folder = os.path.join(out, "pilot")
    print("# umb-tune: one pass of the defaults first, to plan the rounds (%s)" % folder, flush=True)
    t0 = time.time()
    rc = child.run(command(a, here, folder, None, a.match))
    took = time.time() - t0
    m = results.read_manifest(folder) or {}
    if child.signals or m.get("state") != "finished":
        return rc or 1, None, None, 0
    ran = sorted({"%s %s" % (r["program"], r["buffers"]) for r in m.get("runs", []) if results.finished(r)})
    if not ran:
        raise cli.Fail("the pass of the defaults finished no benchmark (%s/run.json says why): nothing to tune" % folder)
    return None, took, "^(%s)$" % "|".join(re.escape(x) for x in ran), len(ran)


def evidence(folder):
    """What the pilot's runs say of this run: the pml and whether UCX was
    loaded (their header's cuda_awareness, which run.json keeps as
    cuda_aware), whether a one-sided program ran (its osc may use the
    BTLs whatever the pml), and each finding's "try" text."""
    m = results.read_manifest(folder) or {}
    aware = m.get("cuda_aware") or {}  # run.json's schema: an object or null
    runs = [r for r in m.get("runs", []) if results.finished(r)]
    tries = {}
    for f in list(m.get("findings") or []) + [f for r in runs for f in r.get("findings", [])]:
        if f.get("try"):  # run.json's schema: findings are objects, "try" a string or null
            tries.setdefault(f["try"], str(f.get("finding")))
    pml = aware.get("pml") if isinstance(aware.get("pml"), str) else None  # a program's header: a string, or null
    return {"pml": pml or None, "ucx_loaded": aware.get("ucx_loaded"), "tries": tries,
            "one_sided": bool(set(programs.of_family("rma")) & {r["program"] for r in runs})}


def named(t, tries):
    """The finding whose "try" names this setting: 0 with its value
    (VAR=VALUE), 1 the variable alone; None when none does."""
    best, value = None, "=" + t["value"]
    for text, finding in tries.items():
        for m in re.finditer(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(t["variable"]), text):
            after = text[m.end():]
            with_value = after.startswith(value) and not re.match(r"[A-Za-z0-9_.]", after[len(value):])
            best = min(best or (2, ""), (0 if with_value else 1, finding))
    return best


def place(t, ev, transport):
    """Where the setting comes in the order, and why: (tier, why), tier None
    where it cannot act on this run. It acts on the transport in use under
    pml ucx where it is UCX's or the pml, under ob1 a BTL's or the pml;
    without a pml (MPICH) where it is the MPI's own, or UCX's where loaded."""
    var, lib, pml, by = t["variable"], t["library"], ev["pml"], named(t, ev["tries"])
    btl = bool(BTL.match(var))
    if lib == "ucx" and ev["ucx_loaded"] is False:
        return None, "UCX is not loaded in the pass of the defaults (its header: ucx_loaded false)"
    if var == "OMPI_MCA_pml" and pml == t["value"]:
        return None, "already the pml in use (the pass of the defaults' header)"
    if btl and pml and pml != "ob1" and not ev["one_sided"]:
        return None, "the pass of the defaults ran pml %s (its header): the BTLs carry ob1's messages only" % pml
    if by:
        return by[0], "named by the finding %s" % by[1]
    if pml:
        acts = var == "OMPI_MCA_pml" or (pml == "ucx" and lib == "ucx") or (pml == "ob1" and btl)
    else:
        acts = lib == "mpich" or (lib == "ucx" and bool(ev["ucx_loaded"]))
    return (2, "acts on the transport in use (%s)" % transport) if acts else (3, "the rest")


def rank(tried, ev):
    """The settings in the order the budget takes them: those the pilot's
    findings name (with their value first), then those that act on the
    transport in use, then the rest, each in catalogue order; and those
    that cannot act here, apart, each said in one line."""
    transport = "pml " + ev["pml"] if ev["pml"] else "no pml in the header"
    tiers, out = [], []
    for t in tried:
        tier, why = place(t, ev, transport)
        if tier is None:
            out.append({"variable": t["variable"], "value": t["value"], "why": why})
            print("umb-tune: cannot act here: %s=%s: %s" % (t["variable"], t["value"], why))
        else:
            t["order"] = why
            tiers.append((tier, t))
    keep = [t for _, t in sorted(tiers, key=lambda x: x[0])]  # a stable sort: catalogue order within a tier
    if not keep:
        raise cli.Fail("no setting of the catalogue can act on this run (%d cannot, e.g. %s=%s: %s)"
                       % (len(out), out[0]["variable"], out[0]["value"], out[0]["why"]))
    first = ", ".join("%s=%s (%s)" % (t["variable"], t["value"], t["order"][len("named by the finding "):])
                      for t in keep if t["order"].startswith("named"))
    print("# umb-tune: in order: %s%d settings that act on the transport in use (%s), then %d others"
          % ("the findings of the pass of the defaults name %s; then " % first if first else "",
             sum(1 for t in keep if t["order"].startswith("acts")), transport, sum(1 for t in keep if t["order"] == "the rest")))
    return keep, out


def fit(a, tried, pass_s, benchmarks, spent):
    """The settings that fit --budget, in rank()'s order, those left out,
    and the rounds: --rounds, or as many as a change at every size of one
    benchmark needs to be kept over the whole table (stats.rounds_kept),
    which fewer settings make fewer. Refuses a budget that fits none."""
    def rounds(n):
        return a.rounds or stats.rounds_kept(1 / ((n + 1) * benchmarks))  # n settings and the A/A twin

    def need(n):
        return rounds(n) * (n + 2) * pass_s + spent
    n, planned, wanted = len(tried), rounds(len(tried)), stats.rounds_kept(1 / ((len(tried) + 1) * benchmarks))
    while a.budget is not None and n and need(n) > a.budget:
        n -= 1
    print("# plan: one pass of the defaults took %.1f s; %d rounds of %d settings, the defaults and their A/A twin: about %.0f s"
          % (pass_s, planned, len(tried), need(len(tried))))
    if planned < stats.rounds_needed():
        print("# umb-tune: %d rounds give no verdict at all (a 95%% interval needs %d): the search will only show ratios"
              % (planned, stats.rounds_needed()))
    elif planned < wanted:
        print("# umb-tune: at %d rounds only a change at many sizes can be kept over the %d settings' table; one at every size of a "
              "single benchmark needs %d" % (planned, len(tried), wanted))
    if not n:
        raise cli.Fail("--budget %g: too small; %d rounds of the defaults, their A/A twin and one setting need about %.0f s "
                       "(a pass of the defaults took %.1f s); give --budget %.0f or more, or fewer benchmarks (--match) or sizes"
                       % (a.budget, rounds(1), need(1), pass_s, need(1)))
    if n < len(tried):
        print("umb-tune: --budget %g fits %d of the %d settings at %d rounds; all of them need about --budget %.0f. Left out: %s"
              % (a.budget, n, len(tried), rounds(n), need(len(tried)),
                 ", ".join("%s=%s" % (t["variable"], t["value"]) for t in tried[n:])))
    return tried[:n], tried[n:], rounds(n)


def can_win(rows, min_effect):
    """Whether some size's interval still reaches a gain of min_effect."""
    for r in rows:
        iv, higher = r["interval"], stats.METRICS[r["metric"]]
        if not iv or (iv[1] - 1 if higher else 1 / iv[0] - 1) >= min_effect:
            return True
    return False


def undecided(rows, min_effect):
    """Whether some size is neither a verdict kept over the table nor known
    to lie within +-min_effect: more rounds could still change what it says."""
    lo, hi = 1 / (1 + min_effect), 1 + min_effect
    return any(not r["interval"] or r.get("alone") or (r["verdict"].startswith("same") and not lo <= r["interval"][0] <= r["interval"][1] <= hi)
               for r in rows)


def judge(out, runs, alive, min_effect, rnd, raced):
    """After round rnd: {setting: why it leaves}. A run that stalled drops
    its setting at once; from --rounds on (`raced`), so does one that
    cannot win, or that more rounds would not change."""
    rows = tune_report.compared(out, min_effect)[2]
    stalled = {r.get("config") for r in runs if r.get("round") == rnd and r["status"] == 124}
    gone = {}
    for t in alive:
        mine = [r for r in rows if r["config"] == t["name"]]
        if t["name"] in stalled:
            gone[t["name"]] = "a run stalled (--run-limit)"
        elif raced and mine and all(r["interval"] for r in mine) and not can_win(mine, min_effect):
            gone[t["name"]] = "cannot beat the defaults by %g%% at any size" % (100 * min_effect)
        elif raced and mine and not undecided(mine, min_effect):
            gone[t["name"]] = "decided at every size"
    return gone


def race(a, here, out, tried, match, pass_s, t0, child):
    """The rounds: each one umb-run --append; the race after each. Returns
    umb-run's status when a round did not finish, else None."""
    alive, k, per = list(tried), 0, pass_s
    while alive and k < a.rounds * (EXTRA_ROUNDS if a.budget is not None else 1) and not child.signals:
        left = a.budget - (time.time() - t0) if a.budget is not None else None
        if left is not None and left < per * (len(alive) + 2) * max(1, a.rounds - k):
            if k >= a.rounds:
                break  # rounds past --rounds only while they fit
            keep = max(0, int(left // (per * (a.rounds - k))) - 2)  # the rounds a verdict needs, for fewer settings
            for t in alive[keep:]:
                t["dropped"] = {"round": k, "why": "left out for time (rounds took %.1f s per configuration)" % per}
                print("umb-tune: %s=%s: %s" % (t["variable"], t["value"], t["dropped"]["why"]))
            alive = alive[:keep]
            if not alive:
                print("umb-tune: the budget left no time for another round of any setting")
                break
        print("# umb-tune: round %d, %d settings" % (k + 1, len(alive)), flush=True)
        started = time.time()
        rc = child.run(command(a, here, out, alive, match, append=k > 0))
        m = results.read_manifest(out) or {}
        if child.signals or rc not in (0, 1) or m.get("state") != "finished":
            return rc or 1
        k += 1
        per = (time.time() - started) / (len(alive) + 2)
        gone = judge(out, m.get("runs", []), alive, a.min_effect, k, raced=k >= a.rounds)
        for t in (t for t in alive if t["name"] in gone):
            t["dropped"] = {"round": k, "why": gone[t["name"]]}
            print("umb-tune: %s=%s: dropped after round %d: %s" % (t["variable"], t["value"], k, gone[t["name"]]))
        alive = [t for t in alive if "dropped" not in t]
    return 130 if child.signals else None
