"""The GPU tests' readings (tests/gpu/judge.py) on output recorded on GPU
machines, without a GPU (tests/gpu/recorded.sh):

  - every recorded call gives the status it gave there;
  - every reading has a recording that held (a new reading must be recorded);
  - every reading that held fails on a changed copy of its output: every
    JSON field renamed, a table's rows removed, for path-class a row's path
    named for the other side (a peer copy named staged, or staging direct),
    for validated a row that failed its check;
  - every JSON field a reading reads is named in docs/output.md, so that a
    field renamed in the programs and their docs fails here, not on the next
    GPU run.

usage: replay.py DATA-DIR OUTPUT-DOC
       replay.py --take OUTDIR/recorded DATA-DIR   (a GPU run's recordings, three calls of a reading per test)
A recorded call is DATA-DIR/MACHINE/TEST/NNN-READING/: args (one per line;
@fK is the file fK beside it) and status (tests/lib.sh, record_reading).
"""
import contextlib
import filecmp
import io
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402


def cases(top):
    for machine in sorted(os.listdir(top)):
        mdir = os.path.join(top, machine)
        if not os.path.isdir(mdir):
            continue
        for test in sorted(t for t in os.listdir(mdir) if os.path.isdir(os.path.join(mdir, t))):
            for name in sorted(os.listdir(os.path.join(mdir, test))):
                yield os.path.join(mdir, test, name)


READ = set()  # every JSON field a reading looked up


class Tracked(dict):
    """A JSON object that remembers which of its fields were read."""

    def __getitem__(self, k):
        READ.add(k)
        return dict.__getitem__(self, k)

    def get(self, k, default=None):
        READ.add(k)
        return dict.get(self, k, default)


def tracked_objects(path):
    with open(path) as f:
        return [json.loads(l, object_hook=Tracked) for l in f if l.strip()]


judge.objects = tracked_objects


def call(d, files=None):
    """The reading's status on case d (its files, or the changed copies in files)."""
    args = open(os.path.join(d, "args")).read().splitlines()
    argv = [(files or {}).get(a[1:], os.path.join(d, a[1:])) if a.startswith("@f") else a for a in args]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return judge.main(["judge.py"] + argv), args[0]


def jsonl(path):
    try:
        return [json.loads(l) for l in open(path) if l.strip()]
    except ValueError:
        return None


def changes(d, reading):
    """Changed copies of the case's output that its reading must refuse: (what, {fK: path})."""
    originals = {f: os.path.join(d, f) for f in os.listdir(d) if re.fullmatch(r"f\d+", f)}
    def renamed(o):
        def walk(v):
            if isinstance(v, dict):
                return {(k if k == "type" else k + "_renamed"): walk(x) for k, x in v.items()}
            return [walk(x) for x in v] if isinstance(v, list) else v
        return walk(o)

    def result(edit):
        return lambda o: edit(o) if o.get("type") == "result" else o
    swap = {"direct": "staged", "staged": "direct"}
    edits = [("every field renamed", renamed, None),
             ("table rows removed", None, lambda l: l if l.startswith("#") or not l.strip() else "")]
    if reading == "path-class":
        edits.append(("a path named for the other side", result(lambda o: dict(o, path=swap.get(o["path"], o["path"]))), None))
    if reading == "validated":
        edits.append(("a failed validation", result(lambda o: dict(o, validation="fail")), None))
    for what, obj_edit, line_edit in edits:
        tmp = tempfile.mkdtemp()
        files, changed = {}, False
        for f, path in originals.items():
            objs = jsonl(path)
            text = open(path).read()
            new = text
            if objs is not None and obj_edit:
                edited = [e for e in map(obj_edit, objs) if e is not None]
                new = "".join(json.dumps(o) + "\n" for o in edited)
                changed |= edited != objs  # what the objects say, not how they are spaced
            elif objs is None and line_edit:
                new = "".join(line_edit(l) for l in text.splitlines(True))
                changed |= new != text
            files[f] = os.path.join(tmp, f)
            open(files[f], "w").write(new)
        if changed:
            yield what, files, tmp
        else:
            shutil.rmtree(tmp)


def documented(doc):
    """The names docs/output.md writes in code spans (`rank`, `{"type":"rank_counters", "rank", ...}`), with
    its patterns: held_p50_ (a prefix), run1_gibs ... runN_gibs (N a number)."""
    spans = re.findall(r"`([^`]+)`", open(doc).read())
    words = {w for span in spans for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span)}
    patterns = [re.compile("^" + w.replace("N", r"\d+") + "$") for w in words if "N" in w and w.lower() != w]
    patterns += [re.compile("^" + re.escape(w)) for w in words if w.endswith("_") and len(w) > 2]
    return words, patterns


def main(top, doc):
    bad, held, n = [], set(), 0
    for d in cases(top):
        n += 1
        want = int(open(os.path.join(d, "status")).read())
        got, reading = call(d)
        if got != want:
            bad.append("%s: %s gives %d, recorded %d" % (d, reading, got, want))
            continue
        if want != 0:
            continue
        held.add(reading)
        for what, files, tmp in changes(d, reading):
            if call(d, files)[0] == 0:
                bad.append("%s: %s holds on its output with %s" % (d, reading, what))
            shutil.rmtree(tmp)
    readings = set(judge.all_readings())
    for r in sorted(readings - held):
        bad.append("reading %s has no recording that held (record it on a GPU machine: tests/data/gpu/README.md)" % r)
    words, patterns = documented(doc)
    for k in sorted(READ):
        if k not in words and not any(p.match(k) for p in patterns):
            bad.append("the readings read %r, which %s does not name" % (k, os.path.basename(doc)))
    for b in bad:
        print("FAIL: " + b)
    print("%d recorded calls, %d readings held, %d problems" % (n, len(held), len(bad)))
    return 1 if bad or not n else 0


CALL = re.compile(r"^(\d{3})-(\S+)$")  # NNN-READING: one call of a reading


def call_of(name):
    """(number, reading) of a recorded call's folder NAME, or None."""
    m = CALL.match(name)
    return (int(m.group(1)), m.group(2)) if m else None


def calls(folder):
    """{name: (number, reading)} of the recorded calls in a test's folder;
    other names (a README, a .keep) are not calls."""
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    return {n: c for n, c in ((n, call_of(n)) for n in names) if c}


def same(a, b):
    return sorted(os.listdir(a)) == sorted(os.listdir(b)) and all(
        filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False) for f in os.listdir(a))


def take(src, top, keep=3):
    """Copy a GPU run's OUTDIR/recorded into DATA-DIR: of each machine's test,
    the first KEEP calls of each reading (a table of pairs calls one reading
    many times over one kind of output), numbered after the calls there;
    a call taken before (the same files) is not taken again."""
    if not os.path.isdir(src):
        return "replay.py --take %s: not a folder of recordings (OUTDIR/recorded)" % src
    taken = 0
    try:
        for d in cases(src):
            machine, test, name = d.split(os.sep)[-3:]
            dest = os.path.join(top, machine, test)
            call = call_of(name)
            if not call or not os.path.isdir(d):
                print("replay.py: %s: not a recorded call (NNN-READING), left" % d)
                continue
            reading, there = call[1], calls(dest)
            mine = [n for n, (_, r) in there.items() if r == reading]
            if len(mine) < keep and not any(same(d, os.path.join(dest, n)) for n in mine):
                number = 1 + max([k for k, _ in there.values()] + [0])
                shutil.copytree(d, os.path.join(dest, "%03d-%s" % (number, reading)))
                taken += 1
    except OSError as e:
        return "replay.py --take: %s: %s" % (e.filename or src, e.strerror or e)
    print("%d calls taken into %s" % (taken, top))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--take":
        sys.exit(take(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 3:
        sys.exit("usage: replay.py DATA-DIR OUTPUT-DOC, or replay.py --take OUTDIR/recorded DATA-DIR")
    sys.exit(main(sys.argv[1], sys.argv[2]))
