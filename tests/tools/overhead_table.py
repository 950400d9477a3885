"""tests/tools/overhead's programs and its tables: each size's median
ratio umbench / bare loop, its 95% interval and the verdict against the
target (docs/results/overhead.md)."""
import os
import statistics

from umbench.stats import median_interval, quartiles, rounds_needed

# name, umbench program, its arguments, ranks option, JSON key, higher is better, target
BENCHES = {
    "latency": ("mpi/pt2pt/umb_latency", ["H", "H"], "avg_latency_us", False, 1.02),
    "bw": ("mpi/pt2pt/umb_bw", ["H", "H"], "avg_bandwidth_mbs", True, 0.98),
    "bibw": ("mpi/pt2pt/umb_bibw", ["H", "H"], "avg_bandwidth_mbs", True, 0.98),
    "bcast": ("mpi/collective/umb_bcast", ["--buffer", "H"], "avg_latency_us", False, 1 / 0.98),
}


def verdict(interval, higher_better, target):
    """met: the whole 95% interval of the median ratio on the target's side;
    missed: the whole of it past the target; else unresolved."""
    if interval is None:
        return "no interval"
    lo, hi = interval
    if higher_better:
        return "met" if lo >= target else "MISSED" if hi < target else "unresolved"
    return "met" if hi <= target else "MISSED" if lo > target else "unresolved"


def load_line():
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} CPUs)"


def report(name, np, per_round, args, load_before, side):
    """The table of one side ("umb", or "before") against the reference."""
    prog, pos, key, higher_better, target = BENCHES[name]
    unit = "MB/s" if higher_better else "us"
    cmp = ">=" if higher_better else "<="
    build = os.path.abspath(args.before) if side == "before" else args.umbench_build or args.build
    who = (f"{args.copy} (a copy of mpi_bare)" if args.copy else f"mpi_bare {name}-laps (its loop with umbench's marks)"
           if args.laps else f"{os.path.join(build, prog)} {' '.join(pos)}")
    n = len(per_round)
    print(f"# {who} against mpi_bare {name}, "
          f"{np} ranks, {n} round{'s' if n != 1 else ''} interleaved, "
          f"{f'{args.iterations} iterations at every size' if args.iterations else 'the default iteration counts'}, "
          f"launched with {' '.join(args.launch)}")
    print(f"# Load average (1, 5, 15 min) before the first round: {load_before}; after the last: {load_line()}")
    print("# Ratio: umbench / reference, the median of the per-round ratios; 95% interval: of that median (order")
    print(f"# statistics, {rounds_needed()} rounds or more); verdict against {cmp} {target:.3f}: met (the whole interval"
          f" {cmp} the target), MISSED (the whole interval past it), unresolved (the interval reaches across it)")
    print("# Ref noise: the reference's own spread between rounds, (Q3 - Q1) / median")
    if args.aa:
        print("# A/A: the reference run a second time in each round, over the first (median): the ratio of two")
        print("# identical runs here")
    print(f"{'Size':>8} {'Ref ' + unit:>12} {'umbench ' + unit:>14} {'Ratio':>7} {'95% lo':>7} {'95% hi':>7} {'Ref noise':>10}"
          f"{'    A/A' if args.aa else ''}  Verdict")
    by_verdict, worst = {}, None
    for s in sorted(per_round[0]["ref"]):
        ratios = [p[side][s][0] / p["ref"][s][0] for p in per_round]
        refs = [p["ref"][s][0] for p in per_round]
        med, interval = statistics.median(ratios), median_interval(ratios)
        r1, r3 = quartiles(refs)
        v = verdict(interval, higher_better, target)
        by_verdict.setdefault(v, []).append(s)
        if worst is None or (med < worst[1] if higher_better else med > worst[1]):
            worst = (s, med)
        lo, hi = (f"{x:>7.3f}" for x in interval) if interval else (f"{'-':>7}",) * 2
        aa = f" {statistics.median(p['again'][s][0] / p['ref'][s][0] for p in per_round):>6.3f}" if args.aa else ""
        print(f"{s:>8} {statistics.median(refs):>12.3f} {statistics.median(p[side][s][0] for p in per_round):>14.3f} "
              f"{med:>7.3f} {lo} {hi} {(r3 - r1) / statistics.median(refs):>10.3f}{aa}  {v}")
    s, med = worst
    sizes = sum(len(v) for v in by_verdict.values())
    print(f"# {name}: worst median ratio {med:.3f} at {s} B (target {cmp} {target:.3f})")
    print(f"# {name}: 95% interval of the median ratio {cmp} {target:.3f} at {len(by_verdict.get('met', []))} of {sizes} sizes; "
          + "; ".join(f"{v}: {', '.join(map(str, by_verdict.get(v, []))) or 'none'}" for v in ("MISSED", "unresolved", "no interval")))
    print(flush=True)
