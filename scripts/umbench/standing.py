"""Skips that stand for later pairs: a run's exit 77 whose reason holds for
every later pair of its configuration that it covers (no GPU, a library
that is not CUDA-aware, no window over a kind of memory), so that umb-run
keeps those as skipped without starting them (docs/output.md)."""
import functools

from . import programs


def needs_gpu(prog, pair):
    """"" where a buffer pair (or placement) holds a kind that needs a GPU (all but H), else None."""
    return "" if any(kind != "H" for kind in pair.split()) else None


def needs_aware(prog, pair):
    """"" where a buffer pair holds D, which only a CUDA-aware MPI takes, else None."""
    return "" if "D" in pair.split() else None


@functools.lru_cache(maxsize=None)
def one_sided():
    """The registry's one-sided programs, read once: window_kind is asked twice for every run."""
    return frozenset(programs.of_family("rma"))


def window_kind(prog, pair):
    """The kind of rank 1's window (the pair's second) where PROG is one-sided, else None."""
    kinds = pair.split()
    return kinds[1] if len(kinds) == 2 and prog in one_sided() else None


# Skips (exit 77) that stand for every later pair of the same configuration
# that they cover, kept as skipped without starting: (what a pair is
# covered by: a function of program and pair giving a key, None where it is
# not covered; the programs' words for it; what umb-run says, %(config)s
# and %(key)s). The skip stands for the later pairs of the same key.
# - No GPU for the ranks ("need a CUDA GPU", as umb-suite reads it).
# - A library that is not CUDA-aware ("buffer D needs a CUDA-aware MPI, but
#   LIBRARY is not"): the library is the same, so is its verdict. A
#   program's refusal of D for its own CPU part (a reduction) names only
#   that program, and stands for nothing else.
# - A library that makes no window over a kind of memory ("this MPI cannot
#   make a window", rma.c): the one-sided programs make the same window over
#   rank 1's buffer with the same options, so its verdict stands for every
#   one-sided pair whose window is of that kind (Open MPI's ob1 makes none
#   over managed memory: the full set's 18 one-sided pairs with an MH or MD
#   window then start 2 runs, not 18).
STANDING = (
    (needs_gpu, "need a CUDA GPU",
     "no GPU for the ranks%(config)s: every later pair that needs one is skipped without starting it"),
    (needs_aware, "buffer D needs a CUDA-aware MPI, but ",
     "the MPI library%(config)s is not CUDA-aware: every later pair with D is skipped without starting it"),
    (window_kind, "this MPI cannot make a window",
     "the MPI library%(config)s makes no window over %(key)s memory: every later one-sided pair whose window is %(key)s "
     "is skipped without starting it"),
)


def standing_skip(standing, item, cfg):
    """Why this pair is skipped unstarted, from an earlier run of its configuration; None to run it."""
    for i, (covers, _, _) in enumerate(STANDING):
        key = covers(item[0], item[1])
        if key is not None and (cfg["name"], i, key) in standing:
            return standing[cfg["name"], i, key]
    return None


def note_standing(standing, item, cfg, rec):
    """A run's skip that stands for its configuration (STANDING), kept; what to say of it, once, else None."""
    why = rec.get("skipped") or ""
    for i, (covers, words, say) in enumerate(STANDING):
        key = covers(item[0], item[1])
        if rec["status"] == 77 and key is not None and words in why and (cfg["name"], i, key) not in standing:
            standing[cfg["name"], i, key] = why
            return "umb-run: " + say % {"config": "" if cfg["name"] == "default" else " of configuration " + cfg["name"],
                                        "key": key}
    return None
