"""Finding the launcher and the programs, and how a configuration's runs
start (watch.py runs one)."""
import functools
import os
import resource
import shlex
import shutil
import signal
import subprocess

from . import env, programs, schema, watch
from .fail import Fail
from .shown import decoded


# An MPI library writes files of several MiB as it starts: under a smaller
# file-size limit Open MPI 4.1's ranks died of SIGXFSZ (1 MiB) and its
# mpirun hung (2 KiB) (docs/hardening.md, "Limits a launch needs").
FILE_LIMIT_LEAST = 64 << 20


def check_file_limit():
    """Refuses, before anything runs, a file-size limit (ulimit -f) under
    FILE_LIMIT_LEAST."""
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if soft != resource.RLIM_INFINITY and soft < FILE_LIMIT_LEAST:
        raise Fail("the file-size limit (ulimit -f) is %d KiB: an MPI library writes files of several MiB as it starts "
                   "(Open MPI's ranks died at 1 MiB, its mpirun hung at 2 KiB); raise it to 64 MiB or more "
                   "(ulimit -f unlimited)" % (soft // 1024))


def find_launcher(choice):
    """(command words, how it was found)."""
    cmd = env.mpiexec()
    if cmd:
        if not shutil.which(cmd[0]):
            there = os.path.sep in cmd[0] and os.path.exists(cmd[0])
            raise Fail("MPIEXEC %r: %s %s" % (" ".join(cmd), cmd[0], "is not an executable file" if there else "not found"))
        return cmd, "MPIEXEC"
    if choice == "auto":
        # srun in a Slurm job, jsrun in an LSF one, where there; else mpirun, else mpiexec.
        found = [c for c, inside in (("srun", env.slurm_job()), ("jsrun", env.lsf_job()), ("mpirun", 1), ("mpiexec", 1))
                 if inside and shutil.which(c)]
        if not found:
            raise Fail("no MPI launcher on PATH (mpirun or mpiexec; srun in a Slurm job, jsrun in an LSF one): "
                       "load your MPI, or set MPIEXEC")
        choice = found[0]
    if not shutil.which(choice):
        raise Fail("--launcher %s: %s not found on PATH" % (choice, choice))
    return [choice], choice


def is_open_mpi(launcher):
    return _open_mpi(launcher[0])


# Seconds a launcher's --version may take: mpirun answers in well under
# one; a wrapper that hangs there held a run (and a Ctrl-C) for 60 s.
PROBE_S = 10


@functools.lru_cache(maxsize=None)
def _open_mpi(command):
    """Asked once per launcher: its flags and root's permission both depend on it."""
    try:
        child = subprocess.Popen([command, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL, text=True, errors="replace", start_new_session=True)
    except OSError:
        return False
    try:
        out = child.communicate(timeout=PROBE_S)[0]
    except subprocess.TimeoutExpired:
        return False
    finally:  # timed out, or a Ctrl-C: all of its group (a wrapper's child would hold the pipe open)
        if child.returncode is None:
            watch.signal_all(child.pid, signal.SIGKILL)
            child.wait()
    return "Open MPI" in out or "OpenRTE" in out


def launch_words(launcher, how, np):
    """The words after the launcher's own: its flags and the rank count np.
    With MPIEXEC given, its flags are MPIEXEC_FLAGS and the count
    (MPIEXEC_NP_FLAG=none: no count, as for a jsrun that has --nrs). As
    umb-suite does, an Open MPI launcher (known by its first word: "mpirun
    --bind-to none" is mpirun) gets --oversubscribe where MPIEXEC_FLAGS is
    empty. A build's own launcher (how "build") takes no MPIEXEC_FLAGS; srun
    and jsrun found here take none either."""
    name = os.path.basename(launcher[0])
    count = ["-n" if name in ("srun", "jsrun") else "-np", str(np)]
    if how != "MPIEXEC" and name in ("srun", "jsrun"):
        return count + (["-a", "1", "-g", "1", "-c", "1"] if name == "jsrun" else [])
    flags = env.mpiexec_flags() if how != "build" else []
    if not flags and "--oversubscribe" not in launcher and is_open_mpi(launcher):
        flags = ["--oversubscribe"]
    return flags + ([] if how == "MPIEXEC" and env.np_flag_none() else count)


def root_env(launcher):
    """Open MPI refuses root unless told: umb-suite's two variables, as
    umb-suite sets them (README, Quick start)."""
    if os.geteuid() == 0 and is_open_mpi(launcher):
        return {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    return {}


# hwloc's OpenCL plugin opens every visible GPU through OpenCL each time a
# launcher or MPI_Init reads the topology: 0.3 s of each launch on one
# H200, more with more GPUs. No MPI library uses those OpenCL devices. A
# HWLOC_COMPONENTS of the user's own, even empty, is kept (docs/decisions.md,
# "A launch without hwloc's OpenCL plugin").
HWLOC_QUICK = ("HWLOC_COMPONENTS", "-opencl")
# Open MPI 4.1's mpirun, once a rank ends non-zero (a skip's 77), kills the
# job's other processes and waits odls_base_sigkill_timeout (1 s) twice,
# even when all of them have ended. umbench's ranks handle no SIGTERM, so a
# SIGKILL at once loses nothing a SIGTERM would have kept.
SKIP_QUICK = ("OMPI_MCA_odls_base_sigkill_timeout", "0")


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
    """How one configuration's runs start: the launcher, how it was found
    (launch_words), --np, the environment of every launch and the
    programs' folders (find_program)."""

    def __init__(self, launcher, how, np, dirs, here):
        self.launcher, self.how, self.np, self.dirs, self.here = launcher, how, np, dirs, here
        # HWLOC_QUICK and (Open MPI) SKIP_QUICK where the user has not set them; Open MPI's root permission.
        quick = dict([HWLOC_QUICK, SKIP_QUICK] if is_open_mpi(launcher) else [HWLOC_QUICK])
        self.env = {**quick, **env.whole(), **root_env(launcher)}

    @classmethod
    def of_build(cls, build, np, here):
        try:
            launcher = shlex.split(build["mpiexec"])
        except ValueError as e:
            raise Fail("--build %s's mpiexec %r: cannot split it into words (%s)" % (build["dir"], build["mpiexec"], e))
        if not shutil.which(launcher[0]):
            raise Fail("--build %s: its launcher %s is not found" % (build["dir"], launcher[0]))
        return cls(launcher, "build", np, [build["dir"]], here)  # one folder, whatever its name holds (a ':')

    def command(self, flags, program, args):
        """The whole command line of one run, with its program's rank count
        (programs.ranks); flags go right after the launcher."""
        return (self.launcher + flags + launch_words(self.launcher, self.how, programs.ranks(program, self.np))
                + [find_program(self.dirs, program, self.here)] + args)


def find_program(dirs, prog, here):
    """PROG in one of the folders dirs, or in its registry folder under one
    (a build folder's top: DIR/mpi/rma/umb_put_bw). Without them (no
    --bindir): beside umb-run (installed), then the source tree's top (an
    in-tree build), then on PATH (a pip-installed umb-run lies apart from
    the programs make install put on PATH)."""
    given = bool(dirs)
    dirs = dirs or [here, os.path.join(here, "..")]
    sub = next((p["dir"] for p in programs.load() if p["name"] == prog), "")
    for d in dirs:
        for path in (os.path.join(d, prog), os.path.join(d, sub, prog)):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return os.path.abspath(path)
    on_path = None if given else shutil.which(prog)
    if on_path:
        return os.path.abspath(on_path)
    raise Fail("%s not found in %s, nor in %s under them%s (--bindir: the build folder, or the programs' folders)"
               % (prog, ":".join(dirs), sub or "its folder", "" if given else ", nor on PATH"))


@functools.lru_cache(maxsize=None)
def verdict(path, args):
    """(exit status, the program's line) of its --check-options over args
    (a tuple): the first line of stderr that starts with its name (an MPI
    or CUDA warning may come first), else the first line; None where it
    could not be asked (it did not start, or did not answer). Asked once
    per program and option set: a set's runs share their options."""
    try:
        r = subprocess.run([path, "--check-options"] + list(args), stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=30, env=env.whole())
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = decoded(r.stderr).strip().split("\n")
    own = os.path.basename(path) + ": "
    return r.returncode, next((line for line in lines if line.startswith(own)), lines[0])


def check_options(path, prog, args, extra, within=None):
    """The program's own verdict on its options before any run: a bad
    benchmark option after "--" is refused in the program's one line,
    where every run failed with it; where the program could not answer
    here (its MPI's libraries come through its launcher), its runs say
    what is wrong. A --launch-budget the program refuses is umb-run's
    --within: the line says so, and how to run the counts as they are."""
    rc, said = verdict(path, tuple(args)) or (0, "")
    if rc != 1 or not said.startswith(prog + ": "):
        return
    if within is not None and "--launch-budget" in said:
        raise Fail("--within %g: %s (umb-run gives each launch its share of --within as --launch-budget; the run's "
                   "options: %s; give --within off to run their counts as they are)"
                   % (within, said, " ".join(shlex.quote(w) for w in (args[2:] if args[:1] == ["--launch-budget"] else args))))
    raise Fail("%s (the benchmark options after --: %s)" % (said, " ".join(shlex.quote(w) for w in extra) or "none"))
