"""umb-tune's order (docs/method.md, "The explorer's order"): what the
pass of the defaults says of this run (the pml and UCX in its header, the
advice of its findings) orders the settings before the budget takes the
first ones, and leaves out those that cannot act on this run."""
import os
import re

from . import cli, programs, results


def evidence(folder):
    """What the pilot's runs say of this run: the pml and whether UCX was
    loaded (their header's cuda_awareness, which run.json keeps as
    cuda_aware), whether a one-sided program ran (its osc may use the
    BTLs whatever the pml), and each finding's "try" text."""
    m = results.read_manifest(folder) or {}
    aware = m.get("cuda_aware") or {}  # run.json's schema: an object or null
    runs = [r for r in m.get("runs", []) if results.finished(r)]
    for r in runs:  # a run.json from before cuda_aware: the headers themselves
        if aware:
            break
        h = results.first_header(os.path.join(folder, r["file"])) or {}
        aware = h.get("cuda_awareness") if isinstance(h.get("cuda_awareness"), dict) else {}
    found = list(m.get("findings") or []) + [f for r in runs for f in r.get("findings", [])]
    tries = {}
    for f in (f for f in found if f.get("try")):  # run.json's schema: findings are objects, "try" a string or null
        tries.setdefault(f["try"], str(f.get("finding")))
    pml = aware.get("pml") if isinstance(aware.get("pml"), str) and aware.get("pml") else None
    ucx = aware.get("ucx_loaded") if isinstance(aware.get("ucx_loaded"), bool) else None
    one_sided = set(programs.of_family("rma")) & {r["program"] for r in runs}
    return {"pml": pml, "ucx_loaded": ucx, "one_sided": bool(one_sided), "tries": tries}


def named(t, tries):
    """The finding whose "try" names this setting: 0 with its value
    (VAR=VALUE), 1 the variable alone; None when none does."""
    best, value = None, "=" + t["value"]
    for text, finding in tries.items():
        for m in re.finditer(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(t["variable"]), text):
            after = text[m.end():]
            with_value = after.startswith(value) and not re.match(r"[A-Za-z0-9_.]", after[len(value):])
            best = min(best or (2, ""), (0 if with_value else 1, finding))
    return best


def cannot_act(t, ev):
    """Why this setting cannot act on this run (one line), or None."""
    var, pml = t["variable"], ev["pml"]
    if t.get("library") == "ucx" and ev["ucx_loaded"] is False:
        return "UCX is not loaded in the pass of the defaults (its header: ucx_loaded false)"
    if var == "OMPI_MCA_pml" and pml == t["value"]:
        return "already the pml in use (the pass of the defaults' header)"
    if (var == "OMPI_MCA_btl" or var.startswith("OMPI_MCA_btl_")) and pml and pml != "ob1" and not ev["one_sided"]:
        return "the pass of the defaults ran pml %s (its header): the BTLs carry ob1's messages only" % pml
    return None


def acts_on_transport(t, ev):
    """Whether the setting belongs to what carries the messages: under pml
    ucx UCX's settings and the pml, under ob1 the BTLs and the pml; without
    a pml (MPICH) the MPI's own and, where it is loaded, UCX's."""
    var, lib = t["variable"], t.get("library")
    if ev["pml"] == "ucx":
        return lib == "ucx" or var == "OMPI_MCA_pml"
    if ev["pml"] == "ob1":
        return var == "OMPI_MCA_pml" or var == "OMPI_MCA_btl" or var.startswith("OMPI_MCA_btl_")
    if ev["pml"]:
        return var == "OMPI_MCA_pml"
    return lib == "mpich" or (lib == "ucx" and bool(ev["ucx_loaded"]))


def rank(tried, ev):
    """The settings in the order the budget takes them: those the pilot's
    findings name (with their value first), then those that act on the
    transport in use, then the rest, each in catalogue order; and those
    that cannot act here, apart, each said in one line."""
    transport = "pml " + ev["pml"] if ev["pml"] else "no pml in the header"
    tiers, out = [], []
    for t in tried:
        why = cannot_act(t, ev)
        if why:
            out.append({"variable": t["variable"], "value": t["value"], "why": why})
            print("umb-tune: cannot act here: %s=%s: %s" % (t["variable"], t["value"], why))
            continue
        by = named(t, ev["tries"])
        if by:
            tier, t["order"] = by[0], "named by the finding %s" % by[1]
        elif acts_on_transport(t, ev):
            tier, t["order"] = 2, "acts on the transport in use (%s)" % transport
        else:
            tier, t["order"] = 3, "the rest"
        tiers.append((tier, len(tiers), t))
    keep = [t for _, _, t in sorted(tiers, key=lambda x: x[:2])]
    if not keep:
        raise cli.Fail("no setting of the catalogue can act on this run (%d cannot, e.g. %s=%s: %s)"
                       % (len(out), out[0]["variable"], out[0]["value"], out[0]["why"]))
    first = ", ".join("%s=%s (%s)" % (t["variable"], t["value"], t["order"][len("named by the finding "):])
                      for t in keep if t["order"].startswith("named"))
    print("# umb-tune: in order: %s%d settings that act on the transport in use (%s), then %d others"
          % ("the findings of the pass of the defaults name %s; then " % first if first else "",
             sum(1 for t in keep if t["order"].startswith("acts")), transport, sum(1 for t in keep if t["order"] == "the rest")))
    return keep, out
