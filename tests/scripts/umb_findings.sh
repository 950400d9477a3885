#!/bin/sh
# umb-run's findings (any machine, no MPI run): on recorded result files,
# the rule that needs two runs (managed buffers staged where D buffers of
# the same program went GPU to GPU) fires where the paths say so and stays
# silent where both went direct; every program's findings reach run.json;
# umb-compare names the findings one side has and the other not; over
# rounds, the inversion rule again on the pooled rows; umb-findings.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
"$PYTHON3" - "$top_srcdir/scripts" "$tmp" <<'PY' || fail "umb-run's findings (above)"
import json, os, subprocess, sys
scripts, tmp = sys.argv[1], sys.argv[2]
sys.path.insert(0, scripts)
from umbench import findings, results

def folder(name, md_path_4m, extra_finding=None):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    runs = []
    for pair, paths in (("D D", {8: "staged", 4194304: "direct"}), ("MD MD", {8: "staged", 4194304: md_path_4m})):
        f = "umb_bw-%s.jsonl" % pair.replace(" ", "-")
        with open(os.path.join(d, f), "w") as out:
            out.write(json.dumps({"type": "header", "program": "umb_bw"}) + "\n")
            for size, p in paths.items():
                out.write(json.dumps({"type": "result", "program": "umb_bw", "buffers": pair, "size": size, "path": p,
                                      "avg_bandwidth_mbs": 300000.0 if p == "direct" else 37900.0}) + "\n")
            if extra_finding and pair == "MD MD":
                out.write(json.dumps(dict(extra_finding, type="finding", program="umb_bw", buffers=pair)) + "\n")
        runs.append({"program": "umb_bw", "buffers": pair, "file": f, "status": 0, "config": "default",
                     "findings": findings.of_file(os.path.join(d, f), results.Problems())})
    found = findings.gather(d, runs, results.Problems())
    json.dump({"runs": runs, "findings": found, "configs": [{"name": "default", "env": {}, "launcher_flags": []}]},
              open(os.path.join(d, "run.json"), "w"))
    return found

staged = {"finding": "staged-managed", "rows": "8-4194304", "what": "managed buffers went through host memory", "try": "x",
          "confidence": "fact"}
a = folder("a", "staged", staged)
assert json.load(open(os.path.join(tmp, "a", "run.json")))["runs"][1]["findings"] == [staged]  # of_file keeps every field
kinds = sorted(f["finding"] for f in a)
assert kinds == ["staged-managed", "staged-where-device-direct"], a
cross = [f for f in a if f["finding"] == "staged-where-device-direct"][0]
assert cross["rows"] == "4194304" and cross["buffers"] == "MD MD" and cross["source"] == "umb-run", cross
assert "MD MD 37900 against D D 300000" in cross["what"], cross["what"]
b = folder("b", "direct")
assert b == [], b  # MD MD direct where D D is: nothing to say
out = subprocess.run([sys.executable, os.path.join(scripts, "umb-compare"), os.path.join(tmp, "a"), os.path.join(tmp, "b")],
                     capture_output=True, text=True)
print(out.stdout[-600:], out.stderr[-300:])
assert out.returncode == 0, out.stderr
assert "## Findings that differ between the sides" in out.stdout, out.stdout
assert "staged-where-device-direct" in out.stdout and "not in [1]" in out.stdout, out.stdout

# Over rounds: a finding fired in every round with the same rows is
# confirmed; one in 2 of 3 rounds, or with other rows in one, is listed
# apart with how often it was seen; umb-compare carries the confirmed only.
runs = []
for rnd in (1, 2, 3):
    f = [{"finding": "shared-gpu", "rows": "ranks 0,1", "what": "w", "try": "t"},
         {"finding": "inversion", "rows": "8192,16384" if rnd < 3 else "4096,8192", "what": "w", "try": "t"}]
    if rnd != 2:
        f.append({"finding": "re-placed", "rows": "8-64", "what": "w", "try": "t"})
    runs.append({"program": "umb_latency", "buffers": "D D", "file": "x%d.jsonl" % rnd, "status": 0, "round": rnd,
                 "config": "default", "findings": f})
runs.append({"program": "umb_latency", "buffers": "D D", "file": "x4.jsonl", "status": 124, "round": 4, "config": "default",
             "findings": []})  # a round that did not finish counts neither way
got = {f["finding"]: f for f in findings.gather(tmp, runs, results.Problems())}
assert got["shared-gpu"]["seen"] == [3, 3] and got["shared-gpu"]["confirmed"], got["shared-gpu"]
assert got["re-placed"]["seen"] == [2, 3] and not got["re-placed"]["confirmed"], got["re-placed"]
assert got["inversion"]["seen"] == [3, 3] and not got["inversion"]["confirmed"], got["inversion"]
assert got["inversion"]["rows_seen"] == {"8192,16384": 2, "4096,8192": 1}, got["inversion"]
# A finding a program saw once (one run cannot say it repeats) is confirmed
# neither by one round nor by every one of 3, but by every one of 6 (an
# inversion: by the pooled rows, below); one that repeats, from one round.
for n, conf, want in ((1, "seen once", False), (3, "seen once", False), (6, "seen once", True), (1, "repeats", True)):
    once = [{"program": "umb_latency", "buffers": "MD MD", "file": "s%d.jsonl" % k, "status": 0, "round": k,
             "config": "default", "findings": [{"finding": "throttled", "rows": "8-64", "what": "w", "try": "t",
                                                "confidence": conf}]} for k in range(1, n + 1)]
    th = {f["finding"]: f for f in findings.gather(tmp, once, results.Problems())}["throttled"]
    assert th["confirmed"] == want and th["seen"] == [n, n] and th["confidence"] == conf, (n, conf, th)
d = os.path.join(tmp, "rounds")
os.makedirs(d)
json.dump({"runs": [], "findings": list(got.values()), "configs": [{"name": "default", "env": {}, "launcher_flags": []}]},
          open(os.path.join(d, "run.json"), "w"))
side = results.Side(d, "default", {}, json.load(open(os.path.join(d, "run.json"))))
assert list(findings.of_side(side, results.Problems())) == [("umb_latency", "D D", "shared-gpu")], findings.of_side(side, results.Problems())
print("ok")
PY

# The inversion rule on pooled rows: 8 rounds of umb_latency D D in which
# 8 KiB is staged (~30 us) and 16 KiB direct (~17 us), but each round's own
# inversion fired with other rows, or not at all (one fast iteration
# silenced it): over the rounds it is confirmed, naming the step 8192,16384.
# A step that some rounds fired but the pooled rows do not show (one slow
# round) is not confirmed. umb-findings pools two folders of 4 rounds as 8.
"$PYTHON3" - "$top_srcdir/scripts" "$tmp/pool" "$top_srcdir/util/core/findings.c" <<'PY' || fail "findings over pooled rounds (above)"
import json, os, re, subprocess, sys
scripts, tmp, csrc = sys.argv[1:4]
sys.path.insert(0, scripts)
from umbench import findings, results
c = open(csrc).read()
assert float(re.search(r"#define INVERSION_MARGIN ([0-9.]+)", c).group(1)) == findings.INVERSION_MARGIN
assert float(re.search(r"#define INVERSION_FLOOR_US ([0-9.]+)", c).group(1)) == findings.INVERSION_FLOOR_US
assert int(re.search(r"#define INVERSION_MIN_ITERS ([0-9]+)", c).group(1)) == findings.INVERSION_MIN_ITERS

def write(folder, rounds, p50, fired, lib="Open MPI 5.0.8"):
    os.makedirs(folder)
    runs = []
    for k in rounds:
        name = "umb_latency-D-D.default.r%d.jsonl" % k
        with open(os.path.join(folder, name), "w") as f:
            for size in (4096, 8192, 16384, 32768):
                f.write(json.dumps({"type": "result", "program": "umb_latency", "buffers": "D D", "size": size, "iterations": 10000,
                                    "avg_latency_us": p50(k, size), "p50_latency_us": p50(k, size)}) + "\n")
            f.write(json.dumps({"type": "end"}) + "\n")
        fs = [{"finding": "inversion", "rows": fired[k], "what": "w", "try": "t"}] if fired.get(k) else []
        runs.append({"program": "umb_latency", "buffers": "D D", "file": name, "status": 0, "round": k, "config": "default",
                     "complete": True, "findings": fs})
    json.dump({"runs": runs, "mpi_library": lib, "state": "finished",
               "configs": [{"name": "default", "env": {}, "launcher_flags": []}]}, open(os.path.join(folder, "run.json"), "w"))
    return runs

step = {4096: 20.0, 8192: 30.0, 16384: 17.0, 32768: 22.0}
p50 = lambda k, size: step[size] * (1 + 0.02 * ((k * 7 + size) % 5 - 2))
fired = {1: "4096,16384", 2: "8192,16384", 5: "8192,32768", 6: "2-8192,16384"}
runs = write(os.path.join(tmp, "a"), range(1, 9), p50, fired)
got = {f["finding"]: f for f in findings.gather(os.path.join(tmp, "a"), runs, results.Problems())}
inv = got["inversion"]
assert inv["confirmed"] and inv["rows"] == "8192,16384" and inv["seen"] == [4, 8], inv
assert "over 8 rounds, a step down from size 8192 to the larger 16384" in inv["what"], inv["what"]
# The same rows with one round far slower at 16 KiB: the step is not in the pooled rows.
slow = lambda k, size: 40.0 if size == 16384 and k in (2, 4, 6, 8) else p50(k, size)
runs = write(os.path.join(tmp, "b"), range(1, 9), slow, {3: "8192,16384", 5: "8192,16384"})
got = {f["finding"]: f for f in findings.gather(os.path.join(tmp, "b"), runs, results.Problems())}
assert not got["inversion"]["confirmed"] and got["inversion"]["seen"] == [2, 8], got
# Fewer than 6 rounds: the rule of every round with the same rows.
runs = write(os.path.join(tmp, "c"), range(1, 5), p50, {1: "8192,16384", 2: "8192,16384", 3: "8192,16384", 4: "8192,16384"})
got = {f["finding"]: f for f in findings.gather(os.path.join(tmp, "c"), runs, results.Problems())}
assert got["inversion"]["confirmed"] and got["inversion"]["seen"] == [4, 4], got
# umb-findings: folder c and a second folder of 4 rounds are 8 rounds: confirmed on the pooled rows.
write(os.path.join(tmp, "d"), range(1, 5), lambda k, s: p50(k + 4, s), {})
out = subprocess.run([sys.executable, os.path.join(scripts, "umb-findings"), os.path.join(tmp, "c"), os.path.join(tmp, "d"), "--json"],
                     capture_output=True, text=True)
assert out.returncode == 0, out.stderr
got = {f["finding"]: f for f in json.loads(out.stdout)}
assert got["inversion"]["confirmed"] and got["inversion"]["seen"] == [4, 8] and got["inversion"]["rows"] == "8192,16384", got
out = subprocess.run([sys.executable, os.path.join(scripts, "umb-findings"), os.path.join(tmp, "b")], capture_output=True, text=True)
assert out.returncode == 0 and "umb-findings: findings seen in some rounds only:" in out.stdout \
    and "umb_latency D D [8192,16384] inversion  (seen in 2 of 8 rounds; not confirmed)" in out.stdout, out.stdout
# Folders of two libraries, a folder without run.json: one line, exit 1.
write(os.path.join(tmp, "e"), range(1, 3), p50, {}, lib="MPICH 4.2")
for args, says in (([os.path.join(tmp, "a"), os.path.join(tmp, "e")], "differ in library Open MPI 5.0.8 | MPICH 4.2"),
                   ([tmp], "no run.json listing runs"), ([os.path.join(tmp, "none")], "not a folder")):
    out = subprocess.run([sys.executable, os.path.join(scripts, "umb-findings")] + args, capture_output=True, text=True)
    assert out.returncode == 1 and out.stdout == "" and out.stderr.count("\n") == 1 and says in out.stderr, (args, out)
print("ok")
PY
exit 0
