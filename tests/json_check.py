"""Checks JSON Lines output: every line parses, the first is the header,
the rest are results with the given keys and sane values (and, with
--counters and --path, the per-rank "rank_counters" and "rank_path" rows
after them, and the "finding" records at the end).

usage: json_check.py [--no-end] [--rows N] [--header KEY ...] [--keys KEY ...] [--validation pass]
"""
import argparse
import json
import math
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--rows", type=int)
ap.add_argument("--header", nargs="*", default=[])
ap.add_argument("--keys", nargs="*", default=[])
ap.add_argument("--validation")
ap.add_argument("--positive", nargs="*", default=[])
ap.add_argument("--no-end", action="store_true", help="output of the formatter alone, not of a program")
a = ap.parse_args()

lines = [l for l in sys.stdin.read().splitlines() if l.strip()]
if not lines:
    sys.exit("no output")
objs = []
for n, line in enumerate(lines, 1):
    try:
        objs.append(json.loads(line))
    except ValueError as e:
        sys.exit("line %d is not JSON (%s): %s" % (n, e, line[:200]))
# A program's last object says its output is whole (util/core/output.h, umb_output_end).
if not a.no_end:
    if objs[-1].get("type") != "end" or not isinstance(objs[-1].get("status"), int):
        sys.exit("the last object is not the end record: %r" % objs[-1])
    objs = objs[:-1]
head, rows = objs[0], [o for o in objs[1:] if o.get("type") not in ("rank_counters", "rank_placement", "counters", "rank_path", "finding")]
if head.get("type") != "header":
    sys.exit("first object is not the header: %r" % head)
for k in a.header:
    if k not in head:
        sys.exit("header lacks %r" % k)
if a.rows is not None and len(rows) != a.rows:
    sys.exit("%d result rows, expected %d" % (len(rows), a.rows))
last = -1
for r in rows:
    if r.get("type") != "result":
        sys.exit("not a result: %r" % r)
    for k in a.keys:
        if k not in r:
            sys.exit("row lacks %r: %r" % (k, r))
    for k in a.positive:
        v = r[k]
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            sys.exit("%s is not a positive number in %r" % (k, r))
    if r["size"] <= last:
        sys.exit("sizes do not increase: %r" % r)
    last = r["size"]
    if a.validation and r.get("validation") != a.validation:
        sys.exit("validation is %r, expected %r in %r" % (r.get("validation"), a.validation, r))
