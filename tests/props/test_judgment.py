"""The judgments' floors are symmetric (issue 70): how far a ratio lies
from 1 does not depend on which side ran faster, and umb-compare's A/A
floor holds whichever way the twin strayed. An A/A twin 5% faster and a
side 3% slower is "the same within the noise", and the mirror case; a
side further out than the twin is not. Pure functions: no command runs."""
import types
import unittest

from hypothesis import given
from hypothesis import strategies as st

from common import counted
from umbench import stats

RATIOS = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False, allow_infinity=False)
ROUNDS = 9  # enough for a 95% interval of the median (stats.rounds_needed)
# Each round's small jitter, the same for every side: a ratio's interval
# stays tight around the factor between two sides.
JITTER = [1.0, 1.001, 0.999, 1.002, 0.998, 1.0005, 0.9995, 1.0015, 0.9985]


def side(factor, settings):
    rows = {64: {r: 10.0 * factor * JITTER[r] for r in range(ROUNDS)}}
    return types.SimpleNamespace(settings=settings, runs={("umb_latency", "H H"): {"metric": "avg_latency_us", "rows": rows}})


def verdicts(twin, other):
    """umb-compare's verdicts of an A/A twin (`twin` times the base's
    latency) and another side (`other` times it): {side: verdict}."""
    sides = [side(1.0, {"cfg": "a"}), side(twin, {"cfg": "a"}), side(other, {"cfg": "b"})]
    rows = stats.comparisons(sides, [("umb_latency", "H H")])
    return {r["side"]: r["verdict"] for r in rows}


class Judgment(unittest.TestCase):
    @given(RATIOS)
    def test_stray_both_ways(self, r):
        counted("stray(r) == stray(1/r)")
        self.assertAlmostEqual(stats.stray(r), stats.stray(1 / r), delta=1e-9 * max(r, 1 / r))
        self.assertGreaterEqual(stats.stray(r), 0)

    @given(st.floats(min_value=0.01, max_value=0.5), st.booleans())
    def test_compare_mirrors(self, change, bigger):
        """A ratio r and its mirror 1/r get mirrored verdicts."""
        counted("compare(r) mirrors compare(1/r)")
        r = 1 + change if bigger else 1 / (1 + change)
        base = {i: 10.0 for i in range(ROUNDS)}
        up = stats.compare(base, {i: 10.0 * r * JITTER[i] for i in range(ROUNDS)}, False)
        down = stats.compare(base, {i: 10.0 / r * JITTER[i] for i in range(ROUNDS)}, False)
        mirror = {"faster": "slower", "slower": "faster"}
        self.assertEqual(mirror.get(up["verdict"], up["verdict"]), down["verdict"])

    def test_twin_faster_side_slower(self):
        counted("A/A twin faster, side slower")
        # Latency: the twin 5% faster (ratio 1/1.05), a side 3% slower.
        self.assertEqual(verdicts(1 / 1.05, 1.03)[2], "same within the noise")
        self.assertEqual(verdicts(1.05, 1 / 1.03)[2], "same within the noise")  # the mirror
        self.assertEqual(verdicts(1 / 1.05, 1 / 1.03)[2], "same within the noise")
        self.assertEqual(verdicts(1.05, 1.03)[2], "same within the noise")

    @given(st.floats(min_value=0.01, max_value=0.2), st.floats(min_value=0.0, max_value=0.9), st.booleans(), st.booleans())
    def test_aa_floor_either_way(self, aa, share, twin_faster, side_faster):
        """A side within the twin's stray is the same, whichever way either went;
        one beyond it (by a margin over the jitter) is not."""
        counted("A/A floor either way")
        twin = 1 / (1 + aa) if twin_faster else 1 + aa
        inside = 1 + aa * share
        self.assertEqual(verdicts(twin, 1 / inside if side_faster else inside)[2], "same within the noise")
        outside = (1 + aa) * 1.05
        want = "faster" if side_faster else "slower"
        self.assertEqual(verdicts(twin, 1 / outside if side_faster else outside)[2], want)


if __name__ == "__main__":
    unittest.main()
