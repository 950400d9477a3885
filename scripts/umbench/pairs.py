"""Several buffer pairs of one program in one launch (docs/decisions.md,
"One launch for many pairs"): the program pays its launcher, MPI_Init and
the GPU's context once, and writes each pair's output to a file of its
own (--pair-files), as a launch of its own would; umb-run gives each
pair its record and progress line. A pair the launch did not reach (it
died, or hit its limit) is launched again with the pairs after it."""
import collections
import contextlib
import json
import os
import shlex
import tempfile
import time

from . import launch, programs, results, sets, watch

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


def header_and_end(path):
    """A pair file's header (its first record) and the end record that ends
    it, from one read; None for either where it has none."""
    objs = [o for _, o in results.read_objects(path, results.Problems())]
    return (objs[0] if objs and objs[0]["type"] == "header" else None,
            objs[-1] if objs and objs[-1]["type"] == "end" else None)


class Seen:
    """A launch's pair files as they grow (watch.run_one's on_poll): when
    the first grew first (first), each grew last (last); show(k), in turn
    (shown: how many), once pair k's file ends with its end record and the
    next pair's file is there (pairs.c makes it after that record)."""

    def __init__(self, paths, pairs, show):
        self.paths, self.pairs, self.show, self.first, self.shown = paths, pairs, show, None, 0
        self.last, self.sizes, self.started = [None] * len(paths), [0] * len(paths), time.time()

    def __call__(self, now):
        for k, path in enumerate(self.paths):
            try:
                size = os.stat(path).st_size
            except OSError:  # not begun, nor are the pairs after it
                return
            if size != self.sizes[k]:
                self.sizes[k], self.last[k], self.first = size, now, self.first or now
            while self.shown < k:
                end = header_and_end(self.paths[self.shown])[1] or {}
                if end.get("buffers") != self.pairs[self.shown]:
                    break
                self.show(self.shown)
                self.shown += 1


def pair_times(seen, ended, k, first_ran, last):
    """Pair k's share of the launch's time, as its files grew (seen): the
    start-up, to the first line, goes to the first pair that ran; each
    measures from the end before its own (or the first line); the last
    takes the time after it."""
    first = seen.first or ended
    ends = [t or first for t in seen.last]
    share = {"measure": round(max(0.0, ends[k] - max(ends[k - 1] if k else first, first)), 1)}
    if k == first_ran:
        share["start"] = round(first - seen.started, 1)
    if k == last:
        share["end"] = round(ended - ends[k], 1)
    return share


def run_launch(ex, group, rnd, plain, show):
    """One launch for the pairs of group ([(item, cfg)], one program and
    configuration), each pair's output in a file of its own (--pair-files);
    returns ended_pairs'. show(k): pair k's progress line, once it ended."""
    (prog, _, _), cfg = group[0]
    how = ex.how[cfg["name"]]
    fd, out = tempfile.mkstemp(prefix=".launch-", dir=ex.writer.folder)  # the launcher's words; the pairs' beside it
    os.close(fd)
    files = ["%s.%d-%s" % (out, k + 1, it[1].replace(" ", "-")) for k, (it, _) in enumerate(group)]  # pairs.c's names
    cmd = how.command(cfg["launcher_flags"], prog, ["--pair-files", out + "."] + command_args([it for it, _ in group]))
    seen = Seen(files, [it[1] for it, _ in group], show)
    try:
        limit = ex.run_limit * len(group) if ex.run_limit else None
        try:
            ran = watch.run_one(cmd, dict(how.env, **cfg["env"]), out, limit, ex.stop, seen)
        except watch.CannotStart as e:
            name = ex.writer.new_file(run_file(prog, group[0][0][1], cfg, rnd, plain))
            return [cannot_start(group[0][0], cfg, rnd, name, cmd, str(e))]
        ex.writer.check_there()
        return ended_pairs(ex, group, rnd, plain, cmd, ran, seen)
    finally:
        for path in [out] + files:  # a pair's file that write_pair did not move: the launch ended before it
            with contextlib.suppress(OSError):  # gone with its folder: check_there says so
                os.unlink(path)


def ended_pairs(ex, group, rnd, plain, cmd, ran, seen):
    """The pairs a launch reached, in order, ended (write_pair): each whose
    file ends with its end record, as that says; then the one in progress
    at the launch's end, failed as the launch, or with why where its end
    record names another pair (the files after it are not read). The caller
    launches the pairs after it again."""
    rc, err, over, asked, _ = ran
    prog, cfg, ended, n, files = group[0][0][0], group[0][1], time.time(), len(group), seen.paths
    heads, ends = zip(*[header_and_end(path) for path in files])
    done = next((k for k, end in enumerate(ends) if end is None or end.get("buffers") != seen.pairs[k]), n)
    first_ran = next((k for k in range(done) if heads[k]), 0)
    skips = {end.get("skipped") for end in ends if end}  # the skipped pairs' lines are theirs
    words = [x for x in err.split("\n") if x.startswith(prog + ":") and x not in skips]  # the launch's
    kept = []
    for k, end in enumerate(ends[:done]):
        status = end.get("status", 1)
        said = [end["skipped"]] if status == 77 and isinstance(end.get("skipped"), str) else words
        share = pair_times(seen, ended, k, first_ran, k if done == n == k + 1 else -1)
        kept.append(write_pair(ex, group[k][0], cfg, rnd, plain, files[k], status, cmd, share, said, k, n,
                               err if status not in (0, 77) else "", False, False, k >= seen.shown))
    if done < n:  # the pair in progress when the launch ended: the launch's end is its own
        share = {"measure": round(ended - ((seen.last[done - 1] if done else None) or seen.started), 1)}
        if ends[done]:  # its end record names another pair: its own lines, failed with why
            why = "its end record names the pair %s: the launch's output is not read further" % (
                json.dumps(ends[done].get("buffers"))[:80])
            rc, words, err = 1, [why], why + "\n" + err
        kept.append(write_pair(ex, group[done][0], cfg, rnd, plain, files[done], rc, cmd, share, words, done, n, err,
                               over, asked, done >= seen.shown))
    return kept


def write_pair(ex, item, cfg, rnd, plain, path, status, cmd, share, said, k, n, err, over, asked, late):
    """A pair's file, the one the launch wrote (path) under the pair's name;
    returns it Ended. late: its progress line is not out yet."""
    name = ex.writer.new_file(run_file(item[0], item[1], cfg, rnd, plain))
    try:
        os.replace(path, ex.writer.at(name))
    except FileNotFoundError:  # the launch ended before the pair began: its file stays empty
        pass
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
        rc, err, over, asked, times = watch.run_one(cmd, dict(how.env, **cfg["env"]), ex.writer.at(name),
                                                    ex.run_limit, ex.stop, shown=ex.writer.path(name))
    except watch.CannotStart as e:
        return cannot_start(item, cfg, rnd, name, cmd, str(e))
    ex.writer.check_there()
    if rc in NOT_FOUND and not os.path.getsize(ex.writer.at(name)):  # a wrapper whose launcher is not found
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
