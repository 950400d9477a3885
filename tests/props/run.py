"""Runs the property tests (plain unittest: pytest is not a dependency) and
says how many examples each property ran; exit 1 if one failed.

  top_srcdir=. PYTHON3=/usr/bin/python3 /usr/bin/python3 tests/props/run.py [MODULE|MODULE.CLASS.TEST ...]

UMB_PROPS_PROFILE=ci (the default: bounded, deterministic) or adversary
(more examples, random, shrunk to a minimal one); docs/hardening.md.
Without names, the modules run in UMB_PROPS_JOBS processes at once (as
many as there are cores, at most 2), each printed whole when it ends."""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
# Hypothesis keeps a cache in ./.hypothesis: not in the source or build tree.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", tempfile.mkdtemp(prefix="umb-props-hypothesis-"))
atexit.register(shutil.rmtree, os.environ["HYPOTHESIS_STORAGE_DIRECTORY"], True)

import common  # noqa: E402  (after the path: it loads the profile)

MODULES = ["test_readers", "test_special", "test_args", "test_match", "test_batch", "test_roundtrip", "test_share", "test_shown", "test_judgment", "test_alike", "test_like"]
# Each module's seconds on the 2-core machine (issue 67), to share them out
# between runners that take about as long; a module not listed counts 1.
SECONDS = {"test_readers": 17, "test_args": 17, "test_match": 9, "test_special": 6, "test_alike": 5, "test_shown": 5,
           "test_roundtrip": 5, "test_batch": 3}


class Timed(unittest.TextTestResult):
    """Notes each property's wall time (the slowest are printed at the end)."""
    times = {}

    def startTest(self, test):
        self._t0 = time.time()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        Timed.times[test.id().split(".", 1)[-1]] = time.time() - self._t0


def run_here(names):
    """Runs the properties in this process: what a summary needs."""
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2, resultclass=Timed).run(
        unittest.defaultTestLoader.loadTestsFromNames(names))
    sys.stdout.flush()
    return {"run": result.testsRun, "ok": result.wasSuccessful(), "counts": common.COUNTS, "times": Timed.times,
            "failed": sorted({t.id().split(" ", 1)[0].rsplit(".", 1)[-1] for t, _ in result.failures + result.errors})}


def shares(names, jobs):
    """The modules split into JOBS lists of about the same SECONDS, longest first."""
    out = [[] for _ in range(jobs)]
    for name in sorted(names, key=lambda n: -SECONDS.get(n, 1)):
        min(out, key=lambda share: sum(SECONDS.get(n, 1) for n in share)).append(name)
    return [share for share in out if share]


def run_shared(names, jobs):
    """Runs the modules in JOBS processes at once (each with its warm Python);
    prints each one's output whole, then their summaries as one."""
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}  # one each
    work = tempfile.mkdtemp(prefix="umb-props-")
    atexit.register(shutil.rmtree, work, True)
    children = []
    for n, share in enumerate(shares(names, jobs)):
        log = open(os.path.join(work, "%d.log" % n), "w+")
        summary = os.path.join(work, "%d.json" % n)
        children.append((subprocess.Popen([sys.executable, os.path.abspath(__file__), "--summary", summary] + share, env=env,
                                          stdout=log, stderr=subprocess.STDOUT), log, summary))
    total = {"run": 0, "ok": True, "counts": {}, "times": {}, "failed": []}
    for child, log, summary in children:
        rc = child.wait()
        log.seek(0)
        sys.stdout.write(log.read())
        try:
            with open(summary) as f:
                got = json.load(f)
        except (OSError, ValueError):
            got = {"run": 0, "ok": False, "counts": {}, "times": {}, "failed": ["a runner (exit %s)" % rc]}
        total["run"] += got["run"]
        total["ok"] = total["ok"] and got["ok"] and rc == 0
        total["failed"] += got["failed"]
        for key in ("counts", "times"):
            total[key].update(got[key])
    return total


def main(args):
    t0 = time.time()
    if args[:1] == ["--summary"]:  # one of run_shared's runners
        got = run_here(args[2:])
        with open(args[1], "w") as f:
            json.dump(got, f)
        return 0 if got["ok"] else 1
    jobs = int(os.environ.get("UMB_PROPS_JOBS") or min(2, os.cpu_count() or 1))
    got = run_here(args) if args or jobs < 2 else run_shared(MODULES, jobs)
    print("\nslowest properties (wall s):")
    for name, s in sorted(got["times"].items(), key=lambda t: -t[1])[:15]:
        print("  %-60s %6.1f" % (name, s))
    print("\nprofile %s; examples run per property:" % common.PROFILE)
    for name in sorted(got["counts"]):
        print("  %-32s %d" % (name, got["counts"][name]))
    failed = got["failed"]
    print("properties: %d run, %d failed%s; %.0f s" % (got["run"], len(failed), " (%s)" % ", ".join(failed) if failed else "",
                                                       time.time() - t0))
    return 0 if got["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
