"""Interleaved rounds: the order that turns each round, one run and its
record, and when to stop repeating (--precision, --budget)."""
import os
import time

from . import findings, judge, results, stats, watch
from .standing import note_standing, standing_skip


def run_rounds(run):
    """Every round: each benchmark and pair once per configuration, in an
    order that turns each round so that drift favours none of them."""
    a, m, configs = run.a, run.manifest, run.a.config
    plain = a.rounds == 1 and len(configs) == 1 and not run.offset
    total, i = a.rounds * len(run.items) * len(configs), 0
    standing = {}  # (configuration, STANDING index, what it covers) -> the skip that stands for it (note_standing)
    for k in range(1, a.rounds + 1):
        rnd = run.offset + k
        turn = (rnd - 1) % len(configs)  # by the folder's round: --append one round at a time turns too
        for item, cfg in ((it, c) for it in run.items for c in configs[turn:] + configs[:turn]):
            i += 1
            if interrupted(run):  # asked to stop between two runs
                return
            if (item[0], item[1], cfg["name"]) in run.dropped or cfg["name"] in run.cannot_start:
                continue
            known_skip = standing_skip(standing, item, cfg)
            if known_skip:
                rec = skip_unstarted(run, item, cfg, rnd, plain, known_skip)
            else:
                run.say("[%d/%d %6.1fs] %s %s%s" % (i, total, time.time() - run.t0, item[0], item[1],
                                                    "" if plain else "  (round %d, %s)" % (rnd, cfg["name"])))
                rec = one_run(run, item, cfg, rnd, plain)
                note_standing(run, standing, item, cfg, rec)
            # A run stopped at the limit would only spend it again; a skipped one would skip again.
            if rec["status"] in (77, 124) and k < a.rounds and not rec.get("interrupted"):
                run.dropped.add((item[0], item[1], cfg["name"]))
                m["dropped"].append({"program": item[0], "buffers": item[1], "config": cfg["name"], "round": rnd,
                                     "why": "skipped" if rec["status"] == 77 else "run-limit"})
                if not known_skip:
                    run.say("    not run again in later rounds")
            if not known_skip:  # those are saved with the next run, or at the end
                run.save()
            if interrupted(run):
                return
        m["rounds_done"] = rnd
        if not more_rounds(run, k):
            break
    m["state"] = "finished"


def nothing_left(run):
    """Whether every benchmark, pair and configuration was dropped or cannot start: no round would run anything."""
    return all((it[0], it[1], c["name"]) in run.dropped or c["name"] in run.cannot_start
               for it in run.items for c in run.a.config)


def skip_unstarted(run, item, cfg, rnd, plain, why):
    """A pair that needs a GPU, where an earlier run of its configuration
    found none, or D where it found a library that is not CUDA-aware: kept
    as skipped, with that reason, without starting it."""
    prog, pair, args = item
    name = run.writer.new_file(run_file(prog, pair, cfg, rnd, plain))
    rec = {"program": prog, "buffers": pair, "file": name, "status": 77, "command": run.how[cfg["name"]].command(
        cfg["launcher_flags"], prog, args), "round": rnd, "config": cfg["name"], "elapsed_s": 0.0,
        "skipped": why, "not_started": True, "complete": False, "findings": []}
    return keep(run, rec, cfg, None)


def run_file(prog, pair, cfg, rnd, plain):
    return "%s-%s%s.jsonl" % (prog, pair.replace(" ", "-"), "" if plain else ".%s.r%d" % (cfg["name"], rnd))


def keep(run, rec, cfg, header):
    """Ends the run's file with umb-run's "run" line, then lists it in the manifest."""
    run.writer.end_file(rec["file"], {"round": rec["round"], "config": cfg["name"], "env": cfg["env"],
                                      "launcher_flags": cfg["launcher_flags"], "status": rec["status"], "complete": rec["complete"]})
    note_header(run.manifest, header, cfg["name"])
    run.manifest["runs"].append(rec)
    run.count += 1
    return rec


def interrupted(run):
    """Whether a signal asked umb-run to stop; the manifest then says so."""
    if run.signals:
        run.manifest["state"], run.manifest["interrupted"] = "interrupted", True
    return run.signals


def more_rounds(run, k):
    a, m = run.a, run.manifest
    if a.precision:
        m["precision"] = precision_state(run.writer.folder, m["runs"], a.precision, run.dropped | {
            (it[0], it[1], c) for it in run.items for c in run.cannot_start})
        if m["precision"]["converged"] or waits_for_nothing(m["precision"]):
            return False
    if nothing_left(run):
        return False
    if a.budget is not None and time.time() - run.t0 >= a.budget and k < a.rounds:
        m["budget_spent"] = True
        run.say("umb-run: --budget %g s spent after round %d" % (a.budget, m["rounds_done"]))
        return False
    return True


def one_run(run, item, cfg, rnd, plain):
    """Runs one benchmark and pair in one configuration; its file ends with
    the "run" line, then the manifest lists it."""
    prog, pair, args = item
    how = run.how[cfg["name"]]
    cmd = how.command(cfg["launcher_flags"], prog, args)
    name = run.writer.new_file(run_file(prog, pair, cfg, rnd, plain))
    started = time.time()
    try:
        rc, err, over, asked, times = watch.run_one(cmd, dict(how.env, **cfg["env"]), run.writer.path(name),
                                                    run.a.run_limit, run.stop_asked)
    except watch.CannotStart as e:
        return cannot_start(run, item, cfg, rnd, name, cmd, str(e))
    run.writer.check_there()
    if rc in NOT_FOUND and not os.path.getsize(run.writer.path(name)):  # a wrapper whose launcher is not found
        said = [line for line in err.splitlines() if line.strip()]
        return cannot_start(run, item, cfg, rnd, name, cmd, "%s: cannot start it (exit %d%s)" % (
            cmd[0], rc, ": " + said[-1].strip()[:200] if said else ""))
    rec = {"program": prog, "buffers": pair, "file": name, "status": rc, "command": cmd, "round": rnd, "config": cfg["name"],
           "elapsed_s": round(time.time() - started, 1), "times_s": times}
    why = [line for line in err.splitlines() if line.startswith(prog + ":")]
    if asked:
        rec.update(interrupted=True, error="stopped: umb-run was interrupted")
        run.say("    STOPPED: umb-run was interrupted; this run did not finish")
    elif rc == 77:
        rec["skipped"] = why[0] if why else "a requirement is missing"
        run.say("    skipped: " + rec["skipped"])
    elif over:
        rec["error"] = "stopped after %g s (--run-limit); it ended after %.1f s" % (run.a.run_limit, rec["elapsed_s"])
        run.say("    STOPPED: " + rec["error"])
    elif rc != 0:
        rec["error"] = why[0] if why else err.strip()[-300:]
        rec["stderr"] = stderr_kept(err)
        run.say("    FAILED (exit %d): %s" % (rc, rec["error"]))
    path = run.writer.path(name)
    rec["complete"], why = judge.judge_output(path) if rc == 0 else (False, None)
    if why:
        rec["error"] = why + "; not counted"
        run.say("    INCOMPLETE: " + rec["error"])
    rec["findings"] = findings.of_file(path, results.Problems()) if rec["complete"] else []
    times.update(judge.inner_seconds(path))
    header = results.first_header(path)
    run.same_library(cfg, header)
    other = run.other_library(cfg, header)
    if other and rec["complete"]:  # kept, not counted: its readers pool only one library per configuration
        rec["complete"], rec["error"] = False, other
        run.say("    NOT COUNTED: " + other)
    return keep(run, rec, cfg, header)


# A shell's statuses for a command not found (127) or not executable (126):
# with no output at all, the launcher (or what a wrapper runs) never started.
NOT_FOUND = (126, 127)
# How much of a failed run's stderr its record keeps (run.json's `stderr`):
# its start, where a crash's report begins, and its end, the launcher's word.
STDERR_HEAD, STDERR_TAIL = 4096, 12288  # an ASan report: 2-5 KiB; a launcher's last word: a few lines


def stderr_kept(err):
    if len(err) <= STDERR_HEAD + STDERR_TAIL:
        return err
    return "%s\n[umb-run: %d characters left out]\n%s" % (err[:STDERR_HEAD], len(err) - STDERR_HEAD - STDERR_TAIL,
                                                       err[-STDERR_TAIL:])


def cannot_start(run, item, cfg, rnd, name, cmd, why):
    """A launcher that cannot start (not found, not executable with this
    configuration's PATH): kept as a failed run (127, as a shell says),
    its configuration marked in run.json's "configs" and not run again;
    the other configurations go on."""
    run.cannot_start[cfg["name"]] = why
    for c in (c for c in run.manifest["configs"] if c["name"] == cfg["name"]):
        c["cannot_start"] = why
    run.say("    FAILED: %s; configuration %s is not run again" % (why, cfg["name"]))
    rec = {"program": item[0], "buffers": item[1], "file": name, "status": 127, "command": cmd, "round": rnd,
           "config": cfg["name"], "elapsed_s": 0.0, "error": why, "not_started": True, "complete": False, "findings": []}
    return keep(run, rec, cfg, None)


def note_header(m, header, config):
    """The library (of the folder, and of each configuration), CUDA
    awareness, nodes and GPUs: the first run that has them."""
    if not header:
        return
    lib = header.get("mpi_library") if isinstance(header.get("mpi_library"), str) else None  # run.json's readers want a string
    m["mpi_library"] = m.get("mpi_library") or lib
    for c in (c for c in m["configs"] if c["name"] == config and not c.get("mpi_library")):
        c["mpi_library"] = lib
    if not m.get("cuda_aware") and isinstance(header.get("cuda_awareness"), dict):
        m["cuda_aware"] = dict(header["cuda_awareness"], line=header.get("cuda_aware"))
    for r in header.get("ranks", []) if isinstance(header.get("ranks"), list) else []:
        if not isinstance(r, dict):
            continue
        if r.get("host") not in m["nodes"]:
            m["nodes"].append(r.get("host"))
        g = "%s %s" % (r.get("host"), r.get("gpu_pci_bus")) if isinstance(r.get("gpu"), int) and r["gpu"] >= 0 else None
        if g and g not in [x["id"] for x in m["gpus"]]:
            m["gpus"].append({"id": g, "name": r.get("gpu_name"), "pcie": r.get("gpu_pcie")})


def precision_state(folder, runs, target, stopped=frozenset()):
    """Whether every size is known to +-target: its values over the rounds
    alone, or, with configurations, each one's per-round ratio to the
    default (stats.reached, the rule of util/core/precision.c). A
    benchmark, pair and configuration in `stopped` (dropped, or whose
    configuration cannot start) runs no more: it is not waited for, and
    is listed as "dropped" (with it, the ratios to a dropped default)."""
    values, problems = {}, results.Problems()  # (program, buffers, config) -> {size: {round: value}}
    for r in runs:
        if results.finished(r):
            for size, v in results.read_results(os.path.join(folder, r["file"]), problems)["rows"].items():
                values.setdefault((r["program"], r["buffers"], r["config"]), {}).setdefault(size, {})[r["round"]] = v
    missing, several, waited = [], len({k[2] for k in values} | {k[2] for k in stopped}) > 1, 0
    gone = set(stopped) | {k for k in values if several and (k[0], k[1], "default") in stopped}
    for (prog, pair, cfg), sizes in sorted(values.items()):
        if several and cfg == "default" or (prog, pair, cfg) in gone:
            continue
        waited += 1
        for size, by_round in sorted(sizes.items()):
            base = values.get((prog, pair, "default"), {}).get(size, {})
            samples = [by_round[r] / base[r] for r in by_round if base.get(r)] if several else list(by_round.values())
            got = stats.reached(samples)
            if got > target:
                missing.append({"program": prog, "buffers": pair, "config": cfg, "size": size,
                                "reached": None if got == float("inf") else round(got, 4)})
    out = {"target": target, "converged": not missing and waited > 0, "not_converged": missing}
    if gone:
        out["dropped"] = [{"program": p, "buffers": b, "config": c} for p, b, c in sorted(gone)]
    return out


def waits_for_nothing(state):
    """Whether every benchmark --precision could wait for was dropped (with
    configurations: every ratio's, e.g. a configuration that cannot start)."""
    return not state["converged"] and not state["not_converged"] and bool(state.get("dropped"))


def report_precision(run, state, rounds_done):
    miss = state["not_converged"]
    for x in state.get("dropped", []):
        run.say("umb-run: precision: %s %s %s not waited for: it was dropped (run.json, dropped)"
                % (x["program"], x["buffers"], x["config"]))
    if waits_for_nothing(state):
        run.say("umb-run: precision +-%g%%: nothing left to wait for after %d rounds" % (100 * state["target"], rounds_done))
        return
    if state["converged"]:
        run.say("umb-run: precision +-%g%% reached at every size after %d rounds" % (100 * state["target"], rounds_done))
        return
    run.say("umb-run: precision +-%g%% not reached after %d rounds at %d sizes (a 95%% interval needs %d rounds):"
            % (100 * state["target"], rounds_done, len(miss), stats.rounds_needed()))
    for x in miss[:20]:
        run.say("    %s %s %s %d B: %s" % (x["program"], x["buffers"], x["config"], x["size"],
                                          "no interval yet" if x["reached"] is None else "+-%.1f%%" % (100 * x["reached"])))
    if len(miss) > 20:
        run.say("    ... and %d more (run.json, precision)" % (len(miss) - 20))
