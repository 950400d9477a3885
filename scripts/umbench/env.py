"""The one reader of the environment: every variable the scripts act on has
one typed accessor here, read once and checked, so that a malformed value
is one line naming the variable (fail.Fail), never a traceback nor a guess
(docs/decisions.md, "The environment the scripts read"). A command's words
are split with shlex and handed to subprocess as a list: no value from the
environment reaches a shell."""
import functools
import os
import re
import shlex

from .fail import Fail

# The variables umb-run copies into run.json's "env" (what a reader needs
# to know of a run's library and batch job), by prefix; umbench's own
# UMB_* whole, as the programs' header has them: one of them may change a
# figure (UMB_LAPS_CLOCK: the clock that splits a loop between iterations).
RECORDED = ("OMPI_MCA_", "UCX_", "HWLOC_", "MPIR_CVAR_", "MV2_", "I_MPI_", "FI_", "PSM2_", "SLURM_", "LSB_", "CUDA_VISIBLE_DEVICES",
            "LOADEDMODULES", "UMB_")


def _words(name):
    text = os.environ.get(name, "")
    try:
        return shlex.split(text)
    except ValueError as e:
        raise Fail("%s %r: cannot split it into words (%s); expected a command and its options, quoted as in the shell"
                   % (name, text, e))


def _whole(name, form, expected):
    """NAME's value, "" where unset, where FORM matches it whole (fullmatch:
    "$" also matched before a final newline), else one line."""
    v = os.environ.get(name, "")
    if not re.fullmatch(form, v):
        raise Fail("%s %r: expected %s" % (name, v, expected))
    return v


# Each accessor reads its variable once (cache_clear() reads it again).
_once = functools.lru_cache(maxsize=None)
# MPIEXEC: the launcher command with its options, as words; MPIEXEC_FLAGS:
# launcher options as words; [] when unset or blank.
mpiexec = _once(lambda: _words("MPIEXEC"))
mpiexec_flags = _once(lambda: _words("MPIEXEC_FLAGS"))
# MPIEXEC_NP_FLAG=none: add no rank count to MPIEXEC.
np_flag_none = _once(lambda: _whole("MPIEXEC_NP_FLAG", "(none)?",
                                    "none (add no rank count), or leave it unset") == "none")
# The batch job's number, None outside a job: digits only ([0-9], not \d).
slurm_job = _once(lambda: _whole("SLURM_JOB_ID", "[0-9]*", "a job number (digits), or leave it unset") or None)
lsf_job = _once(lambda: _whole("LSB_JOBID", "[0-9]*", "a job number (digits), or leave it unset") or None)
# UMB_DEBUG=1 shows a bug's traceback; 0 or unset does not.
debug = _once(lambda: _whole("UMB_DEBUG", "[01]?", "1 (show a bug's traceback) or 0") == "1")


def recorded():
    """The variables of RECORDED's prefixes, for run.json: kept as text, never run."""
    return {k: v for k, v in os.environ.items() if k.startswith(RECORDED)}


def whole():
    """The environment as a child starts with it (a copy): what the programs
    and their launcher inherit, never read by the scripts themselves."""
    return dict(os.environ)


def check():
    """Reads every variable once, so that a malformed one is refused before
    any work (and never in the middle of a run)."""
    for read in (mpiexec, mpiexec_flags, np_flag_none, slurm_job, lsf_job, debug):
        read()
