"""The readings of one rank per GPU (tests/gpu/rank_per_gpu.sh), beside those
of tests/gpu/judge.py, which dispatches them: which GPU each rank reports,
the shared-gpu finding, every byte validated, and the path a row names
against the bytes it counted."""
from judge import header, objects, results

def findings(path, name):
    return [o for o in objects(path) if o.get("type") == "finding" and o.get("finding") == name]


def gpus_of(path):
    """Each rank's (GPU index, PCI bus, how it was chosen), in rank order."""
    head = header(path)
    ranks = head["ranks"]
    assert len(ranks) == head["nranks"] and all(r["gpu"] >= 0 for r in ranks), "a rank without a GPU: %r" % ranks
    for r in ranks:
        print("rank %d: host %s, GPU %d (%s) chosen by %s" % (r["rank"], r["host"], r["gpu"], r["gpu_pci_bus"], r["gpu_chosen_by"]))
    return [(r["gpu"], r["gpu_pci_bus"], r["gpu_chosen_by"]) for r in ranks]


def rank_per_gpu(path, ngpus):
    """NGPUS ranks, one per GPU: rank i on GPU i by its local rank, every PCI bus once, shared-gpu silent."""
    g = gpus_of(path)
    assert len(g) == int(ngpus), "%d ranks, expected %s" % (len(g), ngpus)
    assert [x[0] for x in g] == list(range(len(g))), "rank i is not on GPU i: %r" % g
    assert all(x[2].startswith("local rank %d " % i) for i, x in enumerate(g)), "not chosen by the local rank: %r" % g
    assert len({x[1] for x in g}) == len(g), "two ranks report one PCI bus: %r" % g
    assert not findings(path, "shared-gpu"), "shared-gpu fired with one rank per GPU"


def device_override(path):
    """--device 0 on every rank: all on GPU 0, chosen by --device, and shared-gpu names every rank."""
    g = gpus_of(path)
    assert all(x[0] == 0 and x[2].startswith("--device") for x in g), "--device 0 not taken: %r" % g
    assert len({x[1] for x in g}) == 1, "one GPU index, several PCI buses: %r" % g
    f = findings(path, "shared-gpu")
    want = "ranks " + ",".join(str(i) for i in range(len(g)))
    assert len(f) == 1 and f[0]["rows"] == want, "shared-gpu should name %s: %r" % (want, f)
    print("shared-gpu: %s" % f[0]["what"])


def visible_one(path, ngpus="any"):
    """Each rank sees one GPU (CUDA_VISIBLE_DEVICES per rank): every rank says GPU 0 of what it sees, names the
    variable, and reports its own PCI bus; shared-gpu stays silent. NGPUS: the ranks expected, or any."""
    g = gpus_of(path)
    assert ngpus == "any" or len(g) == int(ngpus), "%d ranks, expected %s" % (len(g), ngpus)
    assert all(x[0] == 0 for x in g), "a rank that sees one GPU reports another index: %r" % g
    assert all("CUDA_VISIBLE_DEVICES=" in x[2] for x in g), "the choice does not name CUDA_VISIBLE_DEVICES: %r" % g
    assert len({x[1] for x in g}) == len(g), "ranks on distinct GPUs report one PCI bus: %r" % g
    assert not findings(path, "shared-gpu"), "shared-gpu fired with one GPU per rank"


def validated(path, rows):
    """ROWS result rows, every byte of every message checked and passed, each row's figure (at full precision,
    not the table's two decimals: a loaded machine's 1 B bandwidth can print 0.00) above 0, the run ended with
    status 0."""
    objs = objects(path)
    res = [o for o in objs if o.get("type") == "result"]
    assert len(res) == int(rows), "%d rows, expected %s" % (len(res), rows)
    bad = [r["size"] for r in res if r["validation"] != "pass"]
    assert not bad, "validation not passed at sizes %s" % bad
    metric = "avg_latency_us" if "avg_latency_us" in res[0] else "avg_bandwidth_mbs"
    bad = [r["size"] for r in res if not (r[metric] or 0) > 0]
    assert not bad, "%s not above 0 at sizes %s" % (metric, bad)
    assert objs[-1].get("type") == "end" and objs[-1].get("status") == 0, "no end record with status 0: %r" % objs[-1]
    print("%s %s: %d sizes validated" % (res[0]["program"], res[0]["buffers"], len(res)))


def side_of(r):
    """Where the row's copied bytes went, as umb_path_classify weighs them: staged (90% or more through host
    memory), direct (90% or more GPU to GPU), mixed, or None (nothing copied)."""
    host = r["copy_htod_bytes_per_iter"] + r["copy_dtoh_bytes_per_iter"] + (r.get("copy_htoh_bytes_per_iter") or 0)
    direct = r["copy_dtod_bytes_per_iter"] + (r.get("copy_ptop_bytes_per_iter") or 0)
    total = host + direct
    if total <= 0:
        return None
    return "staged" if host >= 0.9 * total else "direct" if direct >= 0.9 * total else "mixed"


def path_class(path, expect):
    """Each row's path agrees with the bytes it counted (a peer copy named staged, or staging named direct,
    fails); EXPECT: direct-from:SIZE (GPU to GPU from SIZE bytes up) or not-direct (no row GPU to GPU)."""
    res = results(path)
    assert res, "no rows"
    for r in res:
        c = side_of(r)
        print("%s %s %8d B: path %-8s HtoD %10.0f DtoH %10.0f DtoD %10.0f PtoP %10.0f B/it"
              % (r["program"], r["buffers"], r["size"], r["path"], r["copy_htod_bytes_per_iter"], r["copy_dtoh_bytes_per_iter"],
                 r["copy_dtod_bytes_per_iter"], r.get("copy_ptop_bytes_per_iter") or 0))
        if r["path"] in ("staged", "direct"):  # none and migrated rows may carry control copies
            assert r["path"] == c, "%d B: named %s, but its copies say %s" % (r["size"], r["path"], c)
        if expect == "not-direct":
            assert r["path"] != "direct", "%d B went GPU to GPU through a library that is not CUDA-aware" % r["size"]
        elif r["size"] >= int(expect.split(":")[1]):
            assert r["path"] == "direct", "%d B: not GPU to GPU (%s)" % (r["size"], r["path"])


READINGS = {"rank-per-gpu": rank_per_gpu, "device-override": device_override, "visible-one": visible_one,
            "validated": validated, "path-class": path_class}
