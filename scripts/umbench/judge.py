"""What umb-run makes of one run's output once it ended: whether it is
whole, why not, and what its own records say of its time."""
import contextlib
import json
import math
import os

from .fail import Fail
from .results import Problems, read_objects, read_results


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def judge_output(path, rec=None):
    """Whether a run that ended with 0 left a whole output, and why not:
    its last record is the program's "end" with status 0 (a launcher that
    could not write it, a full disk, may still end with 0; a rank's failure
    may not reach the launcher's status), every result has a number, and
    none contradicts another or the run's record (rec: (its index in
    run.json's runs, the record); results.contradiction)."""
    objs = read_objects(path, Problems())
    end = objs[-1][1] if objs and objs[-1][1]["type"] == "end" else None
    if end is None:  # why, as far as umb-run can tell
        why = "the program or its launcher ended without writing it (a launcher that drops output, or a rank that died)"
        with contextlib.suppress(OSError):
            if os.statvfs(os.path.dirname(path) or ".").f_bavail == 0:
                why = "cut short, and the disk of the results folder is full"
        return False, "its output has no end record: " + why
    if end.get("status") != 0:
        return False, "its output's end record says status %s" % json.dumps(end.get("status"))
    try:
        bad = read_results(path, Problems(), rec)["bad"]
    except Fail as e:  # kept, not counted: its readers would refuse the folder
        return False, str(e)
    return (False, "its output has a result that is not one (%s)" % bad) if bad else (True, None)


def other_ranks(header, asked):
    """Why a run does not count where its program reports another rank
    count than umb-run launched it with (a launcher or wrapper that ignores
    -np, an MPIEXEC that brings its own count): run.json's np, and the
    command it keeps, would name ranks that did not run. None where they
    agree, or where the header gives no count."""
    got = header.get("nranks") if isinstance(header, dict) else None
    if isinstance(got, int) and not isinstance(got, bool) and got != asked:
        return "umb-run launched it with %d ranks, the program reports %d (its header's nranks): the launcher " \
            "did not start the ranks asked for (MPIEXEC, MPIEXEC_NP_FLAG, the launcher's own count)" % (asked, got)
    return None


def inner_seconds(path):
    """What a run's own records say of its time, read once: `placing`, about
    how long it placed its buffers (each row's placement P50 times its timed
    iterations, the warm-up's placements left out), and `again`, what its
    --precision loop spent on attempts after each size's first (the
    "precision" record's again_s); each only where a record gives it."""
    objs = [o for _, o in read_objects(path, Problems())]
    rows = [o for o in objs if o["type"] == "result" and _number(o.get("place_p50_us")) and _number(o.get("iterations"))
            and o["place_p50_us"] >= 0 and o["iterations"] >= 0]
    again = [o["again_s"] for o in objs if o["type"] == "precision" and _number(o.get("again_s")) and o["again_s"] >= 0]
    out, placing = {}, sum(o["place_p50_us"] * o["iterations"] for o in rows) * 1e-6
    if rows and math.isfinite(placing):
        out["placing"] = round(placing, 1)
    if again:
        out["again"] = round(sum(again), 1)
    return out
