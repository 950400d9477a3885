"""Finding the launcher and the programs, and running one program: its
stdout to a file, stopped at a time limit or when the user asks."""
import contextlib
import functools
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time

from . import programs, schema
from .cli import Fail

# After SIGTERM, a launcher gets this long to end its ranks before SIGKILL
# reaches every process of its group: a run is gone within 5 s of its
# limit or of the signal (issue 44).
GRACE_S = 3


def words(text, name):
    try:
        return shlex.split(text)
    except ValueError as e:
        raise Fail("%s %r: cannot split it into words (%s)" % (name, text, e))


def find_launcher(choice):
    """(command words, how it was found)."""
    if os.environ.get("MPIEXEC", "").strip():
        cmd = words(os.environ["MPIEXEC"], "MPIEXEC")
        if not shutil.which(cmd[0]):
            raise Fail("MPIEXEC %r: %s not found" % (os.environ["MPIEXEC"], cmd[0]))
        return cmd, "MPIEXEC"
    if choice == "auto":
        if os.environ.get("SLURM_JOB_ID") and shutil.which("srun"):
            choice = "srun"
        elif os.environ.get("LSB_JOBID") and shutil.which("jsrun"):
            choice = "jsrun"
        else:
            choice = "mpirun" if shutil.which("mpirun") else "mpiexec"
    if not shutil.which(choice):
        raise Fail("launcher %s not found; accepted: auto, mpirun, srun, jsrun (or set MPIEXEC)" % choice)
    return [choice], choice


def is_open_mpi(launcher):
    return _open_mpi(launcher[0])


@functools.lru_cache(maxsize=None)
def _open_mpi(command):
    """Asked once per launcher: its flags and root's permission both depend on it."""
    try:
        child = subprocess.Popen([command, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL, text=True, errors="replace", start_new_session=True)
    except OSError:
        return False
    try:
        out = child.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:  # all of its group: a wrapper's child would hold the pipe open
        _signal_group(child.pid, signal.SIGKILL)
        child.wait()
        return False
    return "Open MPI" in out or "OpenRTE" in out


def launch_args(launcher, np, how):
    """The launcher with the rank count. With MPIEXEC given, only the count is
    added (MPIEXEC_NP_FLAG=none: not even that, as for a jsrun that has --nrs).
    A build's own launcher (how "build") takes no MPIEXEC_FLAGS."""
    name = os.path.basename(launcher[0])
    count = ["-n", str(np)] if name in ("srun", "jsrun") else ["-np", str(np)]
    flags = words(os.environ.get("MPIEXEC_FLAGS", ""), "MPIEXEC_FLAGS") if how != "build" else []
    if how == "MPIEXEC":
        return launcher + flags + ([] if os.environ.get("MPIEXEC_NP_FLAG") == "none" else count)
    if name == "srun":
        return launcher + count
    if name == "jsrun":
        return launcher + count + ["-a", "1", "-g", "1", "-c", "1"]
    if not flags and is_open_mpi(launcher):
        flags = ["--oversubscribe"]
    return launcher + flags + count


def with_ranks(words_, np, want):
    """The launch words with the rank count np (the last count flag's value) set to want."""
    out = list(words_)
    for i in range(len(out) - 2, -1, -1):
        if out[i] in ("-n", "-np") and out[i + 1] == str(np):
            out[i + 1] = str(want)
            break
    return out


def root_env(launcher):
    """Open MPI refuses root unless told: umb-suite's two variables, as
    umb-suite sets them (README, Quick start)."""
    if os.geteuid() == 0 and is_open_mpi(launcher):
        return {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    return {}


def read_build(name, folder):
    """An umbench build folder's record (umbench-build.json, written by
    configure): its launcher and compiler."""
    path = os.path.join(folder, "umbench-build.json")
    try:
        b = schema.load(path, "build", "--build %s=%s: %s" % (name, folder, path), "configure's umbench-build.json")
    except schema.Missing:
        raise Fail("--build %s=%s: no umbench-build.json there (No such file or directory): not a configured umbench build folder"
                   % (name, folder))
    return dict(b, dir=os.path.abspath(folder))


class Launch:
    """How one configuration's runs start: the launcher with its rank count,
    the environment and the programs' folders."""

    def __init__(self, launcher, how, np, dirs, here):
        self.words, self.n, self.how, self.np = launch_args(launcher, np, how), len(launcher), how, np
        self.env = dict(os.environ, **root_env(launcher))
        self.dirs, self.here = dirs, here  # the programs' folders (find_program)

    @classmethod
    def of_build(cls, build, np, here):
        launcher = words(build["mpiexec"], "--build %s's mpiexec" % build["dir"])
        if not shutil.which(launcher[0]):
            raise Fail("--build %s: its launcher %s is not found" % (build["dir"], launcher[0]))
        return cls(launcher, "build", np, [build["dir"]], here)  # one folder, whatever its name holds (a ':')

    def command(self, flags, program, args):
        """The whole command line of one run; flags go right after the launcher."""
        w = with_ranks(self.words, self.np, programs.ranks(program, self.np))
        return w[:self.n] + flags + w[self.n:] + [find_program(self.dirs, program, self.here)] + args


def folders(bindir):
    """--bindir's folders (separated by ':'), or None without it."""
    return bindir.split(os.pathsep) if bindir else None


def find_program(dirs, prog, here):
    """PROG in one of the folders dirs, or in its registry folder under one
    (a build folder's top: DIR/mpi/rma/umb_put_bw). Without them (no
    --bindir): beside umb-run (installed), then the source tree's top (an
    in-tree build)."""
    dirs = dirs or [here, os.path.join(here, "..")]
    sub = next((p["dir"] for p in programs.load() if p["name"] == prog), "")
    for d in dirs:
        for path in (os.path.join(d, prog), os.path.join(d, sub, prog)):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return os.path.abspath(path)
    raise Fail("%s not found in %s, nor in %s under them (--bindir: the build folder, or the programs' folders)"
               % (prog, ":".join(dirs), sub or "its folder"))


def run_one(cmd, env, out_path, limit, stop_asked):
    """Runs cmd with stdout into out_path, in a process group of its own.
    Ends it when `limit` seconds pass or stop_asked() turns true: SIGTERM
    to the whole group (the launcher, a wrapper script that did not exec
    it, the ranks), then SIGKILL to whatever is left after GRACE_S, or at
    once when stop_asked() > 1. Returns (status, stderr, stopped at the
    limit, stopped on request, where its time went: see _watch)."""
    try:
        with open(out_path, "w") as f, tempfile.TemporaryFile("w+", errors="replace") as err:
            child = subprocess.Popen(cmd, stdout=f, stderr=err, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
            with open(out_path, "rb") as seen:
                over, asked, times = _watch(child, limit, stop_asked, seen)
            err.seek(0)
            return (124 if over else child.returncode), err.read(), over, asked, times
    except OSError as e:
        raise Fail("%s: cannot start it (%s)" % (e.filename or cmd[0], e.strerror or e))


def _watch(child, limit, stop_asked, seen):
    """Waits for the child's group to end, stopping it as run_one says.
    stderr goes to a file, not a pipe: a rank that outlives the launcher
    cannot hold umb-run up. Also times, to its 0.1 s poll, the run's three
    parts as its output (`seen`, read as it grows) shows them: `start`
    until the program's header (the launcher, MPI_Init, a GPU's context;
    what a launcher prints before it does not count), `measure` from there
    to the last line, `end` from there to the exit."""
    start, termed, killed, over, asked = time.time(), None, False, False, False
    first, last, tail = None, None, b""
    while child.poll() is None or (termed is not None and not killed and _group_alive(child.pid)):
        now = time.time()
        if termed is None and (stop_asked() or (limit and now - start > limit)):
            over, asked = not stop_asked(), bool(stop_asked())
            _signal_group(child.pid, signal.SIGTERM)
            termed = now
        if termed is not None and not killed and (now - termed > GRACE_S or stop_asked() > 1):
            _signal_group(child.pid, signal.SIGKILL)
            killed = True
        first, last, tail = _grown(seen, now, first, last, tail)
        time.sleep(0.1)
    end = time.time()
    first, last, tail = _grown(seen, end, first, last, tail)
    if first is None:
        return over, asked, {"start": round(end - start, 1), "measure": 0.0, "end": 0.0}
    return over, asked, {"start": round(first - start, 1), "measure": round(last - first, 1), "end": round(end - last, 1)}


def _grown(seen, now, first, last, tail):
    """What the output shows at `now`: when the program's header appeared
    (first), when the output last grew (last), and the unread end of the
    last line, in which the header may still be arriving."""
    new = seen.read(1 << 20)
    while new:
        last = now
        if first is None:
            tail = (tail + new)[-4096:]
            if HEADER.search(tail):
                first = now
        new = seen.read(1 << 20)
    return first, last, tail


HEADER = re.compile(rb'"type" *: *"header"')


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:  # a rank that changed its user: still there
        return True


def _signal_group(pgid, sig):
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
