"""Like is compared with like (issue 66, class 3), over folders umb-run
wrote through the stand-ins, then told apart the way another umb-run
would have made them (its rank count in run.json and in the programs'
headers, its benchmark options, the libraries' variables it ran with):
umb-compare names each difference in its header; umb-findings, which
pools the folders as rounds, refuses them, and so does umb-run --append
with those settings, in one line. A folder whose files contradict each
other (a size given twice, a row of another program or buffers, an end
of another status than run.json's) is refused by every reader in one
line naming both files. And the medians beside a ratio are of the
rounds it paired."""
import json
import os
import statistics
import sys
import unittest

from hypothesis import example, given, settings
from hypothesis import strategies as st

import common
import folders
from common import command, counted, no_crash, refusal_is_one_line, run, scale, snapshot, unchanged

MATCH = "^umb_latency H H$"
# What another umb-run may have set: a rank count, benchmark options, a library's variable.
NPS = st.integers(min_value=3, max_value=64)
OPTIONS = st.lists(st.sampled_from(["-c", "--loop", "handshake", "-W", "1", "-x", "0", "--path"]), min_size=1, max_size=3)
ENVS = st.dictionaries(st.sampled_from(["OMPI_MCA_btl", "UCX_TLS", "HWLOC_HIDE_ERRORS", "OMPI_MCA_pml"]),
                       st.sampled_from(["self,tcp", "sm", "rc,cuda_copy", "1", "ob1"]), min_size=1, max_size=2)


def differs(data):
    """A non-empty choice of what the other folder ran otherwise."""
    got = {}
    while not got:
        if data.draw(st.booleans(), label="np differs"):
            got["np"] = data.draw(NPS, label="np")
        if data.draw(st.booleans(), label="options differ"):
            got["options"] = data.draw(OPTIONS, label="options")
        if data.draw(st.booleans(), label="environment differs"):
            got["env"] = data.draw(ENVS, label="env")
    return got


def edit_folder(folder, what):
    """The folder as another umb-run (its own pid) with WHAT would have written it."""
    path = os.path.join(folder, "run.json")
    with open(path) as f:
        m = json.load(f)
    m["sessions"] = [dict(s, pid=s["pid"] + 1) for s in m["sessions"]]
    m["np"] = what.get("np", m["np"])
    m["command"] = m["command"] + (["--"] + what["options"] if "options" in what else [])
    m["env"] = dict(m.get("env") or {}, **what.get("env", {}))
    with open(path, "w") as f:
        json.dump(m, f)
    for r in m["runs"]:
        edit_lines(os.path.join(folder, r["file"]), lambda o: dict(o, nranks=what.get("np", o.get("nranks")))
                   if o["type"] == "header" else o)


def edit_lines(path, change):
    with open(path) as f:
        objs = [json.loads(line) for line in f if line.strip()]
    with open(path, "w") as f:
        f.write("".join(json.dumps(o) + "\n" for o in change_all(objs, change)))


def change_all(objs, change):
    out = []
    for o in objs:
        got = change(o)
        out += got if isinstance(got, list) else [got]
    return out


class Alike(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = common.Stage()
        folders.use_records(cls.stage)
        cls.base = os.path.join(cls.stage.root, "a")
        r = run(command("umb-run") + ["--bindir", cls.stage.stub, "--set", "quick", "--match", MATCH, "--rounds", "2",
                                      "--out", cls.base], cwd=cls.stage.root, env=cls.stage.env())
        if r.rc != 0:
            raise RuntimeError("cannot make the base folder with the stand-ins:\n" + r.show())
        cls.run_json = json.load(open(os.path.join(cls.base, "run.json")))

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def copy(self):
        return folders.copy_folder(self.base, os.path.join(self.stage.scratch(), "res"))

    def named(self, r, what):
        """Each difference is in r's output: the rank counts, the options, each variable."""
        text = r.out + r.err
        if "np" in what:
            self.assertIn("np 2 | %d" % what["np"], text, r.show())
        if "options" in what:
            self.assertIn('options "" | "%s"' % " ".join(what["options"]), text, r.show())
        for k, v in what.get("env", {}).items():
            self.assertIn("%s=%s" % (k, v), text, r.show())

    @settings(max_examples=scale(6))
    @given(st.data())
    def test_compare_names_what_differs(self, data):
        what = differs(data)
        other = self.copy()
        edit_folder(other, what)
        r = run(command("umb-compare") + [self.base, other], cwd=self.stage.scratch(), env=self.stage.env())
        counted("compare_names_what_differs")
        no_crash(r)
        self.assertEqual(r.rc, 0, r.show())
        line = next((x for x in r.out.splitlines() if x.startswith("# [0] | [1] differ besides the library: ")), "")
        self.assertTrue(line, "no header line says what differs:\n" + r.show())
        self.named(common.Result(r.argv, 0, line, "", False, 0), what)

    @settings(max_examples=scale(6))
    @given(st.data())
    def test_findings_refuses_unlike_rounds(self, data):
        what = differs(data)
        other = self.copy()
        edit_folder(other, what)
        r = run(command("umb-findings") + [self.base, other], cwd=self.stage.scratch(), env=self.stage.env())
        counted("findings_refuses_unlike_rounds")
        no_crash(r)
        self.assertEqual(r.rc, 1, r.show())
        refusal_is_one_line(r)
        self.assertIn(self.base + os.sep, r.err, r.show())
        self.assertIn(other + os.sep, r.err, r.show())
        self.named(r, what)

    @settings(max_examples=scale(4))
    @given(st.booleans(), st.booleans(), st.permutations([0, 1, 2]))
    def test_copy_not_pooled(self, with_copy, with_other, order):
        """A copy of a folder (cp -r) holds the same runs: umb-findings refuses
        to pool it with its original, naming both, and pools folders of
        other umb-runs (pass 13: a copy was pooled as more rounds)."""
        copy, other = self.copy(), self.copy()
        edit_folder(other, {})
        given = [f for f, on in zip([self.base, copy, other], [True, with_copy, with_other]) if on]
        r = run(command("umb-findings") + sorted(given, key=lambda f: order[[self.base, copy, other].index(f)]),
                cwd=self.stage.scratch(), env=self.stage.env())
        counted("copy_not_pooled")
        no_crash(r)
        if not with_copy:
            self.assertEqual(r.rc, 0, r.show())
            return
        self.assertEqual(r.rc, 1, r.show())
        refusal_is_one_line(r)
        self.assertIn("one is a copy of the other", r.err, r.show())
        for f in (self.base, copy):
            self.assertIn(f + " ", r.err, r.show())

    @settings(max_examples=scale(6))
    @given(st.data())
    def test_append_refuses_unlike_rounds(self, data):
        """--np is not what ran where MATCH's program takes two ranks: umb-run
        runs it on 2 whatever --np says, and its recorded ranks are what
        counts (pass 13, kind 6: --np 3 was refused); options and variables
        that differ are."""
        what = differs(data)
        np = what.pop("np", 2)
        folder = self.copy()
        before = snapshot(folder)
        argv = ["--bindir", self.stage.stub, "--set", "quick", "--match", MATCH, "--out", folder, "--append",
                "--np", str(np)] + (["--"] + what["options"] if "options" in what else [])
        r = run(command("umb-run") + argv, cwd=self.stage.scratch(), env=self.stage.env(**what.get("env", {})))
        counted("append_refuses_unlike_rounds")
        no_crash(r)
        if not what:
            self.assertEqual(r.rc, 0, r.show())
            return
        self.assertEqual(r.rc, 1, r.show())
        self.assertNotIn("np ", r.err, r.show())
        refusal_is_one_line(r)
        self.assertIn(folder, r.err, r.show())
        self.named(r, what)
        unchanged(before, snapshot(folder), r)

    def test_append_np_of_a_two_rank_program(self):
        """The issue's case, always run: --np 3 where MATCH's program takes two
        ranks runs what the folder's runs ran, and is a round of them."""
        folder = self.copy()
        r = run(command("umb-run") + ["--bindir", self.stage.stub, "--set", "quick", "--match", MATCH, "--out", folder,
                                      "--append", "--np", "3"], cwd=self.stage.scratch(), env=self.stage.env())
        no_crash(r)
        self.assertEqual(r.rc, 0, r.show())
        self.assertGreater(len(json.load(open(os.path.join(folder, "run.json")))["runs"]), len(self.run_json["runs"]))

    # A file against run.json; a file against itself; its order (pass 13: each an explicit example, always run).
    CONTRADICTIONS = ["program", "buffers", "end status", "run status", "no end", "run round", "run config", "run complete",
                      "size twice", "header twice", "end twice", "end before a row"]
    BOTH = 8  # the first eight name run.json too

    @settings(max_examples=scale(3))
    @given(st.sampled_from(CONTRADICTIONS), st.integers(0, 63), st.integers(0, 63), st.sampled_from([1, 2, 77, 124, 139]))
    @example("header twice", 0, 0, 1)
    @example("end twice", 1, 0, 1)
    @example("end before a row", 2, 1, 1)
    @example("no end", 3, 0, 1)
    @example("run round", 1, 0, 1)
    @example("run config", 2, 0, 1)
    @example("run complete", 0, 0, 1)
    def test_contradiction_refused(self, kind, k, row, status):
        """A run's file against itself or run.json: every reader refuses in one
        line naming both, and --append runs no round into it (pass 13): a
        size twice, a row or an end against run.json, two headers or ends,
        an end before a row, no end where run.json says the run finished; a
        run line whose round, configuration or completeness is not run.json's
        (pass 14: believed)."""
        folder = self.copy()
        name = self.run_json["runs"][k % len(self.run_json["runs"])]["file"]
        path = os.path.join(folder, name)
        with open(path) as f:
            objs = [json.loads(line) for line in f if line.strip()]
        rows = [n for n, o in enumerate(objs) if o["type"] == "result"]
        end = next(o for o in objs if o["type"] == "end")
        row = rows[row % len(rows)]

        def change(o, n=[-1]):
            n[0] += 1
            if kind == "size twice" and n[0] == row:
                return [o, dict(o)]
            if kind in ("program", "buffers") and n[0] == row:
                return dict(o, **{kind: "umb_bw" if kind == "program" else "D D"})
            if o["type"] == kind.split()[0] and kind.endswith("status"):
                return dict(o, status=status)
            if o["type"] == kind.split()[0] and kind.endswith("twice"):  # a header or an end given again
                return [o, dict(o)]
            if kind == "end before a row":
                return [end, o] if n[0] == row else [] if o["type"] == "end" else o
            if kind == "no end" and o["type"] == "end":
                return []
            if o["type"] == "run" and kind in ("run round", "run config", "run complete"):  # pass 14, K2
                field = kind.split()[1]
                return dict(o, **{field: {"round": o["round"] + 7, "config": o["config"] + "x", "complete": not o["complete"]}[field]})
            return o
        edit_lines(path, change)
        both = [name, "run.json"] if kind in self.CONTRADICTIONS[:self.BOTH] else [name]
        append = ["umb-run", "--bindir", self.stage.stub, "--set", "quick", "--match", MATCH, "--out", folder, "--append"]
        for argv in (["umb-compare", folder, self.base], ["umb-findings", folder], append) + \
                ((["umb-plot", folder, "--out", os.path.join(self.stage.scratch(), "p.png")],) if common.has_matplotlib() else ()):
            before = snapshot(folder)
            r = run(command(argv[0]) + argv[1:], cwd=self.stage.scratch(), env=self.stage.env())
            counted("contradiction_refused")
            no_crash(r)
            self.assertEqual(r.rc, 1, "%s not refused:\n%s" % (kind, r.show()))
            refusal_is_one_line(r)
            for n in both:
                self.assertIn(os.path.join(folder, n), r.err, r.show())
            unchanged(before, snapshot(folder), r)

    @settings(max_examples=scale(30))
    @given(st.lists(st.floats(0.5, 100), min_size=1, max_size=8), st.lists(st.floats(0.5, 100), min_size=1, max_size=8),
           st.integers(0, 4))
    def test_medians_of_the_paired_rounds(self, base_values, other_values, shift):
        """umb-compare's medians beside a ratio are over the rounds it paired:
        sides with other rounds (one --append'ed more, one missing a size)."""
        sys.path.insert(0, common.SCRIPTS)
        from umbench import stats  # noqa: E402

        class Side:
            settings = None

            def __init__(self, rows):
                self.runs = {("umb_latency", "H H"): {"metric": "avg_latency_us", "rows": {8: rows}}}
        b = dict(enumerate(base_values, 1))
        o = dict(enumerate(other_values, 1 + shift))
        rows = stats.comparisons([Side(b), Side(o)], [("umb_latency", "H H")])
        counted("medians_of_the_paired_rounds")
        paired = sorted(set(b) & set(o))
        if not paired:
            return
        self.assertEqual(len(rows), 1)
        self.assertAlmostEqual(rows[0]["base"], statistics.median(b[k] for k in paired), msg=(b, o, rows))
        self.assertAlmostEqual(rows[0]["other"], statistics.median(o[k] for k in paired), msg=(b, o, rows))


if __name__ == "__main__":
    unittest.main()
