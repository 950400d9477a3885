"""The commands as pip installs them (pyproject.toml's [project.scripts]):
the same bodies as scripts/umb-*. A pip-installed command lies in the
Python's bin folder, not beside the programs: umb-run finds those with
--bindir, beside it, or on PATH (launch.find_program); umb-tune runs the
umb-run beside it."""
import os
import signal
import sys


def _here():
    """The folder of the command that runs (the umb-run umb-tune starts)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # quiet until cli.main takes it over
    return os.path.dirname(os.path.abspath(sys.argv[0]))


def run():
    here = _here()
    from umbench import run as body
    body.main(here)


def tune():
    here = _here()
    from umbench import tune as body
    body.main(here)


def compare():
    _here()
    from umbench import compare as body
    body.main()


def findings():
    _here()
    from umbench import findings as body
    body.main()


def plot():
    _here()
    from umbench import plot as body
    body.main()
