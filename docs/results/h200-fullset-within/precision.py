"""The precision an umb-run results folder reached: per run that measured,
the sizes outside +-5% (reached_pct None: fewer than 30 samples, no
interval) and the sizes not measured (0 iterations: their share of
--launch-budget spent), with the launch's budget.

  python3 precision.py RESULTS_FOLDER"""
import json, glob, os, sys, collections
d = sys.argv[1]
m = json.load(open(os.path.join(d, "run.json")))
tot = meas = miss = unm = runs = 0
missruns = []
for r in m["runs"]:
    if r["status"] != 0: continue
    runs += 1
    objs = [json.loads(l) for l in open(os.path.join(d, r["file"]))]
    rows = [o for o in objs if o["type"] == "result"]
    rec = [o for o in objs if o["type"] == "precision"]
    tot += len(rows)
    u = [o["size"] for o in rows if o.get("iterations") == 0]
    unm += len(u)
    ms = [x for x in (rec[0]["not_converged"] if rec else []) if x.get("measured") is not False]
    miss += len(ms)
    lb = r["command"][r["command"].index("--launch-budget") + 1] if "--launch-budget" in r["command"] else "-"
    if ms or u:
        missruns.append("%s %s (launch %s s): %s%s" % (r["program"], r["buffers"], lb,
            " ".join("%s(%s)" % (x["size"], x["reached_pct"]) for x in ms),
            ("; not measured: " + " ".join(map(str, u))) if u else ""))
print("%s: %d runs measured, %d rows; %d rows outside +-5%% (measured), %d not measured; wall %.1f s" % (d, runs, tot, miss, unm, m.get("elapsed_s", 0)))
for x in missruns: print("  " + x)
