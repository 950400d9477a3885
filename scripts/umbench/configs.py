"""Configurations: what --config and --build give umb-run (the grammar:
docs/sweeps.md, "Rounds, configurations, precision"), and whether an
--append can stand beside a folder's."""
import re
import shlex

from . import cli, env, launch, like, results
from .shown import clip

ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# A configuration's name goes into its runs' file names (255 bytes at most).
NAME_MOST = 64

# Named configurations (--config @NAME): the transports of a run across two
# nodes without GPUDirect RDMA, forced between two GPUs of one node. Each
# sets every library's variables at once (a library ignores the others'):
# no shared memory and no CUDA IPC between the ranks, only TCP, with GPU
# and managed buffers staged through host memory by the library (UCX's
# cuda_copy, ob1's CUDA convertor). What differs from a real run across
# nodes: docs/cluster.md, "The path across nodes, emulated".
EMULATED = ("emulated on one node: the transports of a run across nodes without GPUDirect RDMA, over TCP within one host; "
            "not a measurement across nodes (docs/cluster.md)")
NAMED = {
    "emulate-internode-ucx": {
        "UCX_TLS": "self,tcp,cuda_copy",  # no posix/sysv/cma shared memory, no cuda_ipc, no gdr_copy
        "OMPI_MCA_pml": "ucx", "OMPI_MCA_osc": "ucx", "OMPI_MCA_pml_ucx_tls": "any", "OMPI_MCA_pml_ucx_devices": "any",
        "MPIR_CVAR_NOLOCAL": "1",  # MPICH: every rank as if on another node (no shared memory, no GPU IPC)
    },
    "emulate-internode-ob1": {
        "OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,tcp",  # Open MPI's BTLs: no vader, no smcuda
        "MPIR_CVAR_NOLOCAL": "1",
    },
}


def parse_config(text):
    """NAME[:VAR=VALUE,...][:LAUNCHER FLAGS] -> {"name", "env", "launcher_flags"}
    (the grammar: docs/sweeps.md; docs/output.md, "Configurations"), or
    @NAME, a named one (NAMED)."""
    if text.startswith("@"):
        if text[1:] not in NAMED:
            raise cli.Fail("--config %s: not a named configuration; accepted: %s"
                           % (clip(cli.shown(text), 80), ", ".join("@" + n for n in NAMED)))  # shown: a name's trailing blank
        return {"name": text[1:], "env": dict(NAMED[text[1:]]), "launcher_flags": [], "emulates": EMULATED}
    name, _, rest = text.partition(":")
    check_name(name, "--config", text)
    pieces, flags = _scan(rest, text)
    env, key = {}, None
    for piece in (p for p in pieces if p):
        eq = next((k for k, (c, quoted) in enumerate(piece) if c == "=" and not quoted), None)
        value = "".join(c for c, _ in piece[eq + 1 if eq is not None else 0:])
        if eq is None:  # a piece without "=" continues the value before it: OMPI_MCA_btl=self,tcp
            if key is None:
                raise cli.Fail("--config %s: '%s' is not VAR=VALUE" % (text, value))
            env[key] += "," + value
            continue
        key = "".join(c for c, _ in piece[:eq])
        if not ENV_NAME.match(key) or any(quoted for _, quoted in piece[:eq]):
            raise cli.Fail("--config %s: '%s' is not an environment variable's name" % (text, key))
        if key in env:
            raise cli.Fail("--config %s: %s given twice" % (text, key))
        env[key] = value
    return {"name": name, "env": env, "launcher_flags": flag_words(flags, "--config", text)}


def check_name(name, option, text):
    # A named configuration's name is its own (--config @NAME): a side of
    # that name without its "emulates" label would read as the emulation.
    if not 0 < len(name) <= NAME_MOST or not all(c.isalnum() or c in "_.-" for c in name) or name == "default" or name in NAMED:
        raise cli.Fail("%s %s: the name must be 1 to %d letters, digits, '_', '.' or '-', and not 'default' nor a named "
                       "configuration's (%s)" % (option, cli.shown(text[:NAME_MOST + 40]) + ("..." if len(text) > NAME_MOST + 40 else ""),
                                                 NAME_MOST, ", ".join(NAMED)))


def _scan(text, whole):
    """Splits VAR=VALUE,...[:LAUNCHER FLAGS] at its unquoted commas, up to
    the unquoted ":-" (or a leading "-") where the flags begin: (pieces,
    flags), each piece a list of (character, quoted). Quotes and
    backslashes work as in the shell, so that a value holding anything,
    ',', ':-' or spaces, stays one value: VAR='8192,X=1'."""
    pieces, piece, quote, i = [], [], None, 0
    while i < len(text):
        c, after = text[i], text[i + 1:i + 2]
        if quote and c == quote:
            quote = None
        elif c == "\\" and after and (quote is None or quote == '"' and after in '"\\$`'):
            piece.append((after, True))
            i += 1
        elif quote:
            piece.append((c, True))
        elif c in "'\"":
            quote = c
        elif c == ",":
            pieces, piece = pieces + [piece], []
        elif c == ":" and after in ("", "-") or c == "-" and i == 0:
            return pieces + [piece], text[i + (c == ":"):]
        else:
            piece.append((c, False))
        i += 1
    if quote:
        raise cli.Fail("--config %s: a quote (%s) is not closed" % (whole, quote))
    return pieces + [piece], ""


def flag_words(flags, option, text):
    try:
        return shlex.split(flags)
    except ValueError as e:
        raise cli.Fail("%s %s: its launcher flags cannot be split into words (%s)" % (option, text, e))


def parse_build(text):
    """NAME=DIR[:LAUNCHER FLAGS] -> a configuration that runs DIR's programs
    with the launcher its configure recorded (umbench-build.json)."""
    name, eq, rest = text.partition("=")
    if not eq or not rest:
        raise cli.Fail("--build %s: expected NAME=DIR, a name and an umbench build folder" % text)
    check_name(name, "--build", text)
    # DIR:FLAGS, the flags from the first ":" before a "-" (blanks between
    # allowed); DIR:, DIR:: or DIR: followed by blanks hold no flags (a
    # script's empty $FLAGS).
    cut = re.search(r":\s*-", rest)
    folder, flags = (rest[:cut.start()], rest[cut.start() + 1:].strip()) if cut else (rest, "")
    folder = re.sub(r":[:\s]*$", "", folder)
    if not folder:
        raise cli.Fail("--build %s: expected NAME=DIR, a name and an umbench build folder" % text)
    flags = flag_words(flags, "--build", text)
    return {"name": name, "env": {}, "launcher_flags": flags, "build": launch.read_build(name, folder)}


def check_append(old, a):
    """--append adds only runs that can stand beside the folder's: the same
    set, and what like.alike compares (benchmark options after "--", the
    libraries' variables of the environment), and a configuration of a name
    the folder has only with the same settings. The MPI library, and the
    ranks, are known once a run reports them (unlike_before):
    --np 3 runs a two-rank program on 2, as --np 2 did."""
    if old.get("set") not in (None, a.set):
        raise cli.Fail("--append --set %s: the folder's runs are of --set %s; add to it only the same set" % (a.set, old["set"]))
    before = {"options": like.extra_of(old.get("command")),
              "environment": like.env_words(old["env"]) if isinstance(old.get("env"), dict) else None}
    differ = like.alike(before, {"options": a.extra, "environment": like.env_words(env.recorded())})
    if differ:  # rounds of one another: what the folder's runs ran, and nothing else
        raise cli.Fail("--append --out %s: its runs and these differ in %s (its | these); add to it only runs like its "
                       "own, or use a new --out" % (cli.escaped(a.out), like.differences(differ)))
    def settings(c):  # what a configuration emulates is one of its settings: its runs' label
        return (c.get("env", {}), c.get("launcher_flags", []), (c.get("build") or {}).get("dir"),
                c.get("emulates") or None)
    for c in a.config:
        same = [x for x in old.get("configs", []) if x.get("name") == c["name"]]
        if same and settings(same[0]) != settings(c):
            raise cli.Fail("--append --config %s: the folder's configuration of that name has other settings (%s)"
                           % (c["name"], clip(same[0], 300)))  # clipped: a hand-edited run.json may hold 1 MB


def unlike_before(old, before, m, cfg, header, rec, build, path):
    """Why an --append's run may not join the folder (old: its run.json),
    else None: it must be alike (like.alike) the folder's first finished
    round of its benchmark, pair and configuration (of a new one: in its
    library, unless --build names its own), or it would be pooled as a
    round of what it is not. before: an earlier run's file -> what it ran
    (like.ran), kept between calls; m: this umb-run's run.json; path: a
    run's file in the folder."""
    if not old or not isinstance(header, dict):
        return None
    done = [r for r in old.get("runs", []) if results.finished(r)]
    mine = [r for r in done if r.get("config", "default") == cfg["name"]]
    same = [r for r in mine if (r["program"], r["buffers"]) == (rec["program"], rec["buffers"])]
    first = (same or mine or ([] if build else done))[:1]
    if not first:
        return None
    was = path(first[0]["file"])
    if was not in before:
        before[was] = like.ran(old, first[0].get("config", "default"), results.first_header(was))
    differ = [d for d in like.alike(before[was], like.ran(m, cfg["name"], header)) if same or d[0] == "library"]
    if not differ:
        return None
    return "--append: %s and %s differ in %s; add to a folder only runs like its own (or use a new --out)" % (
        was, path(rec["file"]), like.differences(differ))
