"""Running one program: its stdout to a file, stopped at a time limit or
when the user asks, every process it started ended with it, and where its
time went as its output shows it."""
import contextlib
import ctypes
import datetime
import glob
import json
import os
import re
import signal
import subprocess
import tempfile
import time

from .fail import Fail
from .shown import decoded

# After SIGTERM, a launcher gets this long to end its ranks before SIGKILL
# reaches every process of its session: a run is gone within 5 s of its
# limit or of the signal (issue 44).
GRACE_S = 3
# After SIGKILL, how long umb-run waits for the session to empty (a process
# in an uninterruptible wait dies only when it leaves it): bounded, so that
# a failure never hangs.
REAP_S = 2
# A header that reached the file this long after its own "date" (whole
# seconds, so up to 1 s late by itself) was held back on its way.
HELD_S = 2.0
# Output that all arrived within this long of its header came "in one
# piece": a launcher that holds it back may still hand it over in a few
# pipe-sized writes across umb-run's polls.
PIECE_S = 1.0
# The unfinished last line kept while looking for the header: a header is a
# few kB; a line longer than this is not one.
LINE_MOST = 1 << 20


def _ends_with_parent(parent):
    """In the launcher's child, before it runs: SIGTERM to it when umb-run
    ends without ending it (SIGKILL, which no handler sees: the run's
    launcher and ranks ran on). Linux's PR_SET_PDEATHSIG; elsewhere nothing."""
    def arm():
        try:
            ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:  # umb-run died before the line above
            os.kill(os.getpid(), signal.SIGTERM)
    return arm


class CannotStart(Fail):
    """The launcher could not be started at all (not found, not executable)."""


def run_one(cmd, env, out_path, limit, stop_asked, on_poll=None, shown=None):
    """Runs cmd with stdout into out_path, in a session of its own, until it
    ends, `limit` seconds pass or stop_asked() turns true (_watch). Returns
    (status, stderr, stopped at the limit, stopped on request, where its
    time went: see Output.times). on_poll(time), where given, is called at
    every poll (a launch of several pairs watches their files: pairs.py)."""
    try:
        with open(out_path, "w") as f, open(out_path, "rb") as seen, tempfile.TemporaryFile("w+b") as err:
            try:
                child = subprocess.Popen(cmd, stdout=f, stderr=err, stdin=subprocess.DEVNULL, env=env, start_new_session=True,
                                         preexec_fn=_ends_with_parent(os.getpid()))
            except OSError as e:
                raise CannotStart("%s: cannot start it (%s)" % (e.filename or cmd[0], e.strerror or e))
            over, asked, times = _watch(child, limit, stop_asked, Output(seen, on_poll))
            err.seek(0)
            return (124 if over else child.returncode), decoded(err.read()), over, asked, times
    except OSError as e:  # the output file: the folder moved or removed, a full disk
        raise Fail("%s: cannot write the run's output (%s)" % (shown or e.filename or out_path, e.strerror or e))


def _watch(child, limit, stop_asked, out):
    """Waits for the child to end, and after a stop for its whole session:
    the launcher, a wrapper script that did not exec it, and the ranks,
    which Open MPI's mpirun puts in process groups of their own. SIGTERM
    first to the launcher's group, so that it ends its ranks its own way;
    to what outlives the group (ranks whose launcher died before it could
    end them) at once; SIGKILL to all after GRACE_S, or at once when
    stop_asked() > 1, then a wait of at most REAP_S. stderr goes to a file,
    not a pipe: a rank that outlives the launcher cannot hold umb-run up."""
    start, termed, orphans, killed, over, asked = time.time(), None, False, None, False, False
    while child.poll() is None or (termed is not None and _session(child.pid)):
        now = time.time()
        if termed is None and (stop_asked() or (limit and now - start > limit)):
            over, asked = not stop_asked(), bool(stop_asked())
            signal_all(child.pid, signal.SIGTERM, group_only=True)
            termed = now
        if termed is not None and not orphans and all(group != child.pid for _, group in _session(child.pid)):
            signal_all(child.pid, signal.SIGTERM)
            orphans = True
        if termed is not None and killed is None and (now - termed > GRACE_S or stop_asked() > 1):
            signal_all(child.pid, signal.SIGKILL)
            killed = now
        if killed is not None and now - killed > REAP_S:
            break
        out.grow(now)
        # The 0.1 s between polls, cut short where the launcher ends in it: a
        # run of a few milliseconds (a refusal, a stand-in) took a whole 0.1 s.
        if child.returncode is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(0.1)
        else:  # ended: its session still being stopped
            time.sleep(0.1)
    end = time.time()
    out.grow(end)
    return over, asked, out.times(start, end)


class Output:
    """A run's output as it grows: when its header arrived (first), when it
    last grew (last), and whether the header came in one piece with what
    follows it (together). Read in any chunks: the header is looked for in
    every whole line until it is found."""

    def __init__(self, f, on_poll=None):
        self.f, self.first, self.last, self.partial, self.header, self.together = f, None, None, b"", None, False
        self.on_poll = on_poll

    def grow(self, now):
        if self.on_poll:
            self.on_poll(now)
        new = self.f.read()
        if not new:
            return
        self.last = now
        if self.first is not None:
            return
        lines = (self.partial + new).split(b"\n")
        self.partial = lines.pop()[-LINE_MOST:]
        for k, line in enumerate(lines):
            if HEADER.search(line):
                self.first, self.header = now, line
                self.together = bool((b"\n".join(lines[k + 1:]) + self.partial).strip())
                break

    def times(self, start, end):
        """The run's parts, to the 0.1 s poll: `start` until the header (the
        launcher, MPI_Init, a GPU's context; what a launcher prints before it
        does not count), `measure` from there to the last growth, `end` from
        there to the exit. Where the whole output arrived in one piece (the
        header with what follows it, the rest within PIECE_S) and the header's own
        date shows it was held back (or it has none), the arrival times are
        not the program's: `start` then runs to the header's date (to its
        whole second), and the rest is `unsplit`. A fast run's output also
        comes in one piece, but its header's date is that of its arrival."""
        if self.first is None:
            return {"start": round(end - start, 1), "measure": 0.0, "end": 0.0}
        written = _date(self.header)
        if self.together and self.last - self.first <= PIECE_S and (written is None or self.first - written > HELD_S):
            if written is None:
                return {"unsplit": round(end - start, 1)}
            begun = min(max(written - start, 0.0), end - start)
            return {"start": round(begun, 1), "unsplit": round(end - start - begun, 1)}
        return {"start": round(self.first - start, 1), "measure": round(self.last - self.first, 1),
                "end": round(end - self.last, 1)}


HEADER = re.compile(rb'"type" *: *"header"')


def _date(line):
    """The header's "date" (docs/output.md: ISO 8601 with its offset) as a
    time stamp; None where it has none that reads."""
    try:
        text = json.loads(line.decode("utf-8")).get("date")
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z").timestamp()
    except (ValueError, TypeError, AttributeError, RecursionError):
        return None


def _session(sid):
    """The processes of session sid that still run, as (pid, process group).
    A zombie does not: one whose parent died waits for init to reap it."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            if fields[3] == b"%d" % sid and fields[0] != b"Z":
                found.append((int(stat.split("/")[2]), int(fields[2])))
        except (OSError, IndexError):
            continue  # gone meanwhile
    return found


def signal_all(sid, sig, group_only=False):
    """sig to the process group sid (the child of start_new_session: its pid
    is the session's and its group's), and unless group_only, to every
    process of the session."""
    for send, pid in [(os.killpg, sid)] + ([] if group_only else [(os.kill, pid) for pid, _ in _session(sid)]):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            send(pid, sig)
