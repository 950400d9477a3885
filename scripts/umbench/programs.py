"""The registry of programs, programs.txt (docs/decisions.md, "The
registry of programs"): beside this package once installed, at the top of
the source tree before."""
import functools
import os

from .fail import Fail

HERE = os.path.dirname(os.path.abspath(__file__))
PLACES = (os.path.join(HERE, "programs.txt"), os.path.join(HERE, "..", "..", "programs.txt"))
FIELDS = ("name", "family", "dir", "ranks", "needs", "sources")
# The families whose programs take SRC DST buffer kinds, and so several
# pairs in one launch (SRC DST [SRC DST ...]; umb-run's pairs.py).
PAIR_FAMILIES = ("pt2pt", "rma")


@functools.lru_cache(maxsize=None)
def load():
    """[{name, family, dir, ranks, needs, sources}] in the registry's order,
    read once: umb-run asks it of every run, several times."""
    path = next((p for p in PLACES if os.path.isfile(p)), None)
    if not path:
        raise Fail("programs.txt, the registry of programs, is neither beside the package nor in the source tree (%s)" % HERE)
    with open(path, encoding="utf-8") as f:
        rows = [line.split() for line in f if line.strip() and not line.lstrip().startswith("#")]
    bad = next((r for r in rows if len(r) != len(FIELDS)), None)
    if bad:
        raise Fail("%s: a line without the %d columns %s: %s" % (path, len(FIELDS), " ".join(FIELDS), " ".join(bad)))
    return [dict(zip(FIELDS, r)) for r in rows]


def ranks(name, np):
    """The ranks a run of NAME takes when the run asks for np: its registry
    count ("2" exactly, "even" the largest even count up to np, at least 2,
    "any" np), so that a layout of one rank per GPU (np = every GPU) still
    starts the two-rank programs right."""
    want = next((p["ranks"] for p in load() if p["name"] == name), "any")
    if want.isdigit():
        return int(want)
    return max(2, np - np % 2) if want == "even" else np


def takes_pairs(name):
    """Whether the program NAME takes several buffer pairs in one launch:
    the registry's family says it (tests/scripts/registry.sh holds the
    built programs to it)."""
    return any(p["name"] == name and p["family"] in PAIR_FAMILIES for p in load())


def of_family(family):
    return [p["name"] for p in load() if p["family"] == family]
