"""Where an umb-run's time went: the lines it prints at the end and
run.json's "time_s"."""


def time_report(m, mine, configs):
    """Where this umb-run's time went, as lines to print at the end: the
    parts of the runs that ran (watch.Output.times: start, measure, end, or
    unsplit where the output arrived in one piece), the buffers' placement
    within the measuring, the pairs that could not run, per program and
    the longest runs (with their configuration where there are several). Also
    run.json's "time_s" (in m, the manifest)."""
    lines = []
    ran = [r for r in mine if r["status"] != 77 and "times_s" in r]
    cannot = [r for r in mine if r["status"] == 77]
    if not ran and not cannot:
        m.pop("time_s", None)  # an --append's earlier session's sums are not this one's
        return lines
    part = {k: round(sum(r["times_s"].get(k, 0) for r in ran), 1) for k in ("start", "measure", "end")}
    cannot_s = round(float(sum(r["elapsed_s"] for r in cannot)), 1)
    own = max(0.0, round(m["elapsed_s"] - sum(r["elapsed_s"] for r in mine), 1))
    m["time_s"] = dict(part, cannot_run=cannot_s, cannot_run_runs=len(cannot),
                       not_started=sum(1 for r in cannot if r.get("not_started")), umb_run=own)
    for key in ("placing", "again", "unsplit"):
        got = [r["times_s"][key] for r in ran if key in r["times_s"]]
        if got:
            m["time_s"][key] = round(sum(got), 1)
    unsplit = [r for r in ran if "unsplit" in r["times_s"]]
    if unsplit:
        m["time_s"]["unsplit_runs"] = len(unsplit)
    parts = "; ".join(t % m["time_s"][k] for k, t in (
        ("placing", "placing the buffers about %.1f s: P50 x timed iterations"),
        ("again", "the precision loop's attempts after each size's first %.1f s")) if k in m["time_s"])
    within, held = " (of it: %s)" % parts if parts else "", ""
    # A launcher that holds the output back and hands it over in one piece
    # hides when measuring began and ended: said, never shown as 0.0 s.
    if unsplit:  # placing and the precision loop's repeats then lie in both sums
        within, held = "", ("; %d run%s whose output arrived in one piece (held back by the launcher): %.1f s of "
                            "measuring and after the last line, not told apart%s" % (
                                len(unsplit), "" if len(unsplit) == 1 else "s", m["time_s"]["unsplit"],
                                " (of these and the measuring: %s)" % parts if parts else ""))
    lines.append("# Where the time went (%.1f s): %d run%s: start-up %.1f s (launcher, MPI_Init, GPU context: to each run's "
                 "first line), measuring %.1f s%s, after the last line %.1f s%s; %d pairs that could not run here: %.1f s "
                 "(%d not started); umb-run itself %.1f s" % (
                     m["elapsed_s"], len(ran), "" if len(ran) == 1 else "s", part["start"], part["measure"], within,
                     part["end"], held, len(cannot), cannot_s, m["time_s"]["not_started"], own))
    if not ran:
        return lines
    per = {}
    for r in ran:
        per.setdefault(r["program"], []).append(r["elapsed_s"])
    lines.append("# By program: " + ", ".join("%s %.1f s (%d)" % (p, sum(t), len(t))
                                         for p, t in sorted(per.items(), key=lambda kv: -sum(kv[1]))))
    longest = sorted(ran, key=lambda r: -r["elapsed_s"])[:5]
    lines.append("# Longest runs: " + ", ".join("%s %s%s %.1f s" % (r["program"], r["buffers"], "" if configs == 1
                                                                       else " (%s)" % r["config"], r["elapsed_s"]) for r in longest))
    return lines
