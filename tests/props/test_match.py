"""Every --match pattern ends (issue 66, class 7): the one matcher of every
command (pattern.regex, scripts/umbench/pattern.py) over patterns with
quantifiers inside quantifiers, the kind a backtracking matcher takes
exponential time over, against names that make it try every split: each name
answers within the bound or the pattern is refused saying why; where re ends,
the answer is re's."""
import re
import time
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

from common import counted, scale  # first: the path to the scripts, the profile
from umbench import cli
from umbench import pattern as matching

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
REFUSED = r"^--match .*: no answer within 1 s on the name .*: repeats inside repeats"


def answers(pattern, names):
    """True/False per name, or the refusal's line."""
    try:
        want = matching.regex(pattern)
        return [bool(want.search(n)) for n in names]
    except cli.Fail as e:
        return str(e)


class Match(unittest.TestCase):
    @settings(max_examples=scale(10), deadline=None)
    @given(MATCH, st.text(alphabet="aD _umb", min_size=24, max_size=40))
    def test_match_ends(self, pattern, long_name):
        """A name answers within the bound, or the pattern is refused saying why."""
        counted("match_ends")
        t0 = time.time()
        got = answers(pattern, [long_name])
        self.assertLess(time.time() - t0, matching.LIMIT_S + 0.5)
        if isinstance(got, str):
            self.assertRegex(got, REFUSED)

    @settings(max_examples=scale(40), deadline=None)
    @given(st.tuples(NESTED, st.sampled_from(["", "z", "$", "D$", "^"])).map("".join),
           st.lists(st.text(alphabet="aDz _", max_size=5), min_size=1, max_size=4))
    def test_match_agrees(self, pattern, names):
        """Short names, where re's backtracking ends: re's answers."""
        counted("match_agrees")
        if not pattern.strip():  # a blank --match is refused: it would find every name, silently
            self.assertRegex(answers(pattern, names), "empty; expected a regular expression")
            return
        self.assertEqual(answers(pattern, names), [bool(re.search(pattern, n)) for n in names], pattern)

    def test_match_examples(self):
        """The issue's pattern is refused with its reason; the documented examples are taken."""
        self.assertRegex(answers("(.?.?.?)*zz", ["umb_latency MD MD umb_latency"]), REFUSED)
        for pattern, name in [("umb_latency (D D|MD MD)", "umb_latency MD MD"), ("^umb_bw H H$", "umb_bw H H"),
                              ("^umb_bw (MH MH|MD MD)$", "umb_bw MD MD"), (" H H$", "umb_bw H H"),
                              ("^umb_(latency|bw) MD MD$", "umb_latency MD MD")]:
            self.assertEqual(answers(pattern, [name, "umb_bcast H D"]), [True, False], pattern)


if __name__ == "__main__":
    unittest.main()
