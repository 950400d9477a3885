"""Every --match pattern ends (issue 66, class 7): the one matcher of every
command (pattern.regex, scripts/umbench/pattern.py) over patterns with
quantifiers inside quantifiers, the kind a backtracking matcher takes
exponential time over, against names that make it try every split; and
where re ends (short names), it finds what re finds."""
import re
import signal
import time
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

from common import counted, scale  # first: the path to the scripts, the profile
from umbench import cli
from umbench import pattern as matching

# --match patterns with quantifiers inside quantifiers ('(.?.?.?)*zz'), the
# kind a backtracking matcher takes exponential time over, and names that
# make it try every split: long runs of the letters the pattern reads.
ATOMS = [".", "a", "D", " ", "[a-z]", r"\w", ".?", "a?", "D?", r"\s", "[^z]"]
NESTED = st.recursive(st.sampled_from(ATOMS), lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["*", "+", "?", "{0,3}", "{2,}", "*?", "{1,40}"])).map(lambda t: "(%s)%s" % t),
    st.lists(inner, min_size=2, max_size=4).map("".join),
    st.lists(inner, min_size=2, max_size=3).map(lambda alts: "(%s)" % "|".join(alts))), max_leaves=10)
# Always a quantifier inside a quantifier over what the names hold: ((.?.?)*)*
CORE = st.tuples(st.lists(st.sampled_from([".?", "a?", "D?", r"\w?", "[a-zA-Z_ ]?", "(a|D|.)", ".*"]), min_size=1, max_size=4),
                 st.sampled_from(["*", "+", "{0,40}", "*?"]), st.sampled_from(["", "*", "+", "{2,}"])).map(
                     lambda t: "((%s)%s)%s" % ("".join(t[0]), t[1], t[2]))
MATCH = st.tuples(st.one_of(st.just(""), NESTED), CORE, st.sampled_from(["zz", "z", "!", "z$"])).map("".join)
NAMES = st.one_of(st.sampled_from(["umb_latency MD MD", "umb_bw H H", "umb_bcast D D", ""]),
                  st.tuples(st.sampled_from(["a", "D", "aD", "a ", " "]), st.integers(1, 30)).map(lambda t: t[0] * t[1]),
                  st.text(alphabet="aDz _umb", max_size=40))


def _late(signum, frame):
    raise TimeoutError


def match_within(pattern, names, seconds=1.0):
    """matching.regex(pattern), then its search of each name, under a clock:
    True/False per name, or the refusal's line (Fail); TimeoutError past it."""
    old = signal.signal(signal.SIGALRM, _late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        want = matching.regex(pattern)
        return [bool(want.search(n)) for n in names]
    except cli.Fail as e:
        return str(e)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


class Match(unittest.TestCase):
    """Every --match pattern ends (issue 66, class 7): the one matcher of
    every command (pattern.regex) takes at most about a second on any pattern and
    name here, and finds what Python's re finds where re ends."""

    @settings(max_examples=scale(40))
    @given(MATCH, st.lists(NAMES, max_size=3), st.text(alphabet="aD _umb", min_size=24, max_size=40))
    def test_match_ends(self, pattern, names, long_name):
        names = names + [long_name]
        counted("match_ends")
        t0 = time.time()
        try:
            got = match_within(pattern, names)
        except TimeoutError:
            self.fail("--match %r on %r: no answer within 1 s" % (pattern, names))
        if isinstance(got, str):  # a refusal says why: the nesting, not a "not a regular expression"
            self.assertRegex(got, r"^--match .*: nested more than \d+ deep; it takes ", got)
        self.assertLess(time.time() - t0, 1.5)

    @settings(max_examples=scale(40))
    @given(st.tuples(NESTED, st.sampled_from(["", "z", "$", "D$", "^"])).map("".join),
           st.lists(st.text(alphabet="aDz _", max_size=5), min_size=1, max_size=4))
    def test_match_agrees(self, pattern, names):
        """Short names, where re's backtracking ends: the same answers."""
        counted("match_agrees")
        got = match_within(pattern, names, 5.0)
        if not isinstance(got, str):
            self.assertEqual(got, [bool(re.search(pattern, n)) for n in names], pattern)

    def test_match_refusals(self):
        """What needs backtracking is refused, saying so; the documented examples are taken."""
        for pattern in [r"(a)\1", "(?=a)", "(?<!a)b", "(?i)umb", "(?>a)", "a*+", "(a)?(?(1)a|b)"]:
            got = match_within(pattern, ["a"])
            self.assertIsInstance(got, str, pattern)
            self.assertRegex(got, "not taken", got)
        for pattern, name in [("umb_latency (D D|MD MD)", "umb_latency MD MD"), ("^umb_bw H H$", "umb_bw H H"),
                              ("^umb_bw (MH MH|MD MD)$", "umb_bw MD MD"), (" H H$", "umb_bw H H"),
                              ("^umb_(latency|bw) MD MD$", "umb_latency MD MD")]:
            self.assertEqual(match_within(pattern, [name, "umb_bcast H D"]), [True, False], pattern)


if __name__ == "__main__":
    unittest.main()
