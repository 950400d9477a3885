"""What the property tests share: the commands run as subprocesses (their
behaviour, not their internals, is under test), stand-ins for every
launcher and program so that nothing real runs, the checks every command
owes its user (docs/hardening.md, "Properties"), and the profiles."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from hypothesis import HealthCheck, Phase, settings

TOP = os.path.abspath(os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPTS = os.path.join(TOP, "scripts")
PY = os.environ.get("PYTHON3") or sys.executable
LIMIT = 20  # seconds: a command still silent after this is a hang
CANARY = "CANARY"
DATA = os.path.join(TOP, "tests", "data", "gpu")
sys.path.insert(0, SCRIPTS)
from umbench import programs as registry  # noqa: E402
import warm  # noqa: E402

# ci: bounded and deterministic for make check (2 cores, a few minutes);
# adversary: more examples, random, shrunk to a minimal one (docs/hardening.md).
settings.register_profile("ci", max_examples=12, derandomize=True, database=None, deadline=None, print_blob=False,
                          phases=[Phase.explicit, Phase.generate],
                          suppress_health_check=list(HealthCheck))
settings.register_profile("adversary", max_examples=200, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck))
PROFILE = os.environ.get("UMB_PROPS_PROFILE") or "ci"
settings.load_profile(PROFILE)


def scale(n):
    """A property's share of examples: n in ci, 15 times that in adversary."""
    return n if PROFILE == "ci" else 15 * n


COUNTS = {}  # property name -> examples run


def counted(name):
    COUNTS[name] = COUNTS.get(name, 0) + 1


class Result:
    def __init__(self, argv, rc, out, err, hung, limit):
        self.argv, self.rc, self.out, self.err, self.hung, self.limit = argv, rc, out, err, hung, limit

    def err_lines(self):
        return [line for line in self.err.split("\n") if line != ""]

    def show(self):
        argv = " ".join(repr(a) if len(a) < 80 else repr(a[:60]) + "...(%d chars)" % len(a) for a in self.argv)
        return "%s\n  exit %s%s\n  stderr: %r\n  stdout: %r" % (argv, self.rc, " (no end within %d s)" % self.limit if self.hung else "",
                                                             self.err[-2000:], self.out[-600:])


def run(argv, cwd, env=None, limit=LIMIT, stdin=subprocess.DEVNULL):
    """argv under a time limit, in its own process group (killed whole at
    the limit); never raises on the command's behaviour. A Python script
    runs in a child of the warm Python (warm.py), as it would on its own."""
    env = dict(os.environ) if env is None else env
    python = warm.Warm.get(PY, SCRIPTS, command_env())
    if stdin == subprocess.DEVNULL and python.takes(argv, env):
        rc, out, err, hung = python.run(argv, cwd, env, limit)
        return Result(argv, rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), hung, limit)
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
    hung = False
    try:
        out, err = child.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        hung = True
        warm.kill(child.pid)
        out, err = child.communicate()
    return Result(argv, child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), hung, limit)


def command(name):
    return [PY, os.path.join(SCRIPTS, name)]


def no_crash(r, long_run_ok=False):
    """No traceback, no hang, no internal error (the catch-all for a bug)."""
    assert not (r.hung and not (long_run_ok and r.out.strip())), "hang:\n" + r.show()
    assert "Traceback" not in r.err + r.out, "traceback:\n" + r.show()
    assert "internal error" not in r.err, "internal error:\n" + r.show()


def refusal_is_one_line(r):
    """A failure is exit 1 and one line on stderr."""
    if r.rc != 0 and not r.hung:
        assert r.rc == 1, "exit %s, expected 0 or 1:\n%s" % (r.rc, r.show())
        assert len(r.err_lines()) == 1, "not one line on stderr:\n" + r.show()


def snapshot(*roots):
    """Every path under roots with its kind, size and mtime (nothing is
    opened: FIFOs and devices stay unread)."""
    out = {}
    for root in roots:
        if not os.path.lexists(root):
            out[root] = None
            continue
        for base, dirs, files in os.walk(root):
            for name in [""] + dirs + files:
                p = os.path.join(base, name) if name else base
                st = os.lstat(p)
                out[p] = (stat.S_IFMT(st.st_mode), st.st_size if stat.S_ISREG(st.st_mode) else 0, st.st_mtime_ns)
    return out


# A writer's lock file: held with its pid written in it (umbench/cli.py,
# hold_lock), so a refused second writer rewrites a lock that was there.
# One that was not there before is still a file written on a refusal.
LOCKS = (".umb-run.lock", ".umb-tune.lock")


def unchanged(before, after, r):
    for p in before:
        if os.path.basename(p) in LOCKS and before[p] and after.get(p):
            after[p] = before[p]
    if before != after:
        new = sorted(set(after) - set(before))
        gone = sorted(set(before) - set(after))
        changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
        raise AssertionError("changed files (new %s, gone %s, changed %s):\n%s" % (new[:5], gone[:5], changed[:5], r.show()))


def no_litter(before, after, r):
    """A command that failed leaves no new folder holding nothing but a
    writer's lock (a results folder begun and given up)."""
    new_dirs = [p for p in after if p not in before and after[p][0] == stat.S_IFDIR]
    for d in new_dirs:
        inside = [p for p in after if p.startswith(d + os.sep) and after[p][0] != stat.S_IFDIR]
        assert any(os.path.basename(p) not in LOCKS for p in inside), \
            "a failure left %s, with %s in it:\n%s" % (d, [os.path.basename(p) for p in inside] or "nothing", r.show())


def no_canary(where, r):
    found = [os.path.join(b, f) for b, _, fs in os.walk(where) for f in fs if f == CANARY]
    assert not found, "ran something from data (%s):\n%s" % (found, r.show())


class Stage:
    """A scratch folder with stand-ins: a launcher that runs the first
    executable argument, programs that take any options (--check-options)
    and print a recorded output, and srun,
    jsrun, mpirun, ompi_info, ucx_info... that record their arguments."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="umb-props-")
        self.bin = os.path.join(self.root, "bin")   # on PATH: the system's tools
        self.stub = os.path.join(self.root, "stub")  # --bindir: the programs
        self.records = os.path.join(self.root, "records")
        for d in (self.bin, self.stub, self.records):
            os.mkdir(d)
        self.calls = os.path.join(self.root, "calls.log")
        log = "#!/bin/sh\nprintf '%%s\\n' \"$0 $*\" >>'%s'\n" % self.calls
        for tool in ("srun", "jsrun", "mpirun", "mpiexec", "ompi_info", "ucx_info", "nvidia-smi", "nvidia-cuda-mps-control",
                     "mpivars", "sbatch", "bsub"):
            self._script(self.bin, tool, log + "exit 0\n")
        self.launcher = self._script(self.root, "launch", log + '[ "$1" != --version ] || exec echo a stand-in launcher\n'
                                     'while [ $# -gt 0 ] && ! { [ -f "$1" ] && [ -x "$1" ]; }; do shift; done\nexec "$@"\n')
        for name in programs():
            self._script(self.stub, name, '#!/bin/sh\n[ "$1" != --check-options ] || exit 0\nf="%s/%s.jsonl"\n[ -f "$f" ] || f="%s/any.jsonl"\n'
                         '[ -f "$f" ] && exec cat "$f"\necho \'{"type":"end","program":"%s","status":0}\'\n'
                         % (self.records, name, self.records, name))

    def _script(self, folder, name, text):
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
        return path

    def env(self, **extra):
        """The environment of a command under test: stand-ins first on PATH,
        MPIEXEC the stand-in launcher, no batch job, no debug tracebacks."""
        env = command_env()
        env.update(PATH=self.bin + os.pathsep + env.get("PATH", "/usr/bin:/bin"), MPIEXEC=self.launcher)
        env.update(extra)
        return env

    def scratch(self):
        return tempfile.mkdtemp(dir=self.root, prefix="ex-")

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


_matplotlib = []


def has_matplotlib():
    """Whether umb-plot can run: asked of the commands' Python once."""
    if not _matplotlib:
        _matplotlib.append(run([PY, "-c", "import matplotlib"], cwd=TOP).rc == 0)
    return _matplotlib[0]


def command_env():
    """The environment every command starts from: no batch job, no
    launcher or library settings of this shell, one locale."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "LSB_", "UMB_", "MPIEXEC", "OMPI_MCA"))}
    env.update(LC_ALL="C.UTF-8", PYTHONDONTWRITEBYTECODE="1")
    return env


def programs():
    """The registry's program names, read by its one Python reader."""
    return [p["name"] for p in registry.load()]


def recorded(program):
    """Whole recorded outputs of PROGRAM from GPU machines (tests/data/gpu):
    JSON Lines with results, ending in the program's end with status 0."""
    out = []
    for base, _, files in sorted(os.walk(DATA)):
        for name in sorted(f for f in files if f.startswith("f")):
            path = os.path.join(base, name)
            if os.path.getsize(path) > 64 << 10:
                continue
            with open(path, "rb") as f:
                text = f.read()
            if text.startswith(b'{"type":"header","program":"%s ' % program.encode()) and \
                    text.rstrip().endswith(b'{"type":"end","program":"%s","status":0}' % program.encode()) and b'"type":"result"' in text:
                out.append(path)
    return out

