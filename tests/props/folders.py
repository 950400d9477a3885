"""Valid inputs to start from: a results folder written by umb-run itself
(through the stand-ins, over recorded real output), a tune.json of the
shape umb-tune writes, and the package's settings catalogue."""
import json
import os
import re
import shutil

from common import SCRIPTS, command, recorded, run

MATCH = "^umb_(latency|bw) H H$|^umb_bcast H$"
# One configuration besides the default: the folder has two sides, like a search's.
CONFIG = "tcp:OMPI_MCA_btl=self,tcp"
TUNE = {"tried": [{"name": "tcp", "entry": "btl", "variable": "OMPI_MCA_btl", "value": "self,tcp",
                   "env": {"OMPI_MCA_btl": "self,tcp"}}],
        "refused": [], "cannot_act": [], "left_out": [], "rounds": 2, "min_effect": 0.05, "budget": None, "pass_s": 1.0,
        "findings": None}
CATALOGUE = os.path.join(SCRIPTS, "umbench", "settings.json")


def use_records(stage, choice=None):
    """The stand-in programs print these recorded outputs (by default the
    first of each of 2 ranks, umb-run's --np, its rows relabelled to
    MATCH's pairs, H H and all H: umb-run counts no run of other ranks,
    and readers refuse a row of other buffers than run.json lists)."""
    choice = choice or {}
    # selection: the programs whose whole GPU outputs are recorded (tests/data/gpu)
    for name, label in (("umb_latency", "H H"), ("umb_bw", "H H"), ("umb_bcast", "all H")):
        if choice.get(name):
            shutil.copy(choice[name], os.path.join(stage.records, name + ".jsonl"))
            continue
        with open(next(p for p in recorded(name) if of_two_ranks(p)), "rb") as f:
            lines = f.read().split(b"\n")
        with open(os.path.join(stage.records, name + ".jsonl"), "wb") as f:
            f.write(b"\n".join(re.sub(rb'"buffers":"[^"]*"', b'"buffers":"%s"' % label.encode(), x)
                                if x.startswith(b'{"type":"result"') else x for x in lines))


def of_two_ranks(path):
    with open(path, "rb") as f:
        return b'"nranks":2,' in f.readline()


def base_folder(stage):
    """A results folder as umb-run writes it: 3 benchmarks, 2 configurations,
    2 rounds, and a tune.json beside them."""
    use_records(stage)
    out = os.path.join(stage.root, "base")
    r = run(command("umb-run") + ["--bindir", stage.stub, "--set", "quick", "--match", MATCH, "--rounds", "2",
                                  "--config", CONFIG, "--out", out], cwd=stage.root, env=stage.env())
    if r.rc != 0 or not os.path.isfile(os.path.join(out, "run.json")):
        raise RuntimeError("cannot make the base folder with the stand-ins:\n" + r.show())
    with open(os.path.join(out, "tune.json"), "w") as f:
        json.dump(TUNE, f)
    return out


def copy_folder(src, dst):
    shutil.copytree(src, dst, symlinks=True)
    return dst


def readable_files(folder):
    """The folder's files a reader opens: run.json, tune.json, each *.jsonl."""
    return sorted(f for f in os.listdir(folder) if f in ("run.json", "tune.json") or f.endswith(".jsonl"))
