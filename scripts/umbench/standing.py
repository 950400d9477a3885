"""Skips that stand for later pairs: a run's exit 77 whose reason holds for
every later pair of its configuration that it covers (no GPU, a library
that is not CUDA-aware, no window over a kind of memory), so that umb-run
keeps those as skipped without starting them (docs/output.md)."""
from . import programs


def covers(prog, pair):
    """What a pair is covered by under each of STANDING's rules, in its
    order, None where one does not cover it: a kind that needs a GPU (all
    but H); D; the kind of rank 1's window (the pair's second) where PROG
    is one-sided."""
    kinds = pair.split()
    return ("" if set(kinds) - {"H"} else None, "" if "D" in kinds else None,
            kinds[1] if len(kinds) == 2 and prog in programs.of_family("rma") else None)


# Skips (exit 77) that stand for every later pair of the same configuration
# that they cover (covers()), kept as skipped without starting: (the
# programs' words for it; what umb-run says, %(config)s and %(key)s). The
# skip stands for the later pairs of the same key.
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
    ("need a CUDA GPU",
     "no GPU for the ranks%(config)s: every later pair that needs one is skipped without starting it"),
    ("buffer D needs a CUDA-aware MPI, but ",
     "the MPI library%(config)s is not CUDA-aware: every later pair with D is skipped without starting it"),
    ("this MPI cannot make a window",
     "the MPI library%(config)s makes no window over %(key)s memory: every later one-sided pair whose window is %(key)s "
     "is skipped without starting it"),
)


def standing_skip(standing, item, cfg):
    """Why this pair is skipped unstarted, from an earlier run of its configuration; None to run it."""
    return next((standing[cfg["name"], i, key] for i, key in enumerate(covers(item[0], item[1]))
                 if (cfg["name"], i, key) in standing), None)


def note_standing(standing, item, cfg, rec):
    """A run's skip that stands for its configuration (STANDING), kept; what to say of it, once, else None."""
    why = rec.get("skipped") or ""
    for i, ((words, say), key) in enumerate(zip(STANDING, covers(item[0], item[1]))):
        if rec["status"] == 77 and key is not None and words in why and (cfg["name"], i, key) not in standing:
            standing[cfg["name"], i, key] = why
            return "umb-run: " + say % {"config": "" if cfg["name"] == "default" else " of configuration " + cfg["name"],
                                        "key": key}
    return None
