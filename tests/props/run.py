"""Runs the property tests (plain unittest: pytest is not a dependency) and
says how many examples each property ran; exit 1 if one failed.

  top_srcdir=. PYTHON3=/usr/bin/python3 /usr/bin/python3 tests/props/run.py [MODULE|MODULE.CLASS.TEST ...]

UMB_PROPS_PROFILE=ci (the default: bounded, deterministic) or adversary
(more examples, random, shrunk to a minimal one); docs/hardening.md."""
import atexit
import os
import shutil
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


class Timed(unittest.TextTestResult):
    """Notes each property's wall time (the slowest are printed at the end)."""
    times = {}

    def startTest(self, test):
        self._t0 = time.time()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        Timed.times[test.id().split(".", 1)[-1]] = time.time() - self._t0


def main(names):
    t0 = time.time()
    suite = unittest.defaultTestLoader.loadTestsFromNames(names or MODULES)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2, resultclass=Timed).run(suite)
    print("\nslowest properties (wall s):")
    for name, s in sorted(Timed.times.items(), key=lambda t: -t[1])[:100]:
        print("  %-60s %6.1f" % (name, s))
    print("\nprofile %s; examples run per property:" % common.PROFILE)
    for name in sorted(common.COUNTS):
        print("  %-32s %d" % (name, common.COUNTS[name]))
    failed = sorted({t.id().split(" ", 1)[0].rsplit(".", 1)[-1] for t, _ in result.failures + result.errors})
    print("properties: %d run, %d failed%s; %.0f s" % (result.testsRun, len(failed),
                                                       " (%s)" % ", ".join(failed) if failed else "", time.time() - t0))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
