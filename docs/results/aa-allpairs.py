#!/usr/bin/env python3
"""Counts the verdicts of every A/A pair of results folders, per size alone
and over the table (docs/results/aa-verdicts.md).

  python3 docs/results/aa-allpairs.py MIN_EFFECT DIR DIR [DIR ...]   (MIN_EFFECT: 0, 0.05, ...)
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from umbench import results, stats  # noqa: E402

min_effect, names = float(sys.argv[1]), sys.argv[2:]
tables = kept_tables = alone_tables = kept_rows = alone_rows = total = 0
sides = {n: results.load(n, results.Problems())[0] for n in names}
for a, b in itertools.combinations(names, 2):
    s = sides[a] + sides[b]
    rows = stats.comparisons(s, sorted({k for x in s for k in x.runs}), min_effect)
    kept = sum(r["verdict"] in ("faster", "slower") for r in rows)
    alone = kept + sum(bool(r.get("alone")) for r in rows)
    tables, total = tables + 1, total + len(rows)
    kept_rows, alone_rows = kept_rows + kept, alone_rows + alone
    kept_tables, alone_tables = kept_tables + (kept > 0), alone_tables + (alone > 0)
print("min-effect %g: %d A/A tables, %d comparisons; per size alone: %d verdicts in %d tables; over the table: %d verdicts in %d tables"
      % (min_effect, tables, total, alone_rows, alone_tables, kept_rows, kept_tables))
