"""The statistics of umbench's comparisons, shared by umb-run
(when to stop repeating rounds), umb-compare (ratios, intervals, verdicts),
umb-tune and tests/tools/overhead (docs/method.md, "Comparing runs").

Intervals of a median are distribution-free: the order statistics
[x_(k), x_(n+1-k)] whose binomial coverage is at least the level, the same
rule as util/core/precision.c. With few rounds a percentile bootstrap of the
median claims more than it holds (at 7 rounds its "95%" interval covers
87.5%), and these machines give few rounds (docs/decisions.md).
"""
import itertools
import math
import statistics

LEVEL = 0.95
# The result keys a comparison reads, and whether higher is better.
METRICS = {"avg_latency_us": False, "avg_bandwidth_mbs": True}


def median_interval_rank(n, level=LEVEL):
    """The lower rank k (1-based) of the interval that covers the median of n
    samples with at least `level`; 0 when n is too small (n < 6 at 95%):
    the count of binomial tails P(X <= j), j <= n/2, within (1 - level) / 2."""
    tails = itertools.accumulate(math.comb(n, j) / 2 ** n for j in range(n // 2 + 1))  # integers: exact for any n
    return sum(tail <= (1 - level) / 2 for tail in tails)


def rounds_needed(level=LEVEL):
    """The fewest samples that have an interval at this level."""
    return next(n for n in range(1, 100) if median_interval_rank(n, level))


def median_interval(values, level=LEVEL):
    """(lo, hi) of the median, or None with too few values."""
    s = sorted(values)
    k = median_interval_rank(len(s), level)
    return (s[k - 1], s[len(s) - k]) if k else None


def reached(values, level=LEVEL):
    """The interval's half-width over the median (0.02: +-2%); inf without one."""
    iv = median_interval(values, level)
    med = statistics.median(values) if values else 0
    return (iv[1] - iv[0]) / 2 / abs(med) if iv and med else math.inf


def quartiles(values):
    q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    return q[0], q[2]


def spread(values):
    """A side's own spread between rounds: (Q3 - Q1) / median; None with one value."""
    if len(values) < 2 or not statistics.median(values):
        return None
    q1, q3 = quartiles(values)
    return (q3 - q1) / abs(statistics.median(values))


def stray(ratio):
    """How far a ratio lies from 1 either way (1.05 and 1/1.05 both 0.05)."""
    return max(ratio, 1 / ratio) - 1


def compare(base, other, higher_better, floor=0.0, level=LEVEL):
    """other against base, each {round: value}, paired by round (interleaved
    rounds share the machine's state). The verdict is "faster" or "slower"
    only where the whole interval of the median ratio lies beyond 1 by more
    than `floor` (an A/A stray, or the smallest effect worth naming)."""
    rounds = sorted(r for r in base if r in other and base[r] is not None and other[r] is not None)
    # A value of 0 (a bandwidth at size 0, a latency below the clock's tick) has no ratio.
    paired = [r for r in rounds if base[r] > 0 and other[r] > 0] or rounds
    ratios = [other[r] / base[r] for r in paired if base[r] > 0 and other[r] > 0]
    # The medians and spreads shown beside a ratio are of the rounds it paired, not of each side's own.
    out = {"n": len(ratios), "ratio": statistics.median(ratios) if ratios else None, "interval": None,
           "base": statistics.median([base[r] for r in paired]) if paired else None,
           "other": statistics.median([other[r] for r in paired]) if paired else None,
           "spread_base": spread([base[r] for r in paired]), "spread_other": spread([other[r] for r in paired])}
    if not ratios:
        return dict(out, verdict="no verdict (%s)" % (
            "a value of 0 in every round they share: no ratio" if rounds else "no round has both"))
    out["interval"] = iv = median_interval(ratios, level)
    if len(ratios) == 1:
        verdict = "no verdict (1 round: nothing to tell noise from)"
    elif not iv:
        verdict = "no verdict (%d rounds; a %d%% interval needs %d)" % (
            len(ratios), round(level * 100), rounds_needed(level))
    elif iv[0] > 1 + floor or iv[1] < 1 / (1 + floor):
        verdict = "faster" if (iv[0] > 1) == higher_better else "slower"
    else:
        verdict = "same within the noise"
    return dict(out, verdict=verdict, p=sign_p(ratios, floor))


def sign_p(ratios, floor=0.0):
    """The two-sided sign-test p-value of "the median ratio lies within
    [1/(1+floor), 1+floor]": the test that the order-statistic interval
    inverts (its interval clears the floor exactly when p <= 1 - level)."""
    n = len(ratios)
    up = sum(1 for r in ratios if r > 1 + floor)
    down = sum(1 for r in ratios if r < 1 / (1 + floor))

    def tail(k):  # P(Binomial(n, 1/2) >= k)
        return sum(math.comb(n, j) for j in range(k, n + 1)) / 2 ** n
    return min(1.0, 2 * min(tail(up), tail(down)))


def rounds_kept(share, q=1 - LEVEL):
    """The fewest rounds at which changes seen in every round, in a `share`
    of a table's comparisons (the rest unchanged), are kept over the table:
    the smallest sign-test p, 2 / 2^n, at most q x share."""
    return max(rounds_needed(), math.ceil(math.log2(2 / (q * share))))


def false_discovery(ps, q=1 - LEVEL):
    """Benjamini-Hochberg: the indices of `ps` kept as discoveries with the
    false discovery rate over all of them at most q (docs/method.md,
    "Verdicts over a whole table")."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    last = max((rank for rank, i in enumerate(order, 1) if ps[i] <= q * rank / len(ps)), default=0)
    return set(order[:last])


def change(ratio, higher_better):
    """'+12%' faster or slower in words: how much better (+) or worse (-) other is."""
    gain = ratio - 1 if higher_better else 1 / ratio - 1
    return "%+.1f%%" % (100 * gain)


def comparisons(sides, keys, min_effect=0.0):
    """Every side against side 0, per benchmark and size: a list of dicts
    (program, buffers, size, side, metric, base, other, n, ratio, interval,
    spread_base, spread_other, aa, is_aa, verdict)."""
    twin = next((i for i in range(1, len(sides)) if sides[i].settings and sides[i].settings == sides[0].settings), None)
    out = []
    for prog, bufs in keys:
        rows = [side.runs.get((prog, bufs), {"rows": {}})["rows"] for side in sides]
        for size in sorted(rows[0]):
            metric, b, aa = sides[0].runs[(prog, bufs)]["metric"], rows[0][size], None
            if twin is not None:
                c = compare(b, rows[twin].get(size, {}), METRICS[metric])
                aa = c["ratio"] if c["n"] > 1 else None
            for i in range(1, len(sides)):
                o = rows[i].get(size)
                if not o:
                    continue
                floor = max(min_effect, stray(aa) if aa and i != twin else 0)
                c = compare(b, o, METRICS[metric], floor)
                c.update(program=prog, buffers=bufs, size=size, side=i, metric=metric, aa=aa if i != twin else None,
                         is_aa=i == twin)
                out.append(c)
    return over_table(out)


def over_table(rows):
    """Verdicts that hold over the whole table: a size's "faster" or "slower"
    stands only where the false discovery rate over every comparison with an
    interval stays at 5% (false_discovery); the others are the same,
    with what that size alone would have said (docs/method.md)."""
    judged = [r for r in rows if r["interval"]]
    kept = false_discovery([r["p"] for r in judged])
    for i, r in enumerate(judged):
        if r["verdict"] in ("faster", "slower") and i not in kept:
            r["alone"] = r["verdict"]
            r["verdict"] = "same within the noise"
    return rows
