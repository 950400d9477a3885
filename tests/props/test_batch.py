"""The batch scripts over generated environments: every variable they read
(UMB_*, SLURM_*, LSB_*, GPUS_PER_NODE, MPIEXEC...) absent, typical, or
hostile (`$(touch CANARY)`, `BASHPID[$(touch CANARY)]`, backticks, `;`).
Stand-ins take the place of umb-run, srun, jsrun and mpirun and record
their arguments, so nothing real runs. The properties: nothing is run
from a value (no CANARY appears), no hang, exit 0 or a refusal of exit 1
in one line, and what the script hands umb-run is typed (--np a whole
number of at least 1)."""
import os
import unittest

from hypothesis import example, given, settings
from hypothesis import strategies as st

import common
import mutate
from common import CANARY, counted, no_canary, no_crash, refusal_is_one_line, run, scale

LAYOUTS = ["one-node", "two-nodes", "per-gpu", "ring", ""]
# Counts written in other scripts: str.isdigit() and bash's [0-9] in some
# locales take them, int() and $((...)) do not.
OTHER_DIGITS = ["\u00b2", "\u0663", "\uff11", "1\u00b2"]
TYPICAL = {"UMB_LAYOUT": LAYOUTS, "UMB_SET": ["quick", "full"], "UMB_EXTRA": ["", "-f", "-m 8:8 -i 10", "-i x*"],
           "SLURM_JOB_ID": ["42"], "SLURM_RESTART_COUNT": ["1"], "SLURM_NNODES": ["1", "2", "16"],
           "SLURM_GPUS_PER_NODE": ["1", "4", "a100:2", "a100:2,v100:1"], "LSB_JOBID": ["42"],
           "LSB_HOSTS": ["hostA hostA", "login1 batch01 batch02", "a b c d"], "GPUS_PER_NODE": ["1", "4"],
           "UMB_OUT": ["out", "{NEW}"], "MPIEXEC": ["mpirun"], "MPIEXEC_FLAGS": ["--oversubscribe"],
           "UMBENCH_LOCAL_JOBS": ["1", "4", "0"], "UMBENCH_RUN_AS_ROOT": ["1", "0"], "UMBENCH_ENVIRONS": ["a={DIR}", "a=b=c"]}
for _count in ("SLURM_NNODES", "SLURM_GPUS_PER_NODE", "GPUS_PER_NODE", "UMBENCH_LOCAL_JOBS"):
    TYPICAL[_count] = TYPICAL[_count] + OTHER_DIGITS
SCRIPTS = {
    "slurm": ("slurm/umb.sbatch", ["UMB_SET", "UMB_LAYOUT", "UMB_OUT", "UMB_EXTRA", "SLURM_JOB_ID", "SLURM_RESTART_COUNT",
                                   "SLURM_NNODES", "SLURM_GPUS_PER_NODE"]),
    "lsf": ("lsf/umb.lsf", ["UMB_SET", "UMB_LAYOUT", "UMB_OUT", "UMB_EXTRA", "LSB_JOBID", "LSB_HOSTS", "GPUS_PER_NODE"]),
}
REFRAME_ENV = ["UMBENCH_ENVIRONS", "UMBENCH_LOCAL_JOBS", "UMBENCH_PERFLOG", "UMBENCH_RUN_AS_ROOT"]
UMB_RUN = '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\nexit 0\n'


def value(name):
    """A variable's value: typical for it, or hostile."""
    return st.one_of(st.sampled_from(TYPICAL.get(name, [""])), mutate.hostile())


def environment(names):
    """Each variable absent or given a value; the layout mostly a real one,
    so that the paths that read the other variables are taken."""
    layout = st.one_of(st.sampled_from(LAYOUTS[:3]), st.sampled_from(LAYOUTS[:3]), value("UMB_LAYOUT"))
    return st.fixed_dictionaries({"UMB_LAYOUT": layout}, optional={n: value(n) for n in names if n != "UMB_LAYOUT"})


class Batch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = common.Stage()

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def script(self, which, gen, jsrun, bindir=None):
        """Runs the batch script as the batch system would, in the environment
        gen, with UMB_BINDIR the stand-in umb-run's folder unless bindir is given."""
        path = SCRIPTS[which][0]
        where = self.stage.scratch()
        paths = mutate.Paths(where, where)
        inst = os.path.join(where, "inst")
        os.mkdir(inst)
        args = os.path.join(self.stage.root, "args-%s" % os.path.basename(where))
        with open(os.path.join(inst, "umb-run"), "w") as f:
            f.write(UMB_RUN % args)
        os.chmod(os.path.join(inst, "umb-run"), 0o755)
        gen = {k: paths.fill(v) for k, v in gen.items()}
        env = self.stage.env(UMB_BINDIR=paths.fill(inst if bindir is None else bindir), **gen)
        if not jsrun:  # the system's tools, without the stand-in jsrun
            env["PATH"] = "/usr/bin:/bin"
        r = run(["bash", os.path.join(common.SCRIPTS, path)], cwd=where, env=env)
        counted(which + ("_bindir" if bindir is not None else "_env"))
        no_crash(r)
        no_canary(where, r)
        self.assertIn(r.rc, (0, 1), "exit %s:\n%s" % (r.rc, r.show()))
        refusal_is_one_line(r)
        got = None
        if os.path.exists(args):
            with open(args) as f:
                got = f.read().split("\n")
        if r.rc == 0:
            self.assertIsNotNone(got, "exit 0 without running umb-run:\n" + r.show())
            np = got[got.index("--np") + 1]
            self.assertRegex(np, r"^[1-9][0-9]*$", "--np %r handed to umb-run:\n%s" % (np, r.show()))

    @settings(max_examples=scale(60))
    @given(environment(SCRIPTS["slurm"][1]), st.booleans())
    @example({"UMB_LAYOUT": "per-gpu", "SLURM_NNODES": "BASHPID[$(touch %s)]" % CANARY}, False)
    def test_slurm_env(self, gen, jsrun):
        self.script("slurm", gen, jsrun)

    @settings(max_examples=scale(60))
    @given(environment(SCRIPTS["lsf"][1]), st.booleans())
    @example({"UMB_LAYOUT": "per-gpu", "GPUS_PER_NODE": "BASHPID[$(touch %s)]" % CANARY}, False)
    def test_lsf_env(self, gen, jsrun):
        self.script("lsf", gen, jsrun)

    @settings(max_examples=scale(6))
    @given(st.sampled_from(sorted(SCRIPTS)), value("UMB_BINDIR"))
    def test_batch_bindir(self, which, bindir):
        """UMB_BINDIR without umb-run in it: a refusal of exit 1 in one line."""
        self.script(which, {"UMB_LAYOUT": "one-node"}, False, bindir)

    @settings(max_examples=scale(16))
    @given(st.fixed_dictionaries({}, optional={n: value(n) for n in REFRAME_ENV}))
    @example({"UMBENCH_LOCAL_JOBS": "\u00b2"})
    def test_reframe_config_env(self, gen):
        """ReFrame's configuration (reframe-checks/umbench_config.py) reads
        its UMBENCH_* variables before ReFrame does anything: it loads, or
        stops in one line with exit 1 (ReFrame is not needed to tell)."""
        where = self.stage.scratch()
        paths = mutate.Paths(where, where)
        gen = {k: paths.fill(v) for k, v in gen.items()}
        r = run([common.PY, os.path.join(common.TOP, "reframe-checks", "umbench_config.py")], cwd=where, env=self.stage.env(**gen))
        counted("reframe_config_env")
        no_crash(r)
        no_canary(where, r)
        self.assertIn(r.rc, (0, 1), "exit %s:\n%s" % (r.rc, r.show()))
        refusal_is_one_line(r)

    @settings(max_examples=scale(8))
    @given(st.fixed_dictionaries({}, optional={"MPIEXEC": value("MPIEXEC"), "MPIEXEC_FLAGS": value("MPIEXEC_FLAGS")}))
    def test_suite_env(self, gen):
        """umb-suite with MPIEXEC and MPIEXEC_FLAGS given: words, never run as shell."""
        where = self.stage.scratch()
        env = self.stage.env(UMB_BINDIR=self.stage.stub, **gen)
        r = run(["sh", os.path.join(common.SCRIPTS, "umb-suite"), "-m", "8:8"], cwd=where, env=env)
        counted("umb-suite_env")
        no_crash(r)
        no_canary(where, r)
        self.assertIn(r.rc, (0, 1), "exit %s:\n%s" % (r.rc, r.show()))


if __name__ == "__main__":
    unittest.main()
