"""When --precision ends the rounds: whether every size is known to
+-P%, and what umb-run says of it (run.py runs the rounds)."""
import os

from . import results, stats


def precision_state(folder, runs, target, stopped=frozenset()):
    """Whether every size is known to +-target: its values over the rounds
    alone, or, with configurations, each one's per-round ratio to the
    default (stats.reached, the rule of util/core/precision.c). A
    benchmark, pair and configuration in `stopped` (dropped, or whose
    configuration cannot start) runs no more: it is not waited for, and
    is listed as "dropped" (with it, the ratios to a dropped default)."""
    values, problems = {}, results.Problems()  # (program, buffers, config) -> {size: {round: value}}
    for r in filter(results.finished, runs):
        got = results.read_results(os.path.join(folder, r["file"]), problems)
        if got["rows"] or got["nulls"]:
            sizes = values.setdefault((r["program"], r["buffers"], r["config"]), {})
            for size in got["nulls"]:  # a size without a figure is waited for, not passed over
                sizes.setdefault(size, {})
            for size, v in got["rows"].items():
                sizes.setdefault(size, {})[r["round"]] = v
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


def report_precision(state, rounds_done):
    """What umb-run says of --precision at its end, as lines."""
    miss, head = state["not_converged"], "umb-run: precision +-%g%%" % (100 * state["target"])
    lines = ["umb-run: precision: %s %s %s not waited for: it was dropped (run.json, dropped)"
             % (x["program"], x["buffers"], x["config"]) for x in state.get("dropped", [])]
    if waits_for_nothing(state):
        return lines + [head + ": nothing left to wait for after %d rounds" % rounds_done]
    if state["converged"]:
        return lines + [head + " reached at every size after %d rounds" % rounds_done]
    lines.append(head + " not reached after %d rounds at %d sizes (a 95%% interval needs %d rounds):"
                 % (rounds_done, len(miss), stats.rounds_needed()))
    for x in miss[:20]:
        lines.append("    %s %s %s %d B: %s" % (x["program"], x["buffers"], x["config"], x["size"],
                                                "no interval yet" if x["reached"] is None else "+-%.1f%%" % (100 * x["reached"])))
    if len(miss) > 20:
        lines.append("    ... and %d more (run.json, precision)" % (len(miss) - 20))
    return lines
