"""Reading a results folder's run.json, and what it must hold for its
readers and for umb-run --append: each field a reader uses, with its type
and range. A field of another type stops every reader with one line naming
the file and the field, before anything is read or written (docs/output.md,
"Results folders"). Only regular files are read (read_bytes)."""
import errno
import json
import math
import os
import stat

from .cli import Fail, clip

MANIFEST = "run.json"
# A results file or run.json larger than this is not umbench's (a link to a
# disk image, say): refused rather than read into memory.
MOST_BYTES = 256 << 20


def read_bytes(path):
    """A regular file's bytes. Anything else (a FIFO, a device, a link to
    one) is refused before a read that could block or never end, as is a
    file over MOST_BYTES: OSError, its strerror saying why."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        if st.st_size > MOST_BYTES:
            raise OSError(errno.EFBIG, "larger than %d MiB: not umbench's" % (MOST_BYTES >> 20), path)
        return f.read(MOST_BYTES + 1)


# A round number goes into file names (NAME.rROUND.jsonl): bounded.
MOST_ROUNDS = 10 ** 6


def _text(v):
    return isinstance(v, str)


def _whole(lo, hi):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _texts(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _text_map(v):
    return isinstance(v, dict) and all(isinstance(x, str) for x in v.values())


def _dicts(v):
    return isinstance(v, list) and all(isinstance(x, dict) for x in v)


def _file(v):
    return isinstance(v, str) and v not in ("", ".", "..") and "/" not in v


ROUND = (_whole(1, MOST_ROUNDS), "a whole number from 1 to %d" % MOST_ROUNDS)
TEXT = (_text, "a string")
FINDING = {"finding": (True,) + TEXT, "program": (False,) + TEXT, "buffers": (False,) + TEXT, "config": (False,) + TEXT,
           "confirmed": (False, lambda v: isinstance(v, bool), "true or false")}
RUN = {"file": (True, _file, "a file name in the folder"), "program": (True,) + TEXT, "buffers": (True,) + TEXT,
       "status": (True, _whole(-255, 255), "an exit status"), "round": (False,) + ROUND, "config": (False,) + TEXT,
       "complete": (False, lambda v: isinstance(v, bool), "true or false"), "findings": (False, FINDING),
       "elapsed_s": (False, _number, "a number of seconds")}
CONFIG = {"name": (True,) + TEXT, "env": (False, _text_map, "an object of strings"),
          "launcher_flags": (False, _texts, "a list of strings"), "mpi_library": (False, lambda v: v is None or _text(v), "a string"),
          "build": (False, lambda v: isinstance(v, dict) and _text(v.get("dir")), "an object with a \"dir\"")}
TOP = {"runs": (False, RUN), "configs": (False, CONFIG), "findings": (False, FINDING),
       "rounds_done": (False, _whole(0, MOST_ROUNDS), "a whole number from 0 to %d" % MOST_ROUNDS),
       "rounds": (False, _whole(0, MOST_ROUNDS), "a whole number from 0 to %d" % MOST_ROUNDS),
       "np": (False, _whole(1, 10 ** 7), "a whole number of ranks"),
       "state": (False,) + TEXT, "mpi_library": (False, lambda v: v is None or _text(v), "a string or null"),
       "cuda_aware": (False, lambda v: v is None or isinstance(v, dict), "an object or null"),
       "sessions": (False, _dicts, "a list of objects"), "dropped": (False, _dicts, "a list of objects"),
       "nodes": (False, lambda v: isinstance(v, list), "a list"), "gpus": (False, _dicts, "a list of objects"),
       "env": (False, _text_map, "an object of strings")}


def problem(m):
    """None for a manifest its readers can use, else what is wrong: the
    field (e.g. runs[2].round), what it must be, and what it is."""
    if not isinstance(m, dict):
        return "expected a JSON object, found %s" % type(m).__name__
    return _fields(m, TOP, "")


def _fields(obj, fields, where):
    for key, spec in fields.items():
        required, rule = spec[0], spec[1]
        if key not in obj:
            if required:
                return "%s%s is missing" % (where, key)
            continue
        v = obj[key]
        if isinstance(rule, dict):  # a list of objects with these fields
            if not isinstance(v, list):
                return "%s%s must be a list of objects, found %s" % (where, key, _shown(v))
            for i, x in enumerate(v):
                why = _fields(x, rule, "%s%s[%d]." % (where, key, i)) if isinstance(x, dict) else \
                    "%s%s[%d] must be an object, found %s" % (where, key, i, _shown(x))
                if why:
                    return why
        elif not rule(v):
            return "%s%s must be %s, found %s" % (where, key, spec[2], _shown(v))
    return None


def _shown(v):
    text = json.dumps(v)
    return clip(text, 40)  # at a word boundary: a value cut mid-word reads as another value


def read_manifest(folder, required=False):
    """The folder's run.json as a dict, None where there is none; a file
    that is not a manifest stops the command with one line."""
    path = os.path.join(folder, MANIFEST)
    try:
        m = json.loads(read_bytes(path).decode("utf-8"))
    except FileNotFoundError:
        if required:
            raise Fail("%s: no %s (not a results folder of umb-run)" % (folder, MANIFEST))
        return None
    except OSError as e:
        raise Fail("%s: cannot read it (%s)" % (path, e.strerror or e))
    except (ValueError, RecursionError) as e:
        raise Fail("%s: not JSON (%s)" % (path, e))
    why = problem(m)
    if why:
        raise Fail("%s: not a manifest of umb-run: %s" % (path, why))
    return m
