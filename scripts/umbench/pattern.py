"""--match's matcher: Python's own regular expressions, each search under a
bound. re backtracks: '(.?.?.?)*zz' against a 20-character name tries the
ways to split it one after another, for longer than any run would take. So a
user's pattern searches each name in a child process (fork) that may use
LIMIT_S of CPU time (RLIMIT_CPU: the kernel ends it, SIGXCPU then SIGKILL);
one that uses it up is refused, saying why: a bound on re, not a second
regex engine (docs/decisions.md, "--match"). CPU time, not the wall clock:
a loaded machine gives the child less of each second, not less work, so a
pattern's verdict does not depend on the load (pass 13, kind 14)."""
import functools
import os
import re
import resource
import signal

from .cli import STOPS
from .fail import Fail
from .shown import clip, shown

LIMIT_S = 1  # CPU seconds (RLIMIT_CPU counts whole ones): re answers a sane pattern on a name in microseconds
HELP = ("; Python's regular expressions: a pattern that takes re over %g s of CPU time on a name "
        "(repeats inside repeats) is refused" % LIMIT_S)


class Bounded:
    """A compiled pattern whose search(name) answers within LIMIT_S of CPU
    time or raises Fail; each name is searched once."""

    def __init__(self, text, option):
        self.compiled, self.text, self.option = re.compile(text), text, option
        self.search = functools.lru_cache(maxsize=None)(self._child)

    def _child(self, name):
        r, w = os.pipe()
        # The signals that stop a command are blocked from before fork() until
        # the parent is inside the try that kills the child, so that one
        # coming in between never leaves the child running (pass 13, kind 13).
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            pid = os.fork()
        except BaseException:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(r), os.close(w)
            raise
        if pid == 0:  # no handler and no clean-up of the parent's (a lock, run.json) may run here
            try:
                for s in STOPS + (signal.SIGXCPU,):
                    signal.signal(s, signal.SIG_DFL)
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU dumps core by default
                resource.setrlimit(resource.RLIMIT_CPU, (LIMIT_S, LIMIT_S + 1))
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                os.write(w, b"1" if self.compiled.search(name) else b"0")
            finally:
                os._exit(0)
        answer = b""
        try:
            os.close(w)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal that came since fork() is taken here
            answer = os.read(r, 1)  # b"" where the kernel ended the child
        finally:
            os.close(r)
            if not answer:
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        if not answer:
            raise Fail("%s %s: no answer within %g s of CPU time on the name %s: repeats inside repeats make "
                       "Python's matcher try every way to split a name; write it without them"
                       % (self.option, said(self.text), LIMIT_S, shown(name)))
        return answer == b"1"


def said(text):
    """A pattern as a line names it: by the one clipping rule (clip), so
    that a pattern of thousands of characters does not push the reason out."""
    return clip(text, 60)


def regex(text, option="--match"):
    """None (the option not given) finds every name; a blank one is refused,
    since it would too, silently (no_blanks)."""
    if text is None:
        return re.compile("")
    if not text.strip():
        raise Fail("%s %s: empty; expected a regular expression (leave %s out for every one)" % (option, shown(text), option))
    try:
        return Bounded(text, option)
    except re.error as e:
        raise Fail("%s %s: not a regular expression (%s)" % (option, said(text), e))
    except OverflowError:  # a{99999999999}
        raise Fail("%s %s: a repeat count above what Python's re takes" % (option, said(text)))
    except (RecursionError, MemoryError):  # 5000 nested groups: deeper than the compiler goes
        raise Fail("%s %s: a regular expression nested too deeply to compile" % (option, said(text)))
