"""Whatever umb-run writes, its readers read: umb-run runs stand-in programs
that print recorded real output (sometimes with one line mutated), over
generated rounds and configurations, then again with --append; wherever
run.json lists a finished run, umb-findings, umb-compare and umb-plot read
the folder without a refusal."""
import json
import os
import shutil
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

import common
import folders
import mutate
from common import command, counted, no_canary, no_crash, recorded, run, scale

# selection: the programs whose whole GPU outputs are recorded (tests/data/gpu)
PROGRAMS = ("umb_latency", "umb_bw", "umb_bcast")
NAME = st.from_regex(r"\A[A-Za-z0-9_.-]{1,12}\Z").filter(lambda n: n != "default")


def config():
    """--config NAME:VAR=VALUE with a generated value (data, never run)."""
    return st.tuples(NAME, st.sampled_from(["OMPI_MCA_btl", "UCX_TLS", "UMB_T"]), mutate.hostile()).map(
        lambda t: "%s:%s=%s" % t)


@st.composite
def outputs(draw):
    """For each program: a recorded output, or one with a line mutated."""
    out = {}
    for p in PROGRAMS:
        with open(draw(st.sampled_from(recorded(p)), label=p), "rb") as f:
            data = f.read()
        if draw(st.integers(0, 3), label="mutate %s" % p) == 0:
            data = draw(mutate.lines_mutation(data), label="mutated %s" % p)
        out[p] = data
    return out


class RoundTrip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = common.Stage()

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def umb_run(self, out, rounds, configs, append):
        argv = command("umb-run") + ["--bindir", self.stage.stub, "--match", folders.MATCH, "--rounds", str(rounds),
                                     "--run-limit", "5", "--out", out]
        for c in configs:
            argv += ["--config", c]
        r = run(argv + (["--append"] if append else []), cwd=os.path.dirname(out), env=self.stage.env())
        no_crash(r)
        no_canary(self.stage.root, r)
        self.assertIn(r.rc, (0, 1), r.show())
        return r

    @settings(max_examples=scale(8))
    @given(outputs(), st.integers(1, 3), st.lists(config(), max_size=2, unique=True), st.integers(0, 2))
    def test_written_is_read(self, records, rounds, configs, appended):
        for p, data in records.items():
            with open(os.path.join(self.stage.records, p + ".jsonl"), "wb") as f:
                f.write(data)
        where = self.stage.scratch()
        out = os.path.join(where, "res")
        runs = [self.umb_run(out, rounds, configs, False)]
        runs += [self.umb_run(out, 1, configs, True) for _ in range(appended)]
        counted("written_is_read")
        try:
            with open(os.path.join(out, "run.json")) as f:
                m = json.load(f)
        except FileNotFoundError:
            return  # umb-run refused: nothing written, nothing to read
        if not any(r["status"] == 0 and r.get("complete", True) for r in m["runs"]):
            return  # nothing finished: the readers say so (test_readers)
        other = shutil.copytree(out, os.path.join(where, "copy"))
        readers = [["umb-findings", out], ["umb-compare", out, other]]
        if common.has_matplotlib():
            readers.append(["umb-plot", out, "--out", os.path.join(where, "p.png")])
        for argv in readers:
            r = run(command(argv[0]) + argv[1:], cwd=where, env=self.stage.env())
            no_crash(r)
            self.assertEqual(r.rc, 0, "umb-run wrote it (%s), %s refused it:\n%s" % (
                "; ".join(x.out.strip().split("\n")[-1] for x in runs), argv[0], r.show()))


if __name__ == "__main__":
    unittest.main()
