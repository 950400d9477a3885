"""One run's record (run.json's "runs"): the file of its output, what it
says (settle), and the records of runs that never started; umb-run's
rounds (rounds.py) and its launches of several pairs (pairs.py) keep their
runs here."""
import os
import time

from . import cli, findings, judge, like, programs, results, share, watch


def skip_unstarted(run, item, cfg, rnd, plain, why):
    """A pair that needs a GPU, where an earlier run of its configuration
    found none, or D where it found a library that is not CUDA-aware: kept
    as skipped, with that reason, without starting it."""
    prog, pair, args = item
    name = run.writer.new_file(run_file(prog, pair, cfg, rnd, plain))
    rec = {"program": prog, "buffers": pair, "file": name, "status": 77, "command": run.how[cfg["name"]].command(
        cfg["launcher_flags"], prog, share.unmarked(args, run.a.within)), "round": rnd, "config": cfg["name"], "elapsed_s": 0.0,
        "skipped": why, "not_started": True, "complete": False, "findings": []}
    return keep(run, rec, cfg, None)


def progress(run, n, total, item, cfg, rnd, plain):
    """A run's progress line: its place in the set, the time so far, the
    program and pair (and the round and configuration, where there are several)."""
    run.say("[%d/%d %6.1fs] %s %s%s" % (n, total, time.time() - run.t0, item[0], item[1],
                                        "" if plain else "  (round %d, %s)" % (rnd, cfg["name"])))


def run_file(prog, pair, cfg, rnd, plain):
    return "%s-%s%s.jsonl" % (prog, pair.replace(" ", "-"), "" if plain else ".%s.r%d" % (cfg["name"], rnd))


def keep(run, rec, cfg, header):
    """Ends the run's file with umb-run's "run" line, from the record run.json
    lists (like.RUN_LINE), then lists it in the manifest."""
    line = {k: rec[k] for k in like.RUN_LINE}
    run.writer.end_file(rec["file"], dict(line, env=cfg["env"], launcher_flags=cfg["launcher_flags"]))
    note_header(run.manifest, header, cfg["name"])
    run.manifest["runs"].append(rec)
    run.count += 1
    return rec


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
        said = [line for line in err.split("\n") if line.strip()]
        return cannot_start(run, item, cfg, rnd, name, cmd, "%s: cannot start it (exit %d%s)" % (
            cmd[0], rc, ": " + said[-1].strip()[:200] if said else ""))
    rec = {"program": prog, "buffers": pair, "file": name, "status": rc, "command": cmd, "round": rnd, "config": cfg["name"],
           "elapsed_s": round(time.time() - started, 1), "times_s": times}
    return settle(run, rec, cfg, err, [line for line in err.split("\n") if line.startswith(prog + ":")], over, asked)


def settle(run, rec, cfg, err, why, over, asked, who=""):
    """A run that ended (alone, or as one pair of a launch: pairs.py): what
    it says, whether its output is whole, its findings; kept (keep). why:
    the program's own lines, the first of them its reason; who: the
    program and pair, where its lines come after its launch's (pairs.py)."""
    rc, path = rec["status"], run.writer.path(rec["file"])
    if asked:
        rec.update(interrupted=True, error="stopped: umb-run was interrupted")
        run.say("    " + who + "STOPPED: umb-run was interrupted; this run did not finish")
    elif rc == 77:
        rec["skipped"] = why[0] if why else "a requirement is missing"
        run.say("    " + who + "skipped: " + rec["skipped"])
    elif over:
        rec["error"] = ("stopped after %g s (--run-limit); it ended after %.1f s" % (run.a.run_limit, rec["elapsed_s"])
                        if "launch" not in rec else "its launch of %d pairs was stopped after %g s (--run-limit: %g s a pair) "
                        "while this pair ran" % (rec["launch"]["pairs"], run.a.run_limit * rec["launch"]["pairs"], run.a.run_limit))
        run.say("    " + who + "STOPPED: " + rec["error"])
    elif rc != 0:
        rec["error"] = why[0] if why else err.strip()[-300:]
        rec["stderr"] = stderr_kept(err)
        run.say("    " + who + "FAILED (exit %d): %s" % (rc, rec["error"]))
    header = results.first_header(path)
    rec["complete"], why = judge.judge_output(path, (len(run.manifest["runs"]), rec)) if rc == 0 else (False, None)
    if why:
        rec["error"] = why + "; not counted"
        run.say("    " + who + "INCOMPLETE: " + rec["error"])
    ranks = judge.other_ranks(header, programs.ranks(rec["program"], run.a.np)) if rc == 0 else None
    if ranks:
        rec["complete"], rec["error"] = False, ranks + "; not counted"
        run.say("    " + who + "WRONG RANKS: " + rec["error"])
    rec["findings"] = findings.of_file(path, results.Problems()) if rec["complete"] else []
    rec["times_s"].update(judge.inner_seconds(path))
    same_as_before(run, cfg, header, rec)
    other = run.other_library(cfg, header)
    if other and rec["complete"]:  # kept, not counted: its readers pool only one library per configuration
        rec["complete"], rec["error"] = False, other
        run.say("    " + who + "NOT COUNTED: " + other)
    return keep(run, rec, cfg, header)


def same_as_before(run, cfg, header, rec):
    """An --append's run is alike (like.alike) the folder's first
    finished round of its benchmark, pair and configuration (of a new
    one: in its library, unless --build names its own); else it would
    be pooled as a round of what it is not. Then the folder is put back
    as it was (this umb-run's files removed, run.json restored) and
    umb-run refuses in one line naming both files."""
    if not run.old or not isinstance(header, dict):
        return
    done = [r for r in run.old.get("runs", []) if results.finished(r)]
    mine = [r for r in done if r.get("config", "default") == cfg["name"]]
    same = [r for r in mine if (r["program"], r["buffers"]) == (rec["program"], rec["buffers"])]
    first = (same or mine or ([] if run.a.build else done))[:1]
    if not first:
        return
    was = run.writer.path(first[0]["file"])
    if was not in run.before:
        run.before[was] = like.ran(run.old, first[0].get("config", "default"), results.first_header(was))
    differ = [d for d in like.alike(run.before[was], like.ran(run.manifest, cfg["name"], header))
              if same or d[0] == "library"]
    if differ:
        run.refused = "--append: %s and %s differ in %s; add to a folder only runs like its own (or use a new --out)" \
            % (was, run.writer.path(rec["file"]), like.differences(differ))
        run.writer.undo(run.old)
        raise cli.Fail(run.refused)


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
