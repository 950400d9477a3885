"""Like with like (docs/output.md, "Results folders"): what a run ran
besides its results (ran), what differs between two runs (alike), and
the contradictions between a run's file and run.json that no reader
takes (contradiction). umb-compare shows what differs between its sides;
umb-findings, the readers' load and umb-run --append refuse rounds of
one another that differ."""
import getopt
import json
import os
import re
import shlex

from .fail import Fail
from .schema import MANIFEST
from .shown import clip, escaped
from .values import DEFAULT, read_value


# What the rounds of one configuration have in common besides their
# results: pooled (umb-findings, umb-run --append) only where alike, and
# shown where the sides of a comparison differ (umb-compare). The
# environment: the variables of the libraries' prefixes that the programs
# record (util/mpi/mpi_info.c), not a job's (SLURM_*), and umbench's own
# that change a figure: how a loop's time is split per iteration, which
# pagemap the placement check reads (docs/hardening.md, class 4).
ALIKE = ("np", "options", "library", "environment", "launcher flags", "build")
TUNING = ("OMPI_MCA_", "UCX_", "HWLOC_", "MPIR_CVAR_", "MV2_", "I_MPI_", "FI_", "PSM2_", "UMB_LAPS_CLOCK=", "UMB_PAGEMAP=")
# Where a library writes its log, not how it runs: --path names a file per process (util/mpi).
NOT_TUNING = ("UCX_LOG_FILE=",)
# The header's mpi_env is cut at its buffer (util/mpi/bench_header.c, 4 x 512
# bytes): a value there of this length or more may end mid-word. CUT stands
# for what is beyond: no evidence either way (alike).
HEADER_ENV_CUT = 2047
# Where one variable of the header ends: before the next of the prefixes
# the programs record (util/mpi/mpi_info.c).
HEADER_WORD = re.compile(" (?=(?:OMPI_MCA_|UCX_|MPIR_CVAR_|MV2_|I_MPI_|FI_|PSM2_|HWLOC_|UMB_)[A-Za-z0-9_]*=)")
CUT = "(the rest cut at %d characters in the header)" % HEADER_ENV_CUT


def extra_of(command):
    """The benchmark options (the words after the first "--") of an
    umb-run command line as run.json keeps it; None where it keeps none."""
    if not isinstance(command, list) or not all(isinstance(w, str) for w in command):
        return None
    return command[command.index("--") + 1:] if "--" in command else []


def env_words(env, header=None):
    """The tuning variables (TUNING) of run.json's env and of a run's header
    (its mpi_env, "K=V K=V" or "none") as sorted "K=V" words, each value as
    the programs read it. Where run.json names a variable, its value is
    run.json's: the header joins values with blanks, so a value with a
    blank or a newline does not come back whole from it. A header cut
    (HEADER_ENV_CUT) ends in CUT in place of its last, partial word."""
    words = {k: "%s=%s" % (k, v) for k, v in (env or {}).items() if isinstance(v, str) and (k + "=").startswith(TUNING)}
    said = (header or {}).get("mpi_env")
    cut = isinstance(said, str) and len(said) >= HEADER_ENV_CUT
    heard = HEADER_WORD.split(said) if isinstance(said, str) else []
    for w in heard[:-1] if cut else heard:
        if w.startswith(TUNING):
            words.setdefault(w.split("=", 1)[0], w)
    laps = ("UMB_LAPS_CLOCK=",)  # counts only as "wtime", the one value the programs read (util/mpi/laps.c)
    kept = [w for w in words.values() if not w.startswith(NOT_TUNING + laps) or w == "UMB_LAPS_CLOCK=wtime"]
    return sorted(kept) + ([CUT] if cut else [])


def ran(manifest, config, header):
    """What a run of `config` ran (ALIKE), from its header (ranks, library,
    environment) and its folder's run.json (rank count, options, the
    configuration's settings); None where neither says."""
    m, header = manifest or {}, header if isinstance(header, dict) else {}
    cfg = next((c for c in m.get("configs", []) if isinstance(c, dict) and c.get("name") == config), None) or {}
    lib = header.get("mpi_library") if isinstance(header.get("mpi_library"), str) else \
        cfg.get("mpi_library") or (m.get("mpi_library") if len(m.get("configs", [])) <= 1 else None)
    ranks = header.get("nranks") if isinstance(header.get("nranks"), int) else m.get("np")
    env = dict(m.get("env") or {}, **cfg.get("env", {}))
    return {"np": ranks, "options": extra_of(m.get("command")), "library": lib,
            "environment": env_words(env, header) if "env" in m or isinstance(header.get("mpi_env"), str) else None,
            "launcher flags": cfg.get("launcher_flags"), "build": (cfg.get("build") or {}).get("dir")}


def alike(a, b):
    """What differs between two runs' ran(): [(what, a's, b's)] as text (of
    the environment, only the variables that differ); what either does not
    know is no evidence either way: a value left out, the variables of a
    header cut beyond CUT. Options compare as the programs read them
    (options_read)."""
    out = []
    for k in ALIKE:
        x, y = a.get(k), b.get(k)
        # Options alike as the programs read them; where options_read cannot (None), only as written.
        if x is None or y is None or x == y or (k == "options" and None != options_read(x) == options_read(y)):
            continue
        if k == "environment":
            x, y = _env_only(x, y), _env_only(y, x)
            if not x and not y:
                continue
            x, y = x + [CUT] * (CUT in a[k]), y + [CUT] * (CUT in b[k])  # said where a side was cut
        out.append((k, _value(k, x), _value(k, y)))
    return out


def _env_only(x, y):
    """x's words that y does not hold; where y was cut (CUT), only those of
    a variable y shows: y's cut part may hold the others."""
    names = {w.split("=", 1)[0] for w in y if w != CUT}
    return [w for w in x if w not in y and w != CUT and (CUT not in y or w.split("=", 1)[0] in names)]


# The programs' options (util/mpi/options_parse.c's table, util/mpi/rma's
# own): a long name -> (the short letter or the name, 0 no value, 1 a value,
# 2 an optional one). getopt_long also takes a long name's unique prefix.
LONG = {"message-size": ("m", 1), "iterations": ("i", 1), "warmup": ("x", 1), "full": ("f", 0),
        "validation": ("c", 0), "mem-limit": ("M", 1), "window-size": ("W", 1), "counters": ("U", 2),
        "help": ("h", 0), "version": ("v", 0), "accelerator": ("d", 1), "root": ("k", 1),
        "win-option": ("w", 1), "sync-option": ("s", 1)}
LONG.update({n: (n, 0) for n in ("assume-cuda-aware", "allow-oversubscription", "path", "measure-bound", "check-options")})
LONG.update({n: (n, 1) for n in ("format", "place-with", "place", "place-check", "loop", "advise", "device", "timeout",
                                 "precision", "size-budget", "launch-budget", "root-buffer", "buffer", "buffers",
                                 "pair-files")})
# A letter takes a value only where its long name requires one: the short
# option string gives -U none ("-Ui 5" is -U -i 5), as getopt reads it.
SHORT = {c: int(has == 1) for c, has in ((v[0], v[1]) for v in LONG.values()) if len(c) == 1}


def options_read(words):
    """Benchmark options as the programs' parser (GNU getopt_long) reads
    them, through Python's getopt: {option: its last value} (each option
    sets a value, the last one given wins) and the other words in order;
    None where a word is not one the table knows (then the words compare
    as written)."""
    shorts = "".join(c + ":" * has for c, has in SHORT.items())
    longs = [n + "=" * (has == 1) for n, (_, has) in LONG.items()]
    longs += ["\0%s=" % n for n, (_, has) in LONG.items() if has == 2]  # _optional's
    try:
        got, rest = getopt.gnu_getopt([_optional(w) for w in words], shorts, longs)
    except getopt.GetoptError:
        return None
    last = {LONG[o.lstrip("-\0")][0] if o[1] == "-" else o[1:]: v for o, v in got}
    read = {k: read_value(k, v) for k, v in last.items()}
    return sorted((k, v) for k, v in read.items() if k not in DEFAULT or DEFAULT[k] != v), rest


def _optional(word):
    """getopt has no optional values (--counters=light): such a word goes
    to it as "--\0counters=light", a name that takes one. No argument holds
    a NUL, so no other word reads as it."""
    name, eq, _ = word[2:].partition("=")
    hits = [n for n in LONG if n == name] or [n for n in LONG if n.startswith(name)]
    return "--\0" + word[2:] if word.startswith("--") and eq and len(hits) == 1 and LONG[hits[0]][1] == 2 else word


def _value(what, v):
    """A side's value as alike() describes it: words quoted as a shell
    would take them (a value with a blank or a newline stays one word), by
    the one escaping rule; clipped only where too long, since clip() also
    makes a run of blanks one."""
    width = {"options": 200, "launcher flags": 200, "environment": 300}.get(what)
    if not width:
        return escaped(clip(v.split(",")[0] if what == "library" else v, 200))
    text = escaped(" ".join(w if w == CUT and what == "environment" else shlex.quote(w) for w in v))
    text = text if len(text) <= width else clip(text, width)
    return (text or "none") if what == "environment" else '"%s"' % text


def differences(diffs):
    """alike()'s list as one clause, e.g. 'np 2 | 5; options "-c" | ""'."""
    return "; ".join("%s %s | %s" % d for d in diffs)


# What umb-run's "run" line (the last of a run's file) says of the run, as
# run.json's record of it says it: written from that record (run.Run.keep),
# and a file whose line says otherwise is refused (contradiction).
RUN_LINE = ("round", "config", "status", "complete")


def contradiction(path, n, o, rec, seen):
    """Why line n (o) of a run's file cannot be true beside the lines
    before it (seen: size -> line, and the header's and end's lines) and
    run.json's record of the file (rec): a size given twice, a row of
    another program or buffers, an end or run line of another status, a
    second header or end, a row after the end. None where it can."""
    listed = _listed(path, rec)
    once = {"header": "headers", "end": "end records"}.get(o["type"])
    if once and o["type"] in seen:  # one output per file: a launch of several pairs writes a file per pair
        return "%s: lines %d and %d are both %s; a run's output has one (one pair's output a file)" % (
            path, seen[o["type"]], n, once)
    if once:
        seen[o["type"]] = n
    if o["type"] == "result" and "end" in seen:
        return "%s:%d: a result after the end record (line %d); the end comes last" % (path, n, seen["end"])
    if o["type"] == "result":
        row = tuple(sorted((k, v) for k, v in o.items() if isinstance(v, str) and k not in ("validation", "path"))) + (o["size"],)
        if row in seen:  # the same program, buffers, size (and umb_copy's direction and method...) twice
            return "%s: lines %d and %d both give size %d of %s %s; a run gives each once" % (
                path, seen[row], n, o["size"], escaped(clip(o["program"], 100)), escaped(clip(o["buffers"], 100)))
        seen[row] = n
        if rec and (o["program"], _kinds(o["buffers"])) != (rec[1]["program"], _kinds(rec[1]["buffers"])):
            return "%s:%d: a row of %s %s, where %s as %s %s" % (path, n, escaped(clip(o["program"], 100)), escaped(
                clip(o["buffers"], 100)), listed, escaped(clip(rec[1]["program"], 100)), escaped(clip(rec[1]["buffers"], 100)))
    elif o["type"] in ("end", "run") and rec:
        for k in RUN_LINE if o["type"] == "run" else ("status",):
            if k in o and k in rec[1] and o[k] != rec[1][k]:
                return "%s:%d: its %s line says %s %s, where %s with %s %s" % (
                    path, n, o["type"], k, escaped(clip(json.dumps(o[k]), 40)), listed, k, escaped(clip(json.dumps(rec[1][k]), 40)))
    return None


def unended(path, rec, seen):
    """A file run.json says is complete has its end record (seen:
    contradiction's); refused in one line naming both where it has none.
    (A record without "complete", of a folder made by hand, says nothing.)"""
    if rec and rec[1]["status"] == 0 and rec[1].get("complete") is True and "end" not in seen:
        raise Fail("%s: no end record, where %s as complete (status 0); a complete run's output ends with it" % (
            path, _listed(path, rec)))


def _listed(path, rec):
    return "%s (runs[%d] lists %s)" % (os.path.join(os.path.dirname(path), MANIFEST), rec[0], os.path.basename(path)) \
        if rec else None


def _kinds(buffers):
    """A pair's buffer kinds, as umb-run names it ("MD MH") and as a
    collective's rows do ("root MD, others MH"; "all H" for "H")."""
    words = [w for w in buffers.replace(",", " ").split() if w not in ("all", "root", "others")]
    return [w for i, w in enumerate(words) if not i or w != words[i - 1]]


def not_a_copy(seen, manifest, folder):
    """A folder's runs are not another's seen before (seen: umb-run session
    -> its folder): a copied folder (cp -r A B) holds the same runs, and
    pooling both counts each run twice. A session is one umb-run: its start,
    pid and host, as run.json's sessions keep them; refused in one line
    naming both folders."""
    for s in manifest.get("sessions") or []:
        if not (isinstance(s, dict) and isinstance(s.get("start"), str) and isinstance(s.get("pid"), int)):
            continue
        host = s.get("host") if isinstance(s.get("host"), str) else None
        was = seen.setdefault((s["start"], s["pid"], host), folder)
        if was != folder:
            raise Fail("%s and %s both hold the runs of one umb-run (started %s, pid %d%s): one is a copy of the other, "
                       "and a run counts once; give one of them" % (was, folder, escaped(clip(s["start"], 40)), s["pid"],
                                                                   ", host %s" % escaped(clip(host, 100)) if host else ""))


def same_as_first(first, key, what, path):
    """A configuration is what it ran, not only its name: the rounds of a
    benchmark and pair in it (key: (config, program, buffers)) are pooled
    only where alike (what: ran()) the first one read (first: key ->
    (ran(), path)); else refused in one line naming both files."""
    was, where = first.setdefault(key, (what, path))
    differ = alike(was, what)
    if differ:
        raise Fail("configuration %s: %s and %s differ in %s: the rounds of a benchmark in one configuration must run "
                   "alike; give each its own --out, or its own --config or --build name" % (escaped(key[0]), where, path,
                                                                                             differences(differ)))
