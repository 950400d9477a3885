#!/bin/sh
# umb-run's findings (any machine, no MPI run): on recorded result files,
# the rule that needs two runs (managed buffers staged where D buffers of
# the same program went GPU to GPU) fires where the paths say so and stays
# silent where both went direct; every program's findings reach run.json;
# umb-compare names the findings one side has and the other not.
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

staged = {"finding": "staged-managed", "rows": "8-4194304", "what": "managed buffers went through host memory", "try": "x"}
a = folder("a", "staged", staged)
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
d = os.path.join(tmp, "rounds")
os.makedirs(d)
json.dump({"runs": [], "findings": list(got.values()), "configs": [{"name": "default", "env": {}, "launcher_flags": []}]},
          open(os.path.join(d, "run.json"), "w"))
side = results.Side(d, "default", {}, json.load(open(os.path.join(d, "run.json"))))
assert list(findings.of_side(side, results.Problems())) == [("umb_latency", "D D", "shared-gpu")], findings.of_side(side, results.Problems())
print("ok")
PY
exit 0
