#!/usr/bin/env python3
"""The tables of docs/results/h200-fullset-pairs.md from three umb-run
folders of the full set on one machine: A1 and A2 with one launch per
program, B with one launch per pair. Usage: compare.py A1 A2 B"""
import json
import math
import os
import statistics
import sys


def rows(folder):
    """(program, pair, size) -> the row's mean, of the runs that finished."""
    m, out = json.load(open(os.path.join(folder, "run.json"))), {}
    for r in (r for r in m["runs"] if r.get("complete")):
        for o in (json.loads(x) for x in open(os.path.join(folder, r["file"]))):
            value = o.get("avg_latency_us", o.get("avg_bandwidth_mbs")) if o.get("type") == "result" else None
            if value:
                out[(r["program"], r["buffers"], o["size"])] = value
    return out


def not_converged(folder):
    """Runs whose precision loop left sizes outside its target, and how many sizes."""
    m, out = json.load(open(os.path.join(folder, "run.json"))), []
    for r in (r for r in m["runs"] if r.get("complete")):
        for o in (json.loads(x) for x in open(os.path.join(folder, r["file"]))):
            if o.get("type") == "precision" and o["not_converged"]:
                out.append("%s %s: %s" % (r["program"], r["buffers"], " ".join(str(s["size"]) for s in o["not_converged"])))
    return out


def main(a1, a2, b):
    A1, A2, B = rows(a1), rows(a2), rows(b)
    keys = sorted(set(A1) & set(A2) & set(B))
    spread = lambda xs: statistics.median(abs(math.log(x)) for x in xs)
    print("rows measured in all three: %d" % len(keys))
    print("median |ln ratio| per row: A2/A1 (same mode) %.3f, A1/B %.3f, A2/B %.3f" % tuple(
        spread([x[k] / y[k] for k in keys]) for x, y in ((A2, A1), (A1, B), (A2, B))))
    print("\n| program | pair | A2/A1 | A1/B | A2/B | shifted |\n|---|---|---|---|---|---|")
    groups, shifted = {}, 0
    for k in keys:
        groups.setdefault(k[:2], []).append(k)
    for (prog, pair), ks in sorted(groups.items()):
        same, x1, x2 = (statistics.median(x[k] / y[k] for k in ks) for x, y in ((A2, A1), (A1, B), (A2, B)))
        # Both launches of one mode against the other, on the same side, by more than 5% and than the two of one mode differ.
        moved = (x1 > 1) == (x2 > 1) and min(abs(math.log(x1)), abs(math.log(x2))) > max(abs(math.log(same)), 0.05)
        shifted += moved
        print("| %s | %s | %.3f | %.3f | %.3f | %s |" % (prog, pair, same, x1, x2, "yes" if moved else ""))
    print("\nshifted: %d of %d program-pairs" % (shifted, len(groups)))
    for name, folder in (("A1", a1), ("A2", a2), ("B", b)):
        left = not_converged(folder)
        print("\n%s: %d runs with sizes outside the precision target:" % (name, len(left)))
        for line in left:
            print("  " + line)


if __name__ == "__main__":
    main(*sys.argv[1:4])
