"""Several buffer pairs of one program in one launch (docs/decisions.md,
"One launch for many pairs"): the program pays its launcher, MPI_Init and
the GPU's context once, and writes each pair's header, rows and end record
in turn; umb-run splits that output into one file per pair, as if each had
had a launch of its own, and gives each pair its record and progress line.
A pair the launch did not reach (it died, or hit its limit) is launched
again with the pairs after it."""
import collections
import contextlib
import json
import os
import shlex
import tempfile
import time

from . import launch, programs, sets, watch

# What a run needs of umb-run, as plain data: the folder's writer (its
# files; run.json is the top level's), each configuration's launcher
# (launch.Launch), --np, --run-limit, --within, and stop: whether to stop
# the run in progress (a signal, the folder gone; watch.run_one).
Executor = collections.namedtuple("Executor", "writer how np run_limit within stop")
# A run that ended, as run_launch, one_run and cannot_start return it for
# records.settle: its record, the launch's stderr (None: nothing to judge),
# the program's lines, over the limit, stopped, who it is ("PROG PAIR: "
# in a launch of several) and late (its progress line not out yet).
Ended = collections.namedtuple("Ended", "item cfg rec err said over asked who late")
# Pairs in one launch at most: the full set's 16 (the programs take 32).
MOST_PAIRS = 16


def ask(hows, items, a, here):
    """Each program's verdict on its runs' options before any run
    (launch.check_options), and {program: whether its pairs of the set
    share a launch}: the registry says it takes several pairs
    (programs.takes_pairs) and its verdict on them all at once is yes;
    else each of its runs is asked, so that a pair the options do not fit
    (--loop classic with a managed pair) is refused before any run. Every
    configuration's program (hows: their launches) is found and asked its
    first run; the first configuration's decides."""
    paths, first = {}, {}
    for how in hows:  # every program is there before anything runs
        for prog, _, args in items:
            path = launch.find_program(how.dirs, prog, here)
            paths.setdefault(path, (prog, args))
            first.setdefault(prog, path)
    for path, (prog, args) in paths.items():
        launch.check_options(path, prog, args, a.extra, a.within)
    groups = {}
    for prog, path in first.items():
        mine = [it for it in items if it[0] == prog]
        takes = programs.takes_pairs(prog)
        stray = next((w for w in a.extra if w in sets.KINDS), None) if takes else None
        if stray:  # no option of a program that takes pairs takes a kind: a pair of every run
            raise launch.Fail("-- %s: umb-run gives each run its buffer kinds; one after -- would be measured as another "
                              "pair (the benchmark options after --: %s)" % (stray, " ".join(shlex.quote(w) for w in a.extra)))
        groups[prog] = a.launch_per == "program" and takes and sets.pair_slot(mine[0]) is not None \
            and (launch.verdict(path, tuple(command_args(mine))) or (1, ""))[0] == 0
        if not groups[prog]:
            for _, _, args in mine:
                launch.check_options(path, prog, args, a.extra, a.within)
    return groups


def shares_launch(groups, item):
    """Whether this run shares a launch with its program's other pairs:
    its program's do (groups, from ask: --launch-per program, the registry
    says it takes several, and its verdict on them at once is yes), and
    this run has a pair."""
    return bool(groups.get(item[0])) and sets.pair_slot(item) is not None


def launch_key(item, cfg):
    slot = sets.pair_slot(item)
    if slot is None:
        return None
    return item[0], cfg["name"], tuple(item[2][:slot]), tuple(item[2][slot + 2:])


def command_args(items):
    """The options of the first, with every pair's two kinds where its pair was."""
    slot, args = sets.pair_slot(items[0]), items[0][2]
    return args[:slot] + [k for it in items for k in it[1].split()] + args[slot + 2:]


def split(path):
    """The launch's output as each pair's lines: [(lines, its end record)],
    and the lines after the last end record (a pair that did not end)."""
    done, part = [], []
    with open(path, errors="replace") as f:
        for line in f:
            part.append(line)
            if watch.END.search(line.encode()):
                done.append((part, end_record(line)))
                part = []
    return done, part


def pair_times(times, started, ends, k, first_ran, last):
    """Pair k's share of the launch's times (watch.Output.times): the
    start-up goes to the first pair that ran (its header was the launch's
    first), each pair measures from the end of the one before it (or from
    the first header), and the last pair takes the time after the last line."""
    if "unsplit" in times:  # a launcher held the output back: not told apart
        return dict(times) if k == first_ran else {}
    first = started + times.get("start", 0.0)
    since = max(ends[k - 1] if k else first, first)
    share = {"measure": round(max(0.0, ends[k] - since), 1)}
    if k == first_ran:
        share["start"] = times.get("start", 0.0)
    if k == last:
        share["end"] = times.get("end", 0.0)
    return share


class Heard:
    """A launch's end records as they arrive (watch.run_one's on_end): when
    each came (ends), and shown(k) for pair k while the records name the
    pairs in turn (shown: how many pairs were shown)."""

    def __init__(self, group, show):
        self.group, self.show = group, show
        self.ends, self.shown = [], 0

    def __call__(self, now, line):
        self.ends.append(now)
        k = len(self.ends) - 1
        if self.shown == k < len(self.group) and end_record(line).get("buffers") == self.group[k][0][1]:
            self.show(k)
            self.shown += 1


def run_launch(ex, group, rnd, plain, show):
    """One launch for the pairs of group ([(item, cfg)], one program and
    configuration); returns the pairs it reached, in order, each ended
    (write_pair), the last one failed where the launch failed; the pairs
    after it are not returned (the caller launches them again). show(k):
    pair k's progress line, as its end record arrives."""
    (prog, _, _), cfg = group[0]
    how = ex.how[cfg["name"]]
    cmd = how.command(cfg["launcher_flags"], prog, command_args([it for it, _ in group]))
    heard = Heard(group, show)
    ends = heard.ends
    fd, out = tempfile.mkstemp(prefix=".launch-", suffix=".part", dir=ex.writer.folder)
    os.close(fd)
    try:
        started = time.time()
        limit = ex.run_limit * len(group) if ex.run_limit else None
        try:
            rc, err, over, asked, times = watch.run_one(cmd, dict(how.env, **cfg["env"]), out, limit, ex.stop, heard)
        except watch.CannotStart as e:
            name = ex.writer.new_file(run_file(prog, group[0][0][1], cfg, rnd, plain))
            return [cannot_start(group[0][0], cfg, rnd, name, cmd, str(e))]
        ex.writer.check_there()
        done, rest = split(out)
    finally:
        with contextlib.suppress(OSError):  # gone with its folder: check_there says so
            os.unlink(out)
    done = done[:len(group)]
    ran = [k for k, (lines, _) in enumerate(done) if any(watch.HEADER.search(x.encode()) for x in lines)]
    whole = len(done) == len(group)
    kept, skips = [], {e.get("skipped") for _, e in done}  # the skipped pairs' lines are theirs
    wrong = None
    for k, (lines, end) in enumerate(done):
        item = group[k][0]
        if end.get("buffers") != item[1]:  # not the pair it should be: the launch is not to be read further
            wrong = lines, "its end record names the pair %s: the launch's output is not read further" % (
                json.dumps(end.get("buffers"))[:80])
            break
        share = pair_times(times, started, ends + [time.time()] * len(group), k, ran[0] if ran else 0,
                           k if whole and k == len(group) - 1 else -1)
        status = end.get("status") if isinstance(end.get("status"), int) else 1
        said = [end["skipped"]] if status == 77 and isinstance(end.get("skipped"), str) else [
            x for x in err.split("\n") if x.startswith(prog + ":") and x not in skips]  # a failed pair: the launch's words
        kept.append(write_pair(ex, item, cfg, rnd, plain, lines, status, cmd, share, said, k, len(group),
                               err if status not in (0, 77) else "", False, False, False))
    if len(kept) < len(group):  # the pair in progress when the launch ended: the launch's end is its own
        item = group[len(kept)][0]
        late = heard.shown <= len(kept)  # its line is not out yet; those after it are launched again, and said then
        share = {"measure": round(time.time() - (ends[len(kept) - 1] if kept and ends else started), 1)}
        said = {x.said[0] for x in kept if x.rec["status"] == 77 and x.said}  # the reached pairs' own lines are theirs, not its
        lines_said = [x for x in err.split("\n") if x.startswith(prog + ":") and x not in said]
        if wrong:  # its own lines, failed with why
            rest, rc, lines_said, err = wrong[0], 1, [wrong[1]], wrong[1] + "\n" + err
        kept.append(write_pair(ex, item, cfg, rnd, plain, rest, rc, cmd, share, lines_said, len(kept), len(group),
                               err, over, asked, late))
    return kept


def end_record(line):
    """An end record's object; {} where the line is not one JSON object."""
    try:
        end = json.loads(line)
    except ValueError:
        return {}
    return end if isinstance(end, dict) else {}


def write_pair(ex, item, cfg, rnd, plain, lines, status, cmd, share, said, k, n, err, over, asked, late):
    """A pair's file, its lines of the launch; returns it Ended. late: the
    pair in progress at the launch's end whose progress line is not out yet."""
    name = ex.writer.new_file(run_file(item[0], item[1], cfg, rnd, plain))
    try:
        with open(ex.writer.path(name), "w") as f:
            f.writelines(lines)
    except OSError as e:
        ex.writer.check_there()
        raise watch.Fail("%s: cannot write the run's output (%s)" % (ex.writer.path(name), e.strerror or e))
    rec = {"program": item[0], "buffers": item[1], "file": name, "status": status, "command": cmd, "round": rnd,
           "config": cfg["name"], "elapsed_s": round(sum(share.values()), 1), "times_s": share,
           "launch": {"pairs": n, "index": k + 1}}
    return Ended(item, cfg, rec, err, said, over, asked, "%s %s: " % item[:2], late)


def run_file(prog, pair, cfg, rnd, plain):
    return "%s-%s%s.jsonl" % (prog, pair.replace(" ", "-"), "" if plain else ".%s.r%d" % (cfg["name"], rnd))


# A shell's statuses for a command not found (127) or not executable (126):
# with no output at all, the launcher (or what a wrapper runs) never started.
NOT_FOUND = (126, 127)


def one_run(ex, item, cfg, rnd, plain):
    """Runs one benchmark and pair in one configuration; returns it as
    run_launch returns each pair."""
    prog, pair, args = item
    how = ex.how[cfg["name"]]
    cmd = how.command(cfg["launcher_flags"], prog, args)
    name = ex.writer.new_file(run_file(prog, pair, cfg, rnd, plain))
    started = time.time()
    try:
        rc, err, over, asked, times = watch.run_one(cmd, dict(how.env, **cfg["env"]), ex.writer.path(name),
                                                    ex.run_limit, ex.stop)
    except watch.CannotStart as e:
        return cannot_start(item, cfg, rnd, name, cmd, str(e))
    ex.writer.check_there()
    if rc in NOT_FOUND and not os.path.getsize(ex.writer.path(name)):  # a wrapper whose launcher is not found
        said = [line for line in err.split("\n") if line.strip()]
        return cannot_start(item, cfg, rnd, name, cmd, "%s: cannot start it (exit %d%s)" % (
            cmd[0], rc, ": " + said[-1].strip()[:200] if said else ""))
    rec = {"program": prog, "buffers": pair, "file": name, "status": rc, "command": cmd, "round": rnd, "config": cfg["name"],
           "elapsed_s": round(time.time() - started, 1), "times_s": times}
    return Ended(item, cfg, rec, err, [line for line in err.split("\n") if line.startswith(prog + ":")], over, asked, "", False)


def cannot_start(item, cfg, rnd, name, cmd, why):
    """A launcher that cannot start (not found, not executable with this
    configuration's PATH): kept as a failed run (127, as a shell says);
    umb-run runs its configuration no more (run.py). Returned ended, with
    nothing for records.settle to judge (err None)."""
    rec = {"program": item[0], "buffers": item[1], "file": name, "status": 127, "command": cmd, "round": rnd,
           "config": cfg["name"], "elapsed_s": 0.0, "error": why, "not_started": True, "complete": False, "findings": []}
    return Ended(item, cfg, rec, None, [], False, False, "", False)
