"""One run's record (run.json's "runs"): the file of its output, what it
says (settle), and the records of runs that never started. It runs what it
is given (Executor) and returns the records; umb-run (run.py) lists them
in run.json and says what they say."""
import collections
import os
import time

from . import findings, judge, programs, results, share, watch


# What a run needs of umb-run, as plain data: the folder's writer (its
# files; run.json is the top level's), each configuration's launcher
# (launch.Launch), --np, --run-limit, --within, and stop: whether to stop
# the run in progress (a signal, the folder gone; watch.run_one).
Executor = collections.namedtuple("Executor", "writer how np run_limit within stop")


def unstarted(ex, item, cfg, rnd, plain, why):
    """A pair that needs a GPU, where an earlier run of its configuration
    found none, or D where it found a library that is not CUDA-aware: kept
    as skipped, with that reason, without starting it."""
    prog, pair, args = item
    name = ex.writer.new_file(run_file(prog, pair, cfg, rnd, plain))
    return {"program": prog, "buffers": pair, "file": name, "status": 77, "command": ex.how[cfg["name"]].command(
        cfg["launcher_flags"], prog, share.unmarked(args, ex.within)), "round": rnd, "config": cfg["name"], "elapsed_s": 0.0,
        "skipped": why, "not_started": True, "complete": False, "findings": []}


def run_file(prog, pair, cfg, rnd, plain):
    return "%s-%s%s.jsonl" % (prog, pair.replace(" ", "-"), "" if plain else ".%s.r%d" % (cfg["name"], rnd))


def one_run(ex, item, cfg, rnd, plain, index):
    """Runs one benchmark and pair in one configuration: (its record, its
    header, what it says) (settle); index: its place in run.json's runs."""
    prog, pair, args = item
    how = ex.how[cfg["name"]]
    cmd = how.command(cfg["launcher_flags"], prog, args)
    name = ex.writer.new_file(run_file(prog, pair, cfg, rnd, plain))
    started = time.time()
    try:
        rc, err, over, asked, times = watch.run_one(cmd, dict(how.env, **cfg["env"]), ex.writer.path(name),
                                                    ex.run_limit, ex.stop)
    except watch.CannotStart as e:
        return cannot_start(item, cfg, rnd, name, cmd, str(e)), None, []
    ex.writer.check_there()
    if rc in NOT_FOUND and not os.path.getsize(ex.writer.path(name)):  # a wrapper whose launcher is not found
        said = [line for line in err.split("\n") if line.strip()]
        return cannot_start(item, cfg, rnd, name, cmd, "%s: cannot start it (exit %d%s)" % (
            cmd[0], rc, ": " + said[-1].strip()[:200] if said else "")), None, []
    rec = {"program": prog, "buffers": pair, "file": name, "status": rc, "command": cmd, "round": rnd, "config": cfg["name"],
           "elapsed_s": round(time.time() - started, 1), "times_s": times}
    return settle(ex, rec, err, [line for line in err.split("\n") if line.startswith(prog + ":")], over, asked, index)


def settle(ex, rec, err, why, over, asked, index, who=""):
    """A run that ended (alone, or as one pair of a launch: pairs.py): what
    it says, whether its output is whole, its findings: (rec, its header,
    the lines to say). why: the program's own lines, the first of them its
    reason; who: the program and pair, where its lines come after its
    launch's (pairs.py); index: its place in run.json's runs."""
    rc, path, said = rec["status"], ex.writer.path(rec["file"]), []
    if asked:
        rec.update(interrupted=True, error="stopped: umb-run was interrupted")
        said.append("STOPPED: umb-run was interrupted; this run did not finish")
    elif rc == 77:
        rec["skipped"] = why[0] if why else "a requirement is missing"
        said.append("skipped: " + rec["skipped"])
    elif over:
        rec["error"] = ("stopped after %g s (--run-limit); it ended after %.1f s" % (ex.run_limit, rec["elapsed_s"])
                        if "launch" not in rec else "its launch of %d pairs was stopped after %g s (--run-limit: %g s a pair) "
                        "while this pair ran" % (rec["launch"]["pairs"], ex.run_limit * rec["launch"]["pairs"], ex.run_limit))
        said.append("STOPPED: " + rec["error"])
    elif rc != 0:
        rec["error"] = why[0] if why else err.strip()[-300:]
        rec["stderr"] = stderr_kept(err)
        said.append("FAILED (exit %d): %s" % (rc, rec["error"]))
    header = results.first_header(path)
    rec["complete"], why = judge.judge_output(path, (index, rec)) if rc == 0 else (False, None)
    if why:
        rec["error"] = why + "; not counted"
        said.append("INCOMPLETE: " + rec["error"])
    ranks = judge.other_ranks(header, programs.ranks(rec["program"], ex.np)) if rc == 0 else None
    if ranks:
        rec["complete"], rec["error"] = False, ranks + "; not counted"
        said.append("WRONG RANKS: " + rec["error"])
    rec["findings"] = findings.of_file(path, results.Problems()) if rec["complete"] else []
    rec["times_s"].update(judge.inner_seconds(path))
    return rec, header, ["    " + who + line for line in said]


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


def cannot_start(item, cfg, rnd, name, cmd, why):
    """A launcher that cannot start (not found, not executable with this
    configuration's PATH): kept as a failed run (127, as a shell says);
    umb-run runs its configuration no more (run.py)."""
    return {"program": item[0], "buffers": item[1], "file": name, "status": 127, "command": cmd, "round": rnd,
            "config": cfg["name"], "elapsed_s": 0.0, "error": why, "not_started": True, "complete": False, "findings": []}


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
