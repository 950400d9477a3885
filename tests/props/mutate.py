"""Strategies for what a reader may meet: a valid document (a recorded
real file) mutated one way (a field dropped, duplicated or retyped, a
huge number, NaN or Infinity, deep nesting, a long string, bytes that are
not UTF-8, a cut), or a special file in its place (a FIFO, a folder,
/dev/zero, a link loop); and the hostile strings given as arguments and
environment values."""
import json
import os

from hypothesis import strategies as st

from common import CANARY

# Values a field may be retyped to: every JSON kind, and the extremes.
ODD_VALUES = [None, True, False, 0, -1, 1.5, 10 ** 30, -(10 ** 30), 1e308, "", "x", "8", [], {}, [1], {"a": 1},
              float("nan"), float("inf"), float("-inf"), "x" * 100000, "\u00e9\u202e\U0001F600"]
# Whole documents that are not the expected one.
TEXTS = [b"", b" ", b"null", b"[]", b"{}", b"0", b'"text"', b"NaN", b"[" * 100000 + b"]" * 100000,
         b"{\"a\":" * 50000 + b"1" + b"}" * 50000, b"\xff\xfe\x00", b"{\"type\": \"result\"}"]
SPECIAL = ["fifo", "dir", "devzero", "loop", "empty", "dangling"]


NEST = "@@nested 3000 deep@@"


def positions(doc, where=()):
    """Every (path) to a value inside doc, containers included."""
    out = [where]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += positions(v, where + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += positions(v, where + (i,))
    return out


def _at(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def edit(doc, path, op, value):
    """doc changed at path by op: drop, duplicate, retype, nest."""
    if not path:
        return value if op == "retype" else ([doc] * 2 if op == "duplicate" else doc)
    parent, key = _at(doc, path[:-1]), path[-1]
    if op == "drop":
        del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        else:
            parent[str(key) + "_again"] = parent[key]
    elif op == "retype":
        parent[key] = value
    elif op == "nest":  # put in as text after json.dumps, which would recurse
        parent[key] = NEST
    return doc


@st.composite
def json_mutation(draw, doc):
    """A JSON document (already parsed) changed at one place, as bytes."""
    doc = json.loads(json.dumps(doc))
    where = draw(st.sampled_from(positions(doc)))
    op = draw(st.sampled_from(["drop", "duplicate", "retype", "retype", "nest"]))
    value = draw(st.sampled_from(ODD_VALUES))
    inner = json.dumps(_at(doc, where)) if where else "0"
    try:
        doc = edit(doc, where, op, value)
    except (KeyError, IndexError, TypeError):
        pass
    return json.dumps(doc).replace('"%s"' % NEST, "[" * 3000 + inner + "]" * 3000).encode()


@st.composite
def byte_mutation(draw, data):
    """The file's bytes cut, or with bytes that are not UTF-8 put in."""
    at = draw(st.integers(0, max(len(data), 1)))
    how = draw(st.sampled_from(["cut", "not-utf8", "nul", "crlf"]))
    if how == "cut":
        return data[:at]
    if how == "not-utf8":
        return data[:at] + b"\xff\xfe\xc3" + data[at:]
    if how == "nul":
        return data[:at] + b"\x00" + data[at:]
    return data.replace(b"\n", b"\r\n")


def lines_mutation(data):
    """A JSON Lines file changed in one line (as json_mutation), or as bytes."""
    lines = data.split(b"\n")
    real = [i for i, line in enumerate(lines) if line.strip()]

    @st.composite
    def one_line(draw):
        i = draw(st.sampled_from(real))
        out = list(lines)
        out[i] = draw(json_mutation(json.loads(lines[i])))
        return b"\n".join(out)
    return st.one_of(one_line(), byte_mutation(data), st.sampled_from(TEXTS))


def file_change(data, is_lines):
    """('bytes', new content) or ('special', kind) or ('none', None)."""
    content = lines_mutation(data) if is_lines else st.one_of(json_mutation(json.loads(data)), byte_mutation(data),
                                                               st.sampled_from(TEXTS))
    return st.one_of(st.tuples(st.just("bytes"), content), st.tuples(st.just("special"), st.sampled_from(SPECIAL)),
                     st.just(("none", None)))


def apply(path, change):
    """Puts the change in place of the file at path."""
    kind, what = change
    if kind == "none":
        return
    if os.path.lexists(path):
        os.remove(path)
    if kind == "bytes":
        with open(path, "wb") as f:
            f.write(what)
    elif what == "fifo":
        os.mkfifo(path)
    elif what == "dir":
        os.mkdir(path)
    elif what == "devzero":
        os.symlink("/dev/zero", path)
    elif what == "loop":
        os.symlink(os.path.basename(path), path)
    elif what == "empty":
        open(path, "wb").close()
    elif what == "dangling":
        os.symlink(path + ".nowhere", path)


# Hostile strings: as option values, positional words, environment values.
# {NAME} stands for a path made for each example (Paths).
HOSTILE = ["", " ", "\t", "\n", "x\ny", "-", "--", "-h", "-v", "0", "-1", "2", "1e309", "-1e309", "nan", "NaN", "inf", "1e308",
           "99999999999999999999", "0.000001", "5%", "0%", "nan%", "1e309%", "%", "x", "a:b", "a:=1", "::", ",", "=",
           "'", '"', "\\", "$(touch %s)" % CANARY, "`touch %s`" % CANARY, "a;touch %s" % CANARY,
           "BASHPID[$(touch %s)]" % CANARY, "x[$(touch %s)]" % CANARY, "\u00e9t\u00e9", "\u202e", "\U0001F600", "\u00b2", "\u0663",
           "x" * 5000, "(", "[", "*", "?", "~", "{DIR}", "{FIFO}", "{MISSING}", "{FILE}", "{BASE}", "{DEVZERO}",
           "{LOOP}", "/dev/full", "/dev/null", "{NEW}", "{NEW}/x.png", "{FILE}.png", "/", "@emulate-internode-ucx", "@", "@x",
           "@emulate-internode-ob1:-x"]
# Values that run a command where a shell evaluates them (eval, $((...)),
# [[ -eq ]], an array subscript): nothing may ever create CANARY.
INJECTIONS = ["$(touch %s)" % CANARY, "`touch %s`" % CANARY, "a;touch %s" % CANARY, "BASHPID[$(touch %s)]" % CANARY,
              "PATH[$(touch %s)]" % CANARY, "1+BASHPID[`touch %s`]" % CANARY, "a100:BASHPID[$(touch %s)]" % CANARY,
              "x$(touch %s)y" % CANARY, "'; touch %s; '" % CANARY, "\"; touch %s; \"" % CANARY]
# A build record whose launcher is shell text.
INJECTIONS_AS_LAUNCHER = st.sampled_from(INJECTIONS).map(
    lambda v: ("bytes", json.dumps({"umbench": "0.1.0", "mpicc": "mpicc", "mpiexec": v, "cuda": "no"}).encode()))
PLACEHOLDERS = ("DIR", "FIFO", "MISSING", "FILE", "BASE", "DEVZERO", "LOOP", "NEW")
# Text that can stand in argv or the environment: no NUL, no lone surrogate.
SAFE_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)


def hostile():
    return st.one_of(st.sampled_from(HOSTILE), SAFE_TEXT, st.integers(-2 ** 70, 2 ** 70).map(str), st.sampled_from(INJECTIONS))


class Paths:
    """The paths a {NAME} stands for, made in a fresh folder."""

    def __init__(self, where, base):
        self.p = {n: os.path.join(where, "p-" + n.lower()) for n in PLACEHOLDERS}
        self.p["BASE"] = base
        os.mkdir(self.p["DIR"])
        os.mkfifo(self.p["FIFO"])
        open(self.p["FILE"], "w").close()
        os.symlink("/dev/zero", self.p["DEVZERO"])
        os.symlink(self.p["LOOP"], self.p["LOOP"])

    def fill(self, word):
        for n, p in self.p.items():
            word = word.replace("{%s}" % n, p)
        return word
