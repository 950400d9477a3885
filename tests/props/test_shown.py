"""One rule shows a value on a terminal (docs/output.md, "Control
characters"): whatever text a results folder holds in the fields the
readers print (run.json's library and CUDA-awareness verdict, the
findings' names, rows and words), umb-compare and umb-findings write no
raw control character (a C0 one but the line end, DEL or a C1 one), and
as many lines as with plain values."""
import json
import os
import re
import subprocess
import sys
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

import common
import folders
from common import command, counted, no_crash, run, scale

sys.path.insert(0, common.SCRIPTS)
from umbench import shown  # noqa: E402

# What reaches a terminal raw: every C0 control but the line end, DEL, C1.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
# Text of every kind, control characters drawn often.
TEXT = st.text(st.one_of(st.characters(max_codepoint=0x9f), st.characters(), st.sampled_from("\n\r\x1b\x07\x9b\t")),
               min_size=1, max_size=40)


def put_fields(folder, values):
    """Every field a reader prints, set to one of VALUES: run.json's library
    and verdict, and a finding in every run (run.json's runs and summary,
    and each run's file)."""
    path = os.path.join(folder, "run.json")
    with open(path) as f:
        manifest = json.load(f)
    finding = {"finding": values[2], "rows": values[3], "what": values[4], "try": values[4], "confidence": "fact"}
    manifest["mpi_library"] = values[0]
    manifest["cuda_aware"] = {"verdict": values[1]}
    for cfg in manifest.get("configs") or []:
        cfg["mpi_library"] = values[0]
    for r in manifest["runs"]:
        r.setdefault("findings", []).append(finding)
    manifest.setdefault("findings", []).append(dict(finding, program="umb_latency", buffers="H H", config="default",
                                                    source="program", seen=[2, 2], rows_seen={values[3]: 2},
                                                    confirmed=True))
    with open(path, "w") as f:
        json.dump(manifest, f)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(folder, name)) as f:
            lines = f.read().splitlines()
        record = json.dumps(dict(finding, type="finding", program="umb_latency", buffers="H H"))
        with open(os.path.join(folder, name), "w") as f:
            for line in lines:  # before each run's end
                f.write((record + "\n" if json.loads(line).get("type") == "end" else "") + line + "\n")


class Shown(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = common.Stage()
        cls.base = folders.base_folder(cls.stage)
        cls.plain = [len(r.out.split("\n")) for r in cls.read(["v0", "v1", "v2", "v3", "v4"])]

    @classmethod
    def read(cls, values):
        """umb-compare and umb-findings over a folder holding VALUES."""
        where = folders.copy_folder(cls.base, os.path.join(cls.stage.scratch(), "res"))
        put_fields(where, values)
        return [run(argv, cwd=cls.stage.scratch(), env=cls.stage.env())
                for argv in (command("umb-compare") + [cls.base, where], command("umb-findings") + [where])]

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    @settings(max_examples=scale(12))
    @given(st.lists(TEXT, min_size=5, max_size=5))
    def test_readers_show_no_control_character(self, values):
        for r, lines in zip(self.read(values), self.plain):
            counted("readers_show_no_control")
            no_crash(r)
            raw = [line for line in (r.out + r.err).split("\n") if RAW.search(line)]
            assert not raw, "a raw control character: %r\n%s" % (raw[:3], r.show())
            # A newline of a value makes no line of its own.
            assert len(r.out.split("\n")) == lines, "%d lines, %d with plain values:\n%s" % (len(r.out.split("\n")), lines, r.show())

    @settings(max_examples=scale(40))
    @given(TEXT, st.integers(8, 120))
    def test_clip_escapes_then_cuts(self, text, width):
        """shown.clip, the one clipping rule: escaped first, then cut, so that a
        newline shows as \\x0a (pass 13: it became a blank before the escaping
        rule saw it), and no control character is left for a caller to miss."""
        counted("clip_escapes_then_cuts")
        got, whole = shown.clip(text, width), " ".join(shown.escaped(text).split())
        assert not RAW.search(got) and "\n" not in got, repr(got)
        if len(whole) <= width:
            self.assertEqual(got, whole)

    @settings(max_examples=scale(4))
    @given(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), st.sampled_from([b"\r", b"\xff", b"\xc3", b"\r\xfe"]))
    def test_launcher_bytes_shown_as_bytes(self, said, byte):
        """A program's or launcher's stderr, as umb-run shows its reason: a CR
        as \\x0d and a byte that is not UTF-8 as \\xNN (pass 13: a CR read as
        \\x0a, the wrong byte, and an invalid byte as U+FFFD)."""
        where = self.stage.scratch()
        line = b"umb_latency: " + byte + said + byte
        with open(os.path.join(where, "said"), "wb") as f:
            f.write(line + b"\n")
        bindir = os.path.join(where, "bin")
        os.mkdir(bindir)
        self.stage._script(bindir, "umb_latency", '#!/bin/sh\n[ "$1" != --check-options ] || exit 0\ncat "%s/said" >&2\nexit 1\n' % where)
        r = run(command("umb-run") + ["--bindir", bindir, "--match", "^umb_latency H H$", "--out", os.path.join(where, "out")],
                cwd=where, env=self.stage.env())
        counted("launcher_bytes_shown_as_bytes")
        no_crash(r)
        raw = [x for x in (r.out + r.err).split("\n") if RAW.search(x) or "\ufffd" in x]
        assert not raw, "a raw control character or U+FFFD: %r\n%s" % (raw[:3], r.show())
        self.assertIn("FAILED (exit 1): %s" % shown.escaped(line.decode("utf-8", "surrogateescape")), r.out, r.show())


# The shell scripts that show a value, each with its copy of scripts/shown.sh
# (a batch script cannot read a file beside it; easyconfig.sh, run from the
# tree, sources it), and the old way they had:
# a control character as "?", not the rule's \xNN (pass 14).
SHELL_SHOWN = ["scripts/umb-suite", "scripts/umb-stack", "scripts/slurm/umb.sbatch", "scripts/lsf/umb.lsf"]
OLD_WAY = re.compile(r"\[!?\[:(print|cntrl):\]\]/\?|tr (-c )?'\[:(print|cntrl):\]' '\?'")


def shell_shown(path):
    """The shown() function a shell script holds: the comment and body as in
    scripts/shown.sh (None where the script has none)."""
    with open(os.path.join(common.TOP, path)) as f:
        m = re.search(r"^# shown TEXT\.\.\.:.*?^shown\(\) \{.*?^\}\n", f.read(), re.S | re.M)
    return m and m.group()


class ShellShown(unittest.TestCase):
    """The shell scripts show a value by the one rule, C's and Python's."""

    def test_every_script_holds_the_one_function(self):
        with open(os.path.join(common.TOP, "scripts/shown.sh")) as f:
            one = f.read()
        for path in SHELL_SHOWN:
            self.assertEqual(shell_shown(path), one, path)
        for where, _, files in os.walk(os.path.join(common.TOP, "scripts")):
            for name in files:
                with open(os.path.join(where, name), errors="replace") as f:
                    self.assertIsNone(OLD_WAY.search(f.read()), os.path.join(where, name))

    @settings(max_examples=scale(15))
    @given(st.one_of(st.binary(max_size=24), TEXT.map(lambda t: t.encode("utf-8", "surrogatepass"))).map(
        lambda b: b.replace(b"\0", b"")))
    def test_shell_shows_as_python_and_c(self, value):
        """Each script's shown() writes any bytes (no NUL: no shell value
        holds one) as shown.escaped writes them, on one line."""
        counted("shell_shows_as_python_and_c")
        want = (shown.escaped(shown.decoded(value)) + "\n").encode()
        for path in SHELL_SHOWN:
            got = subprocess.run(["bash", "-c", (shell_shown(path) or "shown() { printf 'none\n'; }") + '\nshown "$1"', "-", value],
                                 stdout=subprocess.PIPE, check=True).stdout
            self.assertEqual(got, want, (path, value))


if __name__ == "__main__":
    unittest.main()
