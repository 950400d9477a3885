"""Finding the launcher and the programs, and running one program: its
stdout to a file, stopped at a time limit or when the user asks."""
import os
import shlex
import shutil
import subprocess
import time

from .cli import Fail

# After SIGTERM, a launcher gets this long to end its ranks before SIGKILL.
GRACE_S = 10


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
    try:
        out = subprocess.run([launcher[0], "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "Open MPI" in out or "OpenRTE" in out


def launch_args(launcher, np, how):
    """The launcher with the rank count. With MPIEXEC given, only the count is
    added (MPIEXEC_NP_FLAG=none: not even that, as for a jsrun that has --nrs)."""
    name = os.path.basename(launcher[0])
    count = ["-n", str(np)] if name in ("srun", "jsrun") else ["-np", str(np)]
    flags = words(os.environ.get("MPIEXEC_FLAGS", ""), "MPIEXEC_FLAGS")
    if how == "MPIEXEC":
        return launcher + flags + ([] if os.environ.get("MPIEXEC_NP_FLAG") == "none" else count)
    if name == "srun":
        return launcher + count
    if name == "jsrun":
        return launcher + count + ["-a", "1", "-g", "1", "-c", "1"]
    if not flags and is_open_mpi(launcher):
        flags = ["--oversubscribe"]
    return launcher + flags + count


def root_env(launcher):
    """Open MPI refuses root unless told: umb-suite's two variables, as
    umb-suite sets them (README, Quick start)."""
    if os.geteuid() == 0 and is_open_mpi(launcher):
        return {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    return {}


def find_program(bindir, prog, here):
    dirs = bindir.split(os.pathsep) if bindir else [here, os.path.join(here, "..", "mpi", "pt2pt"),
                                                    os.path.join(here, "..", "mpi", "collective")]
    for d in dirs:
        p = os.path.join(d, prog)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.abspath(p)
    raise Fail("%s not found in %s (use --bindir)" % (prog, ":".join(dirs)))


def run_one(cmd, env, out_path, limit, stop_asked):
    """Runs cmd with stdout into out_path. Ends it when `limit` seconds pass
    or stop_asked() turns true: SIGTERM, which the launcher passes to the
    ranks, then SIGKILL after GRACE_S, or at once when stop_asked() > 1.
    Returns (status, stderr, stopped at the limit, stopped on request)."""
    try:
        with open(out_path, "w") as f:
            child = subprocess.Popen(cmd, stdout=f, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                                     errors="replace", env=env)
    except OSError as e:
        raise Fail("%s: cannot start it (%s)" % (e.filename or cmd[0], e.strerror or e))
    start, termed, over, asked, err = time.time(), None, False, False, []
    while True:
        try:
            err.append(child.communicate(timeout=0.5)[1] or "")
            break
        except subprocess.TimeoutExpired:
            pass
        now = time.time()
        if termed is None and (stop_asked() or (limit and now - start > limit)):
            over, asked = not stop_asked(), bool(stop_asked())
            child.terminate()
            termed = now
        if termed is not None and (now - termed > GRACE_S or stop_asked() > 1):
            child.kill()
    return (124 if over else child.returncode), "".join(err), over, asked
