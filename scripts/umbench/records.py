"""One run's record (run.json's "runs"): the file of its output, what it
says (settle), and the records of runs that never started; umb-run
(run.py) lists them in run.json and says what they say."""
from . import findings, judge, pairs, programs, results, share


def unstarted(ex, item, cfg, rnd, plain, why):
    """A pair that needs a GPU, where an earlier run of its configuration
    found none, or D where it found a library that is not CUDA-aware: kept
    as skipped, with that reason, without starting it."""
    prog, pair, args = item
    name = ex.writer.new_file(pairs.run_file(prog, pair, cfg, rnd, plain))
    return {"program": prog, "buffers": pair, "file": name, "status": 77, "command": ex.how[cfg["name"]].command(
        cfg["launcher_flags"], prog, share.unmarked(args, ex.within)), "round": rnd, "config": cfg["name"], "elapsed_s": 0.0,
        "skipped": why, "not_started": True, "complete": False, "findings": []}


def settle(ex, rec, err, why, over, asked, index, who):
    """A run that ended (alone, or as one pair of a launch: pairs.py): what
    it says, whether its output is whole, its findings, in rec; returns
    (its header, the lines to say). why: the program's own lines, the first
    of them its reason; who: the program and pair, where its lines come
    after its launch's (pairs.py); index: its place in run.json's runs."""
    rc, path, said = rec["status"], ex.writer.at(rec["file"]), []
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
    return header, ["    " + who + line for line in said]


# How much of a failed run's stderr its record keeps (run.json's `stderr`):
# its start, where a crash's report begins, and its end, the launcher's word.
STDERR_HEAD, STDERR_TAIL = 4096, 12288  # an ASan report: 2-5 KiB; a launcher's last word: a few lines


def stderr_kept(err):
    if len(err) <= STDERR_HEAD + STDERR_TAIL:
        return err
    return "%s\n[umb-run: %d characters left out]\n%s" % (err[:STDERR_HEAD], len(err) - STDERR_HEAD - STDERR_TAIL,
                                                       err[-STDERR_TAIL:])


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


def other_library(configs, cfg, header):
    """Why a run of this umb-run does not count, where it reports another
    MPI library than its configuration's earlier runs (configs: run.json's;
    a PATH or module changed mid-run): the rounds of one configuration run
    one library."""
    lib = header.get("mpi_library") if isinstance(header, dict) else None
    was = next((c.get("mpi_library") for c in configs if c["name"] == cfg["name"]), None)
    if isinstance(lib, str) and isinstance(was, str) and lib != was:
        return "configuration %s ran '%s' here, '%s' in its earlier runs: not counted (the rounds of one " \
            "configuration run one library)" % (cfg["name"], lib.split(",")[0], was.split(",")[0])
    return None
