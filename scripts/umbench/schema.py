"""The one reader and checker of every JSON file the scripts read or write
(docs/output.md, "Schemas"): run.json, the result lines, tune.json, the
settings catalogue, the ReFrame references and the build manifest. Each
kind has one JSON Schema (Draft 7) in schemas/KIND.schema.json beside this
module; a reader refuses a file that breaks it in one line naming the file
(and line) and the field, and a writer checks what it writes against the
same schema first, so that it never writes what its readers refuse.

Only regular files are opened: a FIFO, a device or a folder is refused
before the open (stat), and again after it (fstat of a non-blocking open:
the name may have changed between the two), and a file over MOST_BYTES
is not read into memory."""
import errno
import functools
import json
import math
import os
import stat

from .fail import Fail
from .shown import clip

MANIFEST = "run.json"  # a results folder's manifest, of the "run" schema (read_manifest)
# A results file, run.json or a catalogue larger than this is not umbench's
# (a link to a disk image, say): refused rather than read into memory.
MOST_BYTES = 256 << 20
MOST_DIGITS = 300  # past 1e300, the bound of every figure


class Missing(Fail):
    """The file is not there: some readers go on without it."""


@functools.lru_cache(maxsize=None)
def _schema(kind):
    """KIND's schema as a value: read without jsonschema, whose import is
    most of a command's start-up (a refused option needs only a bound)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "schemas", "%s.schema.json" % kind), encoding="utf-8") as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def _validator(kind):
    import jsonschema.validators  # the commands make sure it is there (cli.need_module)
    # A whole number is an int: Draft 7 would take 1.0, which a round's
    # file name (NAME.r1.0.jsonl) or a count would not.
    whole = jsonschema.Draft7Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(jsonschema.Draft7Validator, type_checker=whole)(_schema(kind))


def bound(kind, *path):
    """(minimum, maximum) of a field, from its schema: the one place a bound
    is written (umb-run's --rounds and --np take exactly what run.json may
    hold). path: property names, from the top."""
    node = functools.reduce(lambda node, key: node["properties"][key], path, _schema(kind))
    return node["minimum"], node["maximum"]


def read_bytes(path):
    """A regular file's bytes, else OSError, its strerror saying why: not
    a regular file (a read could block or never end), or larger than
    MOST_BYTES (at the open, or grown while read)."""
    st = os.stat(path)
    if stat.S_ISREG(st.st_mode):
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY), "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read(MOST_BYTES + 1) if stat.S_ISREG(st.st_mode) and st.st_size <= MOST_BYTES else b""
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", path)
    if st.st_size > MOST_BYTES or len(data) > MOST_BYTES:
        raise OSError(errno.EFBIG, "larger than %d MiB: not umbench's" % (MOST_BYTES >> 20), path)
    return data


def _no_constant(name):
    raise ValueError("%s is not a number JSON allows" % name)


class Beyond(int):
    """A number no field of umbench's files holds (a whole number past
    MOST_DIGITS digits, a decimal past a double): read as a value past every
    bound, so that its schema names the field and the range, and kept as
    written for the line that says so (Python's own words were "Exceeds the
    limit (4300 digits) for integer string conversion")."""

    def __new__(cls, text):
        self = super().__new__(cls, -10 ** 400 if text.startswith("-") else 10 ** 400)
        self.text = text
        return self

    def said(self):
        if self.text.lstrip("-").isdigit():
            return "%s... (%d digits)" % (self.text[:12], len(self.text.lstrip("-")))
        return clip(self.text, 40)


def parse(data):
    """JSON text (bytes) -> a value; ValueError on anything that is not
    strict JSON (NaN and Infinity included: every figure is finite). A
    number past every bound is a Beyond, which problem() refuses."""
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant,
                          parse_int=lambda t: Beyond(t) if len(t) > MOST_DIGITS else int(t),
                          parse_float=lambda t: Beyond(t) if math.isinf(float(t)) else float(t))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8")
    except RecursionError:
        raise ValueError("nested too deep")


def problem(data, kind):
    """None where data is a valid KIND, else one phrase: the field (e.g.
    runs[2].round) and what it must be."""
    import jsonschema.exceptions
    errors = list(_validator(kind).iter_errors(data))
    beyond = next(_beyond(data, []), None)
    if beyond is not None:  # the field it is in, and that field's range where the schema gives one
        at = [e for e in errors if list(e.absolute_path) == beyond[0] and e.validator in ("type",) + tuple(BOUNDS)]
        return _said(at[0]) if at else "%s must be within -1e300 and 1e300, found %s" % (_where(beyond[0]), beyond[1].said())
    err = jsonschema.exceptions.best_match(errors)
    return None if err is None else _said(err)


def _beyond(v, path):
    """(path, value) of each Beyond in v."""
    if isinstance(v, Beyond):
        yield path, v
    for k, x in v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ():
        yield from _beyond(x, path + [k])


def _where(path):
    return "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in path).lstrip(".") or "the top"


TYPES = {"integer": "a whole number", "number": "a number", "string": "a string", "array": "a list",
         "object": "an object", "boolean": "true or false", "null": "null"}
BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "above", "exclusiveMaximum": "below"}
SIZES = ("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties")


def _said(err):
    v, rule, shown = err.validator, err.validator_value, _shown(err.instance)
    if v == "type":
        what = "must be %s, found %s" % (" or ".join(TYPES[t] for t in (rule if isinstance(rule, list) else [rule])), shown)
    elif v == "required":
        what = "has no \"%s\"" % next((k for k in rule if k not in err.instance), rule[0])
    elif v == "additionalProperties":
        what = "holds an unknown field (%s)" % ", ".join(sorted(set(err.instance) - set(err.schema.get("properties", {})))[:3])
    elif v in BOUNDS:
        what = "must be %s %s, found %s" % (BOUNDS[v], rule, shown)
    elif v in ("minLength", "minItems") and rule == 1:
        what = "must not be empty"
    elif v in SIZES:
        what = "must have %s %d %s, found %d" % ("at most" if v.startswith("max") else "at least", rule,
                                                 "characters" if v.endswith("Length") else "entries", len(err.instance))
    elif v == "pattern":
        what = "must not be blank" if rule == "\\S" else "must match %s, found %s" % (rule, shown)
    elif v == "enum":
        what = "must be one of %s, found %s" % (", ".join(json.dumps(x) for x in rule), shown)
    elif v == "uniqueItems":
        what = "holds a value twice (%s); each once" % _shown(next(x for i, x in enumerate(err.instance) if x in err.instance[:i]))
    else:
        what = "is not as expected: %s" % " ".join(err.message.split())[:160]
    return "%s %s" % (_where(err.absolute_path), what)


def _shown(v):
    if isinstance(v, Beyond):
        return v.said()
    return clip(json.dumps(v), 40)  # at a word boundary: a value cut mid-word reads as another value


def load(path, kind, label=None, what=None):
    """The file's value, checked against KIND's schema; a failure is one
    line: LABEL (default: the path), and why. Missing (a Fail) where there
    is no file."""
    label = label or path
    try:
        data = parse(read_bytes(path))
    except FileNotFoundError:
        raise Missing("%s: no such file" % label)
    except OSError as e:
        raise Fail("%s: cannot read it (%s)" % (label, e.strerror or e))
    except ValueError as e:
        raise Fail("%s: not JSON (%s)" % (label, e))
    why = problem(data, kind)
    if why:
        raise Fail("%s: not %s: %s" % (label, what or "a %s file" % kind, why))
    return data


def lines(path, kind="result"):
    """A JSON Lines file's records, each checked against KIND's schema:
    (good, bad), good [(line number, object)], bad [(line number, why,
    the record's "type" or None)]. OSError when it cannot be read."""
    good, bad = [], []
    for n, raw in enumerate(read_bytes(path).split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            o = parse(raw)
            why = problem(o, kind)
        except ValueError as e:
            why = "not JSON (%s)" % e if str(e) != "not UTF-8" else "not UTF-8"
            # Its "type" where it was refused only for a NaN or an infinity
            # in it (a result that is not one, not a stray line).
            try:
                o = json.loads(raw.decode("utf-8"))
            except (ValueError, RecursionError):
                o = None
        if why:
            bad.append((n, why, o.get("type") if isinstance(o, dict) else None))
        else:
            good.append((n, o))
    return good, bad


def dumps(data, kind, path, what=None, indent=None):
    """A writer's JSON text of data, once it is a valid KIND as its readers
    will parse it (tuples as lists; NaN and infinities refused), else one
    line (a bug, or a bound an option let through) and nothing to write."""
    try:
        text = json.dumps(data, indent=indent, allow_nan=False)
    except ValueError as e:
        raise Fail("%s: not written: %s" % (path, e))
    why = problem(json.loads(text), kind)
    if not why and len(text.encode("utf-8")) > MOST_BYTES:  # the readers refuse a larger file (read_bytes)
        why = "it would be larger than %d MiB, which its readers refuse" % (MOST_BYTES >> 20)
    if why:
        raise Fail("%s: not written: it would not be %s: %s" % (path, what or "a %s file" % kind, why))
    return text


def read_manifest(folder, required=False):
    """The folder's run.json as a dict, None where there is none; a file
    that is not a manifest stops the command with one line."""
    path = os.path.join(folder, MANIFEST)
    try:
        m = load(path, "run", what="a manifest of umb-run")
    except Missing:
        if required:
            raise Fail("%s: no %s (not a results folder of umb-run)" % (folder, MANIFEST))
        return None
    # One run, one file: a file listed twice counted twice (JSON Schema
    # cannot say "unique by a field"; umb-run's new_file never writes it).
    seen = {}
    for i, r in enumerate(m.get("runs", [])):
        if r["file"] in seen:
            raise Fail("%s: runs[%d].file names %s, as runs[%d] does; each run has a file of its own" % (path, i, r["file"], seen[r["file"]]))
        seen[r["file"]] = i
    return m
