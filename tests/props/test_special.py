"""Every file a reader opens, replaced by every kind of special file, for
every reader: the whole table, not a sample (a class closed, not a case).
A reader meets a FIFO, a folder, a link to /dev/zero or a link loop with
one line or a skip, within seconds, and changes nothing."""
import os
import shutil
import tempfile
import unittest

import common
import folders
import mutate
from common import command, counted, no_crash, refusal_is_one_line, run, snapshot, unchanged
from umbench import cli, results

KINDS = ("fifo", "devzero", "loop", "dir")
# Reading a special file takes no time: a reader that waits this long is blocked on it.
QUICK = 10


class Special(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = common.Stage()
        cls.base = folders.base_folder(cls.stage)
        cls.valid = folders.copy_folder(cls.base, os.path.join(cls.stage.root, "valid"))

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def readers(self, d):
        return {"umb-findings": [d], "umb-compare": [d, self.valid], "umb-tune --report": ["--report", d],
                "umb-run --append": ["--bindir", self.stage.stub, "--match", folders.MATCH, "--out", d, "--append"]}

    def table(self, files):
        for name in files:
            for kind in KINDS:
                d = folders.copy_folder(self.base, os.path.join(self.stage.scratch(), "res"))
                mutate.apply(os.path.join(d, name), ("special", kind))
                for reader, args in self.readers(d).items():
                    with self.subTest(file=name, kind=kind, reader=reader):
                        before = snapshot(d)
                        r = run(command(reader.split()[0]) + args, cwd=self.stage.scratch(), env=self.stage.env(), limit=QUICK)
                        counted("special_files")
                        no_crash(r)
                        refusal_is_one_line(r)
                        if reader != "umb-run --append" or (r.rc and not r.out.strip()):
                            unchanged(before, snapshot(d), r)

    def test_special_files(self):
        """run.json, tune.json and a run's file, each as a FIFO, a link to
        /dev/zero, a link loop and a folder, for every reader of a folder."""
        jsonl = next(f for f in folders.readable_files(self.base) if f.endswith(".jsonl"))
        self.table(["run.json", "tune.json", jsonl])

    def test_special_catalogue(self):
        """umb-tune --catalogue FILE, FILE a special file: one line, exit 1."""
        for kind in KINDS:
            where = self.stage.scratch()
            path = os.path.join(where, "settings.json")
            mutate.apply(path, ("special", kind))
            with self.subTest(kind=kind):
                r = run(command("umb-tune") + ["--catalogue", path, "--out", os.path.join(where, "out")], cwd=where,
                        env=self.stage.env(), limit=QUICK)
                counted("special_catalogue")
                no_crash(r)
                self.assertEqual(r.rc, 1, r.show())
                refusal_is_one_line(r)
                self.assertFalse(os.path.exists(os.path.join(where, "out")), "a refused catalogue made --out:\n" + r.show())


# What can happen to a results folder while umb-run writes it, and the
# line that must say so (docs/output.md, "One writer").
MOVED, UNLOCKED = "the results folder was moved or removed", "its lock .umb-run.lock was removed or replaced"
LOSSES = {"moved": ("mv d d.x", MOVED), "removed": ("rm -r d", MOVED), "replaced": ("mv d d.x; mkdir d; : >d/.umb-run.lock", MOVED),
          "moved and back": (None, None), "lock removed": ("rm d/.umb-run.lock", UNLOCKED),
          "lock replaced": ("rm d/.umb-run.lock; : >d/.umb-run.lock", UNLOCKED)}


class LostFolder(unittest.TestCase):
    """Every loss of the folder, before each thing the writer does: that
    thing is refused with the loss's line (a folder moved back is still
    said: once seen gone, always), never an OSError, and nothing is
    written into or removed from a folder put in its place (give_up, after
    a refusal, leaves it as it is)."""

    def test_lost_folder(self):
        line = {"round": 1, "config": "default", "status": 0, "complete": True}
        actions = {"save": lambda w: w.save({}), "new_file": lambda w: w.new_file("x.jsonl"),
                   "end_file": lambda w: w.end_file("x.jsonl", line), "undo": lambda w: w.undo({}), "give_up": None}
        for loss, (how, said) in LOSSES.items():
            for action, do in actions.items():
                with self.subTest(loss=loss, action=action):
                    where = tempfile.mkdtemp(prefix="umb-props-")
                    w = results.Writer(os.path.join(where, "d"), False)
                    if how is None:  # moved and back: seen gone once, between the two
                        os.rename(w.folder, w.folder + ".x")
                        self.assertFalse(w.there())
                    os.system("cd '%s' && %s" % (where, how or "mv d.x d"))
                    before = snapshot(w.folder)
                    if do is None:
                        w.give_up()
                    else:
                        with self.assertRaises(cli.Fail) as e:
                            do(w)
                        self.assertIn(said or MOVED, str(e.exception))
                    if loss == "replaced":
                        self.assertEqual(before, snapshot(w.folder), "the folder put in its place changed")
                    os.close(w.lock)
                    shutil.rmtree(where)
                    counted("lost_folder")

    def test_replaced_after_the_check(self):
        """A folder put in place between the check and the write (CI beside a
        build, stop 73: run.json in the new folder): the write goes to the
        folder the writer holds, wherever it went, and the next is refused."""
        line = {"round": 1, "config": "default", "status": 0, "complete": True}
        actions = {"save": (lambda w: w.save({}), "run.json"), "new_file": (lambda w: w.new_file("x.jsonl"), "x.jsonl"),
                   "end_file": (lambda w: w.end_file("x.jsonl", line), "x.jsonl")}
        for action, (do, name) in actions.items():
            with self.subTest(action=action):
                where = tempfile.mkdtemp(prefix="umb-props-")
                w, check = results.Writer(os.path.join(where, "d"), False), results.Writer.check_there
                w.check_there = lambda: (check(w), os.system("cd '%s' && %s" % (where, LOSSES["replaced"][0])))
                do(w)
                self.assertEqual(sorted(os.listdir(w.folder)), [".umb-run.lock"], "written into the folder put in its place")
                self.assertIn(name, os.listdir(w.folder + ".x"))
                with self.assertRaises(cli.Fail) as e:
                    do(w)
                self.assertIn(MOVED, str(e.exception))
                os.close(w.lock)
                shutil.rmtree(where)
                counted("lost_folder")


if __name__ == "__main__":
    unittest.main()
