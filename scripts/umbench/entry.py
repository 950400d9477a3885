"""The commands as pip installs them (pyproject.toml's [project.scripts]):
the same bodies as scripts/umb-*. A pip-installed command lies in the
Python's bin folder, not beside the programs: umb-run finds those with
--bindir, beside it, or on PATH (launch.find_program); umb-tune runs the
umb-run beside it."""
import importlib
import os
import signal
import sys


def _command(name, takes_here=False):
    """The entry point of umbench.NAME's main: given the folder of the
    command that runs (the umb-run umb-tune starts) where it takes it."""
    def main():
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # quiet until cli.main takes it over
        body = importlib.import_module("umbench." + name)
        body.main(os.path.dirname(os.path.abspath(sys.argv[0]))) if takes_here else body.main()
    return main


run, tune = _command("run", True), _command("tune", True)
compare, findings, plot = _command("compare"), _command("findings"), _command("plot")
