"""Interleaved rounds: the order that turns each round, one run and its
record, and when to stop repeating (--precision, --budget)."""
import os
import time

from . import pairs, results, share, stats
from .records import one_run, progress, skip_unstarted
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
        entries = [(it, c) for it in run.items for c in configs[turn:] + configs[:turn]]
        done = set()

        def waiting(j):  # not yet run this round, and to be started
            return j not in done and not dropped(run, *entries[j]) and not standing_skip(standing, *entries[j])
        for j, (item, cfg) in enumerate(entries):
            if j in done:
                continue
            if interrupted(run):  # asked to stop between two runs
                return
            if not waiting(j):  # dropped, its configuration cannot start, or an earlier skip stands for it
                i += 1
                known_skip = not dropped(run, item, cfg) and standing_skip(standing, item, cfg)
                if known_skip:
                    after_run(run, item, cfg, skip_unstarted(run, item, cfg, rnd, plain, known_skip), k, True)
                continue
            group = pairs.batch(run, entries, j, waiting)
            chosen = share.budgets(run, entries, group, waiting, k, pairs.launch_of)  # with --within: the launch's time
            if len(group) > 1:
                ran = pairs.run_launch(run, chosen, rnd, plain, (i, total))
            else:
                item = chosen[0][0]
                progress(run, i + 1, total, item, cfg, rnd, plain)
                ran = [(item, cfg, one_run(run, item, cfg, rnd, plain))]
            for x, (it, c, rec) in zip(group, ran):
                done.add(x)
                i += 1
                note_standing(run, standing, it, c, rec)
                after_run(run, it, c, rec, k, False)
            if interrupted(run):
                return
        m["rounds_done"] = rnd
        if not more_rounds(run, k):
            break
    m["state"] = "finished"


def after_run(run, item, cfg, rec, k, known_skip):
    """A run stopped at the limit would only spend it again; a skipped one
    would skip again: neither runs in later rounds. Then run.json is saved."""
    if rec["status"] in (77, 124) and k < run.a.rounds and not rec.get("interrupted"):
        run.dropped.add((item[0], item[1], cfg["name"]))
        run.manifest["dropped"].append({"program": item[0], "buffers": item[1], "config": cfg["name"], "round": rec["round"],
                                        "why": "skipped" if rec["status"] == 77 else "run-limit"})
        if not known_skip:
            # named: after a launch of several pairs, the lines around it are other pairs'
            run.say("    %s %s%s: not run again in later rounds" % (item[0], item[1], "" if cfg["name"] == "default" else " (%s)" % cfg["name"]))
    if not known_skip:  # those are saved with the next run, or at the end
        run.save()


def dropped(run, item, cfg):
    """Whether this benchmark, pair and configuration was dropped, or its configuration cannot start."""
    return (item[0], item[1], cfg["name"]) in run.dropped or cfg["name"] in run.cannot_start


def nothing_left(run):
    """Whether every benchmark, pair and configuration was dropped or cannot start: no round would run anything."""
    return all(dropped(run, it, c) for it in run.items for c in run.a.config)


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
            got = results.read_results(os.path.join(folder, r["file"]), problems)
            if not got["rows"] and not got["nulls"]:
                continue
            sizes = values.setdefault((r["program"], r["buffers"], r["config"]), {})
            for size, v in got["rows"].items():
                sizes.setdefault(size, {})[r["round"]] = v
            for size in got["nulls"]:  # a size without a figure is waited for, not passed over
                sizes.setdefault(size, {})
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
