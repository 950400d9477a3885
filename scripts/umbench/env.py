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


def _raw(name):
    return os.environ.get(name, "")


def _words(name):
    text = _raw(name)
    try:
        return shlex.split(text)
    except ValueError as e:
        raise Fail("%s %r: cannot split it into words (%s); expected a command and its options, quoted as in the shell"
                   % (name, text, e))


@functools.lru_cache(maxsize=None)
def mpiexec():
    """MPIEXEC: the launcher command with its options, as words; [] when unset or blank."""
    return _words("MPIEXEC")


@functools.lru_cache(maxsize=None)
def mpiexec_flags():
    """MPIEXEC_FLAGS: launcher options as words; [] when unset."""
    return _words("MPIEXEC_FLAGS")


@functools.lru_cache(maxsize=None)
def np_flag_none():
    """MPIEXEC_NP_FLAG: 'none' (add no rank count to MPIEXEC) or unset/empty."""
    v = _raw("MPIEXEC_NP_FLAG")
    if v not in ("", "none"):
        raise Fail("MPIEXEC_NP_FLAG %r: expected none (add no rank count), or leave it unset" % v)
    return v == "none"


JOB_ID = re.compile(r"[0-9]+")  # whole (fullmatch): "$" also matched before a final newline


def _job(name):
    v = _raw(name)
    if v and not JOB_ID.fullmatch(v):
        raise Fail("%s %r: expected a job number (digits), or leave it unset" % (name, v))
    return v or None


@functools.lru_cache(maxsize=None)
def slurm_job():
    """SLURM_JOB_ID: the Slurm job's number, None outside a job."""
    return _job("SLURM_JOB_ID")


@functools.lru_cache(maxsize=None)
def lsf_job():
    """LSB_JOBID: the LSF job's number, None outside a job."""
    return _job("LSB_JOBID")


@functools.lru_cache(maxsize=None)
def debug():
    """UMB_DEBUG: 1 shows a bug's traceback; 0 or unset does not."""
    v = _raw("UMB_DEBUG")
    if v not in ("", "0", "1"):
        raise Fail("UMB_DEBUG %r: expected 1 (show a bug's traceback) or 0" % v)
    return v == "1"


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
