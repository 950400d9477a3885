"""A warm Python for the commands under test. Each property runs a command
hundreds of times, and a Python's start (the interpreter, jsonschema,
matplotlib, the package) cost more CPU than most commands do after it.
This process has paid it once: for each command it forks a child that runs
the script as `python3 SCRIPT ARGS...` would, in a session of its own, with
the command's folder, environment and standard streams, and that ends
through the interpreter's own exit (the status of its SystemExit, the
traceback of an exception nobody caught, atexit, the streams flushed).

  python3 warm.py FD SCRIPTS   (FD: the socket common.py talks to it over)

A request: its length in 8 digits, then JSON {"argv", "cwd", "env"}, with
the child's stdin, stdout and stderr beside it (SCM_RIGHTS); the answers:
a line with the child's pid, then one with its exit code as subprocess
gives it (-N for signal N)."""
import atexit
import selectors
import gc
import importlib
import json
import os
import runpy
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback

# What the interpreter reads at its start: a request that sets these
# otherwise than this process started with gets a Python of its own.
STARTUP = ("PYTHON", "LC_", "LANG")


def startup_env(env):
    return {k: v for k, v in env.items() if k.startswith(STARTUP)}


def preload(scripts):
    """Imports what the commands import, as they do it (plot.py's Agg)."""
    sys.path[:0] = [scripts]
    for name in ("umbench.compare", "umbench.findings", "umbench.plot", "umbench.run", "umbench.tune", "jsonschema"):
        importlib.import_module(name)
    try:
        importlib.import_module("matplotlib").use("Agg")
        importlib.import_module("matplotlib.pyplot")
    except ImportError:
        pass
    del sys.path[0]
    gc.freeze()  # what is loaded stays out of the children's collections: not copied into each


def become(req, fds, sock, path):
    """In the child: the command's session, streams, folder, environment,
    argv and sys.path, as a fresh `python3 SCRIPT` would have them."""
    os.setsid()
    sock.close()
    for n, fd in enumerate(fds):
        os.dup2(fd, n)
    for fd in set(fds):
        if fd > 2:
            os.close(fd)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    sys.argv = req["argv"][1:]
    sys.path[:] = [os.path.dirname(os.path.abspath(sys.argv[0]))] + path[1:]


def receive(sock):
    """A request and its three descriptors; None where the socket closed."""
    data, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
    if not data:
        return None, []
    while len(data) < 8 or len(data) < 8 + int(data[:8]):
        more = sock.recv(1 << 16)
        if not more:
            raise EOFError("a request cut short")
        data += more
    return json.loads(data[8:]), fds


def serve(sock):
    """Answers requests until the socket closes; returns the script to run
    in a child (None in this process, at the end)."""
    path = list(sys.path)
    preload(sys.argv[2])
    while True:
        req, fds = receive(sock)
        if req is None:
            return None
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            become(req, fds, sock, path)
            return req["argv"][1]
        for fd in fds:
            os.close(fd)
        sock.sendall(b"%d\n" % pid)
        _, status = os.waitpid(pid, 0)
        sock.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))


def kill(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def collect(out_fd, err_fd, limit, pid):
    """What a command writes on its two pipes until both close; its process
    group is killed at the limit (then read to the end, as communicate does)."""
    got = {out_fd: [], err_fd: []}
    deadline, hung = time.monotonic() + limit, False
    with selectors.DefaultSelector() as sel:
        for fd in got:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map():
            ready = sel.select(None if hung else max(0, deadline - time.monotonic()))
            if not ready and not hung:
                hung = True
                kill(pid)
            for key, _ in ready:
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    got[key.fd].append(chunk)
                else:
                    sel.unregister(key.fd)
                    os.close(key.fd)
    return b"".join(got[out_fd]), b"".join(got[err_fd]), hung


class Warm:
    """This file's side in the tests' process (common.run): the warm Python,
    one per run, started with the commands' environment; one request at a time."""
    one = None
    lock = threading.Lock()

    def __init__(self, py, scripts, env):
        self.py, self.env = py, env
        ours, its = socket.socketpair()
        self.proc = subprocess.Popen([py, os.path.abspath(__file__), str(its.fileno()), scripts], env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=(its.fileno(),))
        its.close()
        self.sock, self.answers = ours, ours.makefile("rb")
        atexit.register(self.close)

    @classmethod
    def get(cls, py, scripts, env):
        if cls.one is None:
            cls.one = Warm(py, scripts, env)
        return cls.one

    def takes(self, argv, env):
        """A Python script (not -c, not an option), in words and an
        environment Popen takes, and that Python starts as this one did."""
        return len(argv) > 1 and argv[0] == self.py and not argv[1].startswith("-") and os.path.isfile(argv[1]) and \
            not any("\0" in w for w in list(argv) + list(env) + list(env.values())) and \
            startup_env(env) == startup_env(self.env)

    def run(self, argv, cwd, env, limit):
        with self.lock:
            out_r, out_w = os.pipe()
            err_r, err_w = os.pipe()
            null = os.open(os.devnull, os.O_RDONLY)
            request = json.dumps({"argv": argv, "cwd": cwd, "env": env}).encode()
            request = b"%08d" % len(request) + request
            sent = socket.send_fds(self.sock, [request], [null, out_w, err_w])
            self.sock.sendall(request[sent:])
            for fd in (null, out_w, err_w):
                os.close(fd)
            pid = int(self.answer())
            out, err, hung = collect(out_r, err_r, limit, pid)
            rc = int(self.answer())
        return rc, out, err, hung

    def answer(self):
        line = self.answers.readline()
        if not line:
            raise RuntimeError("the warm Python (tests/props/warm.py) ended: exit %s" % self.proc.wait())
        return line

    def close(self):
        self.answers.close()
        self.sock.close()  # the warm Python ends at the end of its requests
        self.proc.wait()


def status(code):
    """The exit status of SystemExit(code), as the interpreter makes it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def finish(script):
    """Runs the script in the child and ends as the interpreter ends
    (Py_RunMain, Py_FinalizeEx): the exception's status or traceback, the
    threads waited for, atexit, the streams flushed (120 where stdout
    fails), but without freeing the heap: in a fork of this one that alone
    takes longer than a command (0.05 s, 0.2 s with matplotlib)."""
    code, signum = 0, None
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = status(e.code)
    except BaseException as e:  # noqa: B036 (as the interpreter: KeyboardInterrupt too)
        sys.excepthook(type(e), e, e.__traceback__)
        code, signum = 1, signal.SIGINT if isinstance(e, KeyboardInterrupt) else None
    threading._shutdown()
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except Exception:
        print("Exception ignored in: %r" % sys.stdout, file=sys.stderr)
        traceback.print_exc()
        code = 120
    try:
        sys.stderr.flush()
    except Exception:
        code = 120
    if signum:  # an interrupt nobody caught ends the process by the signal itself
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    os._exit(code)


if __name__ == "__main__":
    script = serve(socket.socket(fileno=int(sys.argv[1])))
    if script:
        finish(script)
