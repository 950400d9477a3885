"""What every command shares: a failure is one line naming the thing and
exit 1 (130 on an interrupt), never a traceback (docs/output.md, "Exit
statuses of the scripts")."""
import argparse
import contextlib
import errno
import importlib.util
import math
import os
import re
import shutil
import signal
import subprocess
import sys

from . import env
from .shown import escaped, shown, shown_streams
from .fail import Fail


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit 1 (Fail), and
    that refuses a blank value of any option or operand (no_blanks)."""

    def __init__(self, prog, doc):
        # allow_abbrev=False: "--ou X" was taken for --out, where the help says
        # that anything not one of the options is refused.
        head, _, rest = doc.partition("\n\n")
        super().__init__(prog=prog, description=head, allow_abbrev=False,
                         formatter_class=argparse.RawDescriptionHelpFormatter, epilog=rest or None)

    def error(self, message):
        raise Fail(_dashed(self, message) or message)

    def parse_known_args(self, args=None, namespace=None):  # parse_args calls it too
        a, rest = super().parse_known_args(args, namespace)
        return no_blanks(self, a), rest

    def parse_intermixed_args(self, args=None, namespace=None):
        # argparse's intermixed parsing sets usage to the formatted usage and
        # formats it again: a '%' in it ("P%") was read as a format.
        if self.usage is None:
            self.usage = self.format_usage()[len("usage: "):].rstrip("\n").replace("%", "%%")
        # After "--" every word is a folder, and intermixed parsing lost them.
        if "--" in (sys.argv[1:] if args is None else args):
            return self.parse_args(args, namespace)
        return super().parse_intermixed_args(args, namespace)


def _dashed(ap, message):
    """argparse's line where a word starts with '-', said with the word and
    the way to give it: a value (--precision -0%) was taken for an option
    ("expected one argument"), so that the option's own check can judge it;
    an operand (a folder named -dash) too ("arguments are required",
    "unrecognized"). None for any other line."""
    args, m = sys.argv[1:], re.match(r"argument (\S+): expected one argument$", message)
    for name in m.group(1).split("/") if m else []:
        if name in args and args.index(name) + 1 < len(args) and args[args.index(name) + 1].startswith("-"):
            value = shown(args[args.index(name) + 1])
            return ("%s %s: a value that starts with '-' reads as an option; give it as %s=%s"
                    % (name, value, name, value))
    if not message.startswith(("the following arguments are required", "unrecognized arguments")):
        return None
    known = {o for action in ap._actions for o in action.option_strings}
    for arg in args[:args.index("--")] if "--" in args else args:
        if arg.startswith("-") and arg != "-" and arg.split("=", 1)[0] not in known:
            return "%s: not an option of %s; a name that starts with '-' is given as ./%s" % (shown(arg), ap.prog, arg)
    return None


# What a value names, by its metavar, else by its option's name: the words
# of the line that refuses an empty one.
EXPECTED = {"PNG": "a file name ending in .png, .pdf or .svg", "DIR": "a folder", "FILE": "a file",
            "REGEX": "a regular expression", "P%": "a percentage with its % sign, e.g. 5%", "N": "a whole number",
            "SECONDS": "a number of seconds above 0", "folders": "a results folder", "folder": "a results folder",
            "out": "a folder", "bindir": "a folder, or folders separated by ':'", "np": "a whole number",
            "only": "catalogue names separated by commas", "precision": "a percentage with its % sign",
            "budget": "a number of seconds above 0", "run_limit": "a number of seconds above 0", "rounds": "a whole number",
            "config": "NAME[:ENV=VALUE,...][:LAUNCHER FLAGS]", "build": "NAME=DIR[:LAUNCHER FLAGS]"}


def no_blanks(ap, a):
    """Every value given on the command line, option or operand, is refused
    when it is empty or blanks only: `--plot ''` (an unset shell variable)
    drew nothing, `umb-plot A --out ''` wrote into A, `--bindir ''` was
    dropped. One rule in the parser, so that no option of any command can
    take a blank for "not given" (docs/decisions.md, "Empty values")."""
    for action in ap._actions:
        values = getattr(a, action.dest, None)
        for v in values if isinstance(values, list) else [values]:
            if not (isinstance(v, str) and not v.strip()):
                continue
            what = EXPECTED.get(action.metavar) or EXPECTED.get(action.dest, "a value")
            option = action.option_strings[-1:]
            if option:
                raise Fail("%s %s: empty; expected %s, or give no %s" % (option[0], shown(v), what, option[0]))
            raise Fail("%s: an empty name; expected %s" % (shown(v), what))
    return a


# Plain decimals only, in ASCII digits, matched whole (fullmatch: "$" also
# matched before a final newline, and '5%\n' was an internal error):
# Python's float and int also took '1_0' (10), ' 5 ', '+3', 'infinity' and
# digits of other scripts.
PERCENT = re.compile(r"(\d+(\.\d*)?|\.\d+)%", re.ASCII)
NUMBER = re.compile(r"(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?", re.ASCII)
WHOLE = re.compile(r"[0-9]+")
# The most seconds any option takes: the programs' own (--timeout,
# --launch-budget: options_parse.c's SECONDS_MAX), about 11 days. A --budget
# or --run-limit past it was taken (1e300) where neither a program nor
# tune.json's schema can hold it.
SECONDS_MAX = 1e6


def percent(text, option, low=0.0, high=10.0, low_open=False):
    """'5%' -> 0.05, within [low, high) (or (low, high)), with its % sign: a
    bare 5 was read as 500% and a bare 0.5 as 50%, where the programs read
    --precision 0.5 as 0.5%."""
    v = float(text[:-1]) / 100 if PERCENT.fullmatch(text) else math.nan
    if not (math.isfinite(v) and (v > low if low_open else v >= low) and v < high):
        # "in plain digits": 1e-9% is within the bounds, refused for its form.
        raise Fail("%s %s: expected a percentage with its %% sign, %s %g%% and below %g%%, in plain digits, e.g. 5%%"
                   % (option, text, "above" if low_open else "at least", 100 * low, 100 * high))
    return v


def seconds(text, option, low=0.0, high=SECONDS_MAX, low_open=True, also=""):
    """A number of seconds within (low, high] (or [low, high]); the refusal
    states the range, in the programs' words."""
    v = float(text) if isinstance(text, str) and NUMBER.fullmatch(text) else math.nan
    if not (math.isfinite(v) and (v > low if low_open else v >= low) and v <= high):
        raise Fail("%s %s: expected seconds %s %g %s %d%s" % (option, text, "above" if low_open else "from", low,
                                                           "and at most" if low_open else "to", high, also))
    return v


def count(text, option, low=1, high=None):
    """A whole number from low (to high, where given: a bound of the file
    it goes into, so that what is accepted here is what its readers read)."""
    v = int(text) if isinstance(text, str) and WHOLE.fullmatch(text) else low - 1
    if v < low or high is not None and v > high:
        raise Fail("%s %s: expected a whole number %s" % (option, text, "of at least %d" % low if high is None else
                                                           "from %d to %d" % (low, high)))
    return v


SYSTEM_PYTHON = "/usr/bin/python3"


def need_module(module):
    """Returns when MODULE imports. python3 on PATH may be a pyenv, conda or
    venv one that does not see the distribution's packages: then the
    system's Python runs the command again, before any output, where it
    imports MODULE; else one line naming the package and what a user
    without root runs: python3 where it is the first on PATH, else its
    file; no --user in a venv, where pip refuses it. A venv's python3 is a
    link to the system's with packages of its own: only the system's own
    Python, outside a venv, is not asked again (issue 67)."""
    if importlib.util.find_spec(module):
        return
    system_itself = (os.path.realpath(sys.executable or "") == os.path.realpath(SYSTEM_PYTHON)
                     and sys.prefix == sys.base_prefix)
    if (os.path.exists(SYSTEM_PYTHON) and not system_itself and sys.argv and sys.argv[0]
            and subprocess.call([SYSTEM_PYTHON, "-c", "import " + module], stderr=subprocess.DEVNULL) == 0):
        sys.stdout.flush()
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(sys.argv[0])] + sys.argv[1:])
    exe, first = sys.executable or "python3", shutil.which("python3")
    name = "python3" if first and os.path.abspath(first) == os.path.abspath(exe) else exe
    raise Fail("needs Python's %s (%s -m pip install %s%s, or Debian/Ubuntu's python3-%s)"
               % (module, name, "" if sys.prefix != sys.base_prefix else "--user ", module, module))


def main(prog, body):
    """Runs a command's body: its status, or one line and 1 on a failure,
    128 + N on signal N; what it printed is flushed here, so that a full
    disk is a failure too. UMB_DEBUG=1 shows the traceback of a bug. Every
    command reads or writes files checked by their schemas: jsonschema first."""
    status, debug = 0, False
    # A name the terminal's encoding cannot show (a folder called 結果 under
    # LANG=C) is written with backslash escapes, not a UnicodeEncodeError;
    # and every line goes through the one rule (shown.py).
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")
    shown_streams()
    interrupts(_interrupted)  # until the body installs its own handler
    try:
        need_module("jsonschema")
        debug = env.debug()  # read before the body: a malformed value is refused, not met in a bug
        if sys.stdout is None:
            raise Fail("standard output is closed: nowhere to write")
        status = body() or 0
        sys.stdout.flush()
    except Fail as e:
        status = _say(prog, str(e), 1)
    except KeyboardInterrupt as e:
        signum = e.args[0] if e.args else signal.SIGINT  # Python's own on SIGINT has none
        status = _say(prog, "interrupted" if signum == signal.SIGINT else "stopped by %s" % signal.Signals(signum).name,
                      128 + signum)
    except BrokenPipeError:
        status = 1  # the reader went away: nothing to tell it
    except OSError as e:
        # Without a file name, a write that failed is one to standard output.
        where = e.filename or ("standard output" if e.errno in (errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG) else None)
        status = _say(prog, "%s%s" % (where + ": " if where else "", e.strerror or e), 1)
    except Exception as e:  # a bug: still one line, the traceback on request
        if debug:
            raise
        status = _say(prog, "internal error: %s: %s (UMB_DEBUG=1 shows where)" % (type(e).__name__, e), 1)
    # After a failed write, Python would print its own error at exit
    # (AttributeError: no sys.stdout).
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stdout.flush()
    with contextlib.suppress(AttributeError, OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(status)


def _interrupted(signum):
    raise KeyboardInterrupt(signum)


def _say(prog, text, status):
    with contextlib.suppress(OSError):
        sys.stderr.write("%s: %s\n" % (prog, escaped(text)))  # the message is one line: its own newlines too
        sys.stderr.flush()
    return status


# Every signal whose default would end the command at once: each stops it
# its own way (the run's processes ended, the folder consistent). SIGQUIT,
# SIGUSR1/2 and SIGALRM used to end umb-run and leave its run's ranks.
STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM)


def interrupts(handler):
    """Every signal of STOPS calls handler(signum)."""
    for s in STOPS:
        signal.signal(s, lambda signum, frame: handler(signum))
