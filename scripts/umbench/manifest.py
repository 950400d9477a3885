"""Reading a results folder's run.json: checked against its schema
(schemas/run.schema.json, through schema.py), so that a field of another
type or out of range stops every reader with one line naming the file and
the field, before anything is read or written (docs/output.md, "Results
folders"). Only regular files are read (schema.read_bytes)."""
import os

from . import schema
from .fail import Fail
from .schema import MANIFEST


def problem(m):
    """None for a manifest its readers can use, else what is wrong: the
    field (e.g. runs[2].round), what it must be, and what it is."""
    return schema.problem(m, "run")


def read_manifest(folder, required=False):
    """The folder's run.json as a dict, None where there is none; a file
    that is not a manifest stops the command with one line."""
    path = os.path.join(folder, MANIFEST)
    try:
        m = schema.load(path, "run", what="a manifest of umb-run")
    except schema.Missing:
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
