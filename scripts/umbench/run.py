"""umb-run: runs the plan of its command line (run_args.py), launch by
launch, and keeps the results: one JSON Lines file per run and a run.json
manifest. The only module that holds the run: the others take plain data."""
import copy
import datetime
import os
import socket
import sys
import time

from . import cli, configs, env, findings, launch, like, pairs, paths, pattern, records, results, rounds, run_args, sets, share, timing
from .standing import note_standing, standing_skip


class Run:
    """One umb-run: its folder's writer, its manifest, and what stops it."""

    def __init__(self, a, here):
        env.check()  # a malformed variable is refused before anything runs
        launch.check_file_limit()
        self.a, self.signals, self.stdout_error, self.count, self.time_lines = a, 0, None, 0, []
        self.dropped = set()  # this umb-run's: an --append on another machine may run what an earlier one skipped
        self.cannot_start = {}  # configuration -> why its launcher cannot start (take)
        self.refused = None  # set when an --append turns out not to belong (take)
        self.before = {}  # an earlier run's file -> what it ran (like.ran), for configs.unlike_before
        self.items = share.mark(sets.commands(a.set, a.want, a.extra), a.within)
        if not self.items:
            raise cli.Fail("--match %s: no benchmark of --set %s matches" % (pattern.said(a.match), a.set))
        if a.build:
            self.how = {c["name"]: launch.Launch.of_build(c["build"], a.np, here) for c in a.config}
            how = "build"
        else:
            launcher, how = launch.find_launcher(a.launcher)
            dirs = paths.in_folders(a.bindir, "--bindir") if a.bindir else None  # ':' refused, as umb-tune does
            one = launch.Launch(launcher, how, a.np, dirs, here)
            self.how = dict.fromkeys([c["name"] for c in a.config], one)
        groups = pairs.ask(self.how.values(), self.items, a, here)  # program -> whether its pairs share a launch
        self.stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = a.out if a.out is not None else os.path.join("umb-results", "%s-%s" % (self.stamp, socket.gethostname()))
        self.writer = results.Writer(out, a.append)
        self.ex = pairs.Executor(self.writer, self.how, a.np, a.run_limit, a.within, self.stop_asked)
        self.old = copy.deepcopy(self.writer.manifest)  # restored if an --append is refused once a run has begun
        try:
            self.manifest, self.offset = run_args.manifest(a, self.writer.manifest, self.stamp, how, self.writer.folder)
        except cli.Fail:
            self.writer.give_up()
            raise
        self.plan = run_args.plan(self.items, a.config, range(self.offset + 1, self.offset + a.rounds + 1), groups)
        self.t0 = time.time()

    def run_rounds(self):
        """Every round: each run of the plan, its launches formed of the
        runs still to run (batch), until the rounds, --precision or --budget end."""
        a, m = self.a, self.manifest
        plain = a.rounds == 1 and len(a.config) == 1 and not self.offset
        total, i = a.rounds * len(self.items) * len(a.config), 0
        standing = {}  # (configuration, STANDING index, what it covers) -> the skip that stands for it (note_standing)
        for k, entries in enumerate(self.plan, 1):
            rnd, done = self.offset + k, set()

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
                group = run_args.batch(entries, j, waiting)
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
            ran = pairs.run_launch(self.ex, chosen, rnd, plain, show)
        else:
            show(0)
            ran = [pairs.one_run(self.ex, chosen[0][0], chosen[0][1], rnd, plain)]
        for n, (item, cfg, rec, err, why, over, asked, who, late) in enumerate(ran):
            if late:
                show(n)
            header, said = (None, []) if err is None else records.settle(self.ex, rec, err, why, over, asked,
                                                                         len(self.manifest["runs"]), who)
            self.take(item, cfg, rec, header, said)
        return [r[:3] for r in ran]

    def take(self, item, cfg, rec, header, said):
        """A run that ended: what it says, said; a launcher that cannot
        start marks its configuration in run.json's "configs", not run
        again (the others go on); an --append's run unlike the folder's
        refused (configs.unlike_before); one of another library not counted; kept."""
        for line in said:
            self.say(line)
        if rec["status"] == 127 and rec.get("not_started"):
            self.cannot_start[cfg["name"]] = rec["error"]
            for c in (c for c in self.manifest["configs"] if c["name"] == cfg["name"]):
                c["cannot_start"] = rec["error"]
            self.say("    FAILED: %s; configuration %s is not run again" % (rec["error"], cfg["name"]))
        self.refused = configs.unlike_before(self.old, self.before, self.manifest, cfg, header, rec, self.a.build,
                                             self.writer.path)
        if self.refused:  # the folder put back as it was: this umb-run's files removed, run.json restored
            self.writer.undo(self.old)
            raise cli.Fail(self.refused)
        other = records.other_library(self.manifest["configs"], cfg, header)
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


def main(here):
    cli.main("umb-run", lambda: Run(run_args.options(sys.argv[1:]), here).go())
