"""Every reader over generated documents: a results folder umb-run wrote
with one of its files (run.json, tune.json, a run's JSON Lines) mutated
or replaced by a special file; the settings catalogue the same way. Each
reader ends within the limit, without a traceback or an internal error;
a failure is exit 1 and one line; a reader changes nothing."""
import json
import os
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

import common
import folders
import mutate
from common import command, counted, no_crash, refusal_is_one_line, run, scale, snapshot, unchanged


class Readers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = common.Stage()
        cls.base = folders.base_folder(cls.stage)
        cls.valid = folders.copy_folder(cls.base, os.path.join(cls.stage.root, "valid"))
        cls.files = folders.readable_files(cls.base)

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def mutated(self, data, only=None):
        """A copy of the base folder with one file changed; returns the folder and what was done."""
        where = folders.copy_folder(self.base, os.path.join(self.stage.scratch(), "res"))
        name = data.draw(st.sampled_from(only or self.files), label="file")
        with open(os.path.join(where, name), "rb") as f:
            text = f.read()
        change = data.draw(mutate.file_change(text, name.endswith(".jsonl")), label="change")
        mutate.apply(os.path.join(where, name), change)
        return where

    def read_only(self, name, argv, folder, long_run_ok=False):
        before = snapshot(folder)
        r = run(argv, cwd=self.stage.scratch(), env=self.stage.env())
        counted(name)
        no_crash(r, long_run_ok)
        refusal_is_one_line(r)
        unchanged(before, snapshot(folder), r)
        return r

    @settings(max_examples=scale(16))
    @given(st.data())
    def test_findings_reads_any_folder(self, data):
        d = self.mutated(data)
        self.read_only("findings_reads_any_folder", command("umb-findings") + [d], d)

    @settings(max_examples=scale(16))
    @given(st.data())
    def test_compare_reads_any_folder(self, data):
        d = self.mutated(data)
        self.read_only("compare_reads_any_folder", command("umb-compare") + [d, self.valid], d)

    @settings(max_examples=scale(5))
    @given(st.data())
    def test_plot_reads_any_folder(self, data):
        if not common.has_matplotlib():
            self.skipTest("no matplotlib: umb-plot cannot run")
        d = self.mutated(data)
        out = os.path.join(self.stage.scratch(), "p.png")
        self.read_only("plot_reads_any_folder", command("umb-plot") + [d, "--out", out], d)

    @settings(max_examples=scale(12))
    @given(st.data())
    def test_tune_report_reads_any_folder(self, data):
        d = self.mutated(data, only=data.draw(st.sampled_from([None, ["tune.json"]])))
        self.read_only("tune_report_reads_any_folder", command("umb-tune") + ["--report", d], d)

    @settings(max_examples=scale(12))
    @given(st.data())
    def test_append_refuses_cleanly(self, data):
        """umb-run --append over a mutated folder: it adds a round, or refuses
        in one line leaving the folder as it was."""
        d = self.mutated(data)
        before = snapshot(d)
        r = run(command("umb-run") + ["--bindir", self.stage.stub, "--match", folders.MATCH, "--out", d, "--append",
                                      "--run-limit", "5"], cwd=self.stage.scratch(), env=self.stage.env())
        counted("append_refuses_cleanly")
        no_crash(r)
        self.assertIn(r.rc, (0, 1), r.show())
        if r.rc != 0 and not r.out.strip():
            refusal_is_one_line(r)
            unchanged(before, snapshot(d), r)

    @settings(max_examples=scale(16))
    @given(st.data())
    def test_catalogue_read_or_refused(self, data):
        """umb-tune --catalogue FILE: the catalogue is read, or refused in one
        line; --only with a name no catalogue has then stops it before any work."""
        where = self.stage.scratch()
        path = os.path.join(where, "settings.json")
        with open(folders.CATALOGUE, "rb") as f:
            text = f.read()
        mutate.apply(path, ("bytes", text))
        mutate.apply(path, data.draw(mutate.file_change(text, False), label="change"))
        out = os.path.join(where, "out")
        r = run(command("umb-tune") + ["--catalogue", path, "--only", "zz-no-such-setting", "--out", out], cwd=where,
                env=self.stage.env())
        counted("catalogue_read_or_refused")
        no_crash(r)
        self.assertEqual(r.rc, 1, r.show())
        refusal_is_one_line(r)
        self.assertFalse(os.path.exists(out), "a refused catalogue made --out:\n" + r.show())

    @settings(max_examples=scale(12))
    @given(st.data())
    def test_build_record_read_or_refused(self, data):
        """umb-run --build NAME=DIR reads DIR/umbench-build.json (configure
        writes it): runs through its launcher, or refuses in one line
        without making --out; its launcher is words, never a shell's."""
        where = self.stage.scratch()
        build = folders.copy_folder(self.stage.stub, os.path.join(where, "build"))
        record = json.dumps({"umbench": "0.1.0", "mpicc": "mpicc", "mpiexec": self.stage.launcher, "cuda": "no"}).encode()
        path = os.path.join(build, "umbench-build.json")
        mutate.apply(path, ("bytes", record))
        mutate.apply(path, data.draw(st.one_of(mutate.file_change(record, False), mutate.INJECTIONS_AS_LAUNCHER), label="change"))
        out = os.path.join(where, "out")
        before = snapshot(where)
        r = run(command("umb-run") + ["--build", "b=" + build, "--match", folders.MATCH, "--out", out, "--run-limit", "5"],
                cwd=where, env=self.stage.env())
        counted("build_record_read_or_refused")
        no_crash(r)
        common.no_canary(where, r)
        self.assertIn(r.rc, (0, 1), r.show())
        if r.rc != 0 and not r.out.strip():
            refusal_is_one_line(r)
            unchanged(before, snapshot(where), r)

    @settings(max_examples=scale(6))
    @given(st.data())
    def test_figure_out_of_its_range_named(self, data):
        """A figure out of its physical range (a time or rate of 0 or below, a
        count or percentage below 0, more than 100% placed): every reader
        refuses the row, naming the file, the line, the field and the value
        (pass 13: a negative latency passed the schema and was compared)."""
        d = folders.copy_folder(self.base, os.path.join(self.stage.scratch(), "res"))
        name = data.draw(st.sampled_from([f for f in self.files if f.endswith(".jsonl")]), label="file")
        path = os.path.join(d, name)
        with open(path) as f:
            lines = f.read().split("\n")
        rows = [n for n, line in enumerate(lines) if line.startswith('{"type":"result"')]
        n = data.draw(st.sampled_from(rows), label="row")
        row = json.loads(lines[n])
        field = data.draw(st.sampled_from(sorted(k for k, v in row.items() if isinstance(v, (int, float)) and k != "size")),
                          label="field")
        # At size 0 a rate is 0, and a time may be within the clock's tick.
        above_0 = field.endswith(("_us", "_ms", "_mbs", "_gbs", "gibs", "_per_s")) and row["size"] > 0
        low = st.one_of(st.integers(max_value=0 if above_0 else -1),
                        st.floats(max_value=0 if above_0 else -1e-9, min_value=-1e300, allow_nan=False))
        value = data.draw(st.one_of(low, st.floats(100.001, 1e300)) if field == "placed_pct" else low, label="value")
        lines[n] = json.dumps(dict(row, **{field: value}), separators=(",", ":"))
        with open(path, "w") as f:
            f.write("\n".join(lines))
        for argv in (["umb-findings", d], ["umb-compare", d, self.valid]):
            r = self.read_only("figure_out_of_its_range_named", command(argv[0]) + argv[1:], d)
            said = "%s:%d: %s must be " % (path, n + 1, field)
            self.assertIn(said, r.out + r.err, r.show())
            self.assertIn("found %s" % json.dumps(value), r.out + r.err, r.show())

    @settings(max_examples=scale(6))
    @given(st.data())
    def test_long_number_said_in_our_words(self, data):
        """A whole number of thousands of digits, in run.json or a result line:
        refused naming the file, the field and its range, in the readers'
        words (pass 13: "not JSON (Exceeds the limit (4300 digits) for
        integer string conversion ...)", Python's)."""
        d = folders.copy_folder(self.base, os.path.join(self.stage.scratch(), "res"))
        digits = data.draw(st.integers(4301, 20000), label="digits")  # Python's int takes 4300
        number = data.draw(st.sampled_from(["", "-"]), label="sign") + "9" * digits
        where = data.draw(st.sampled_from(["np", "rounds", "status", "size", "iterations", "avg_latency_us"]), label="field")
        key = '"%s": ' % where if where in ("np", "rounds", "status") else '"%s":' % where
        name = "run.json" if where in ("np", "rounds", "status") else \
            data.draw(st.sampled_from([f for f in self.files if f.endswith(".jsonl") and key in open(os.path.join(d, f)).read()]),
                      label="file")
        with open(os.path.join(d, name)) as f:
            text = f.read()
        at = text.index(key, text.find('{"type":"result"') if name != "run.json" else 0) + len(key)
        end = min(i for i in (text.find(c, at) for c in ",}") if i >= 0)
        with open(os.path.join(d, name), "w") as f:
            f.write(text[:at] + number + text[end:])
        line = text.count("\n", 0, at) + 1
        for argv in (["umb-findings", d], ["umb-compare", d, self.valid]):
            r = self.read_only("long_number_said_in_our_words", command(argv[0]) + argv[1:], d)
            said = r.out + r.err
            self.assertNotIn("Exceeds the limit", said, r.show())
            self.assertIn("(%d digits)" % digits, said, r.show())
            self.assertIn("%s: not" % os.path.join(d, name) if name == "run.json" else
                          "%s:%d: " % (os.path.join(d, name), line), said, r.show())
            self.assertRegex(said, r"(^|[ .\]])%s must be (at|above|within)" % where, r.show())

    def test_valid_folder_is_read(self):
        """The unchanged folder: every reader takes it (the properties' base case)."""
        for argv in (["umb-findings", self.base], ["umb-compare", self.base, self.valid], ["umb-tune", "--report", self.base]):
            r = run(command(argv[0]) + argv[1:], cwd=self.stage.scratch(), env=self.stage.env())
            no_crash(r)
            self.assertEqual(r.rc, 0, r.show())
        with open(os.path.join(self.base, "run.json")) as f:
            self.assertTrue(json.load(f)["runs"])


if __name__ == "__main__":
    unittest.main()
