"""The results folder (docs/output.md, "Results folders"): the only reader
and the only writer of its JSON Lines files and its run.json.

What a folder guarantees: one writer at a time (a lock held for the
writer's life), a run.json that is always whole (written to a temporary
file, then renamed, after every run), and a run counted only when it
finished: run.json lists it with status 0 and its file ends with umb-run's
"run" line saying so. A reader names a bad file or line and skips it."""
import contextlib
import glob
import os

from . import schema
from .like import contradiction, ran, same_as_first, unended
from .fail import Fail
from .shown import clip, escaped
from .paths import first_missing, hold_lock, leave_untouched, not_elsewhere, out_folder, same, write_whole
from .schema import MANIFEST, read_manifest
from .stats import METRICS

LOCK = ".umb-run.lock"
class Problems:
    """Bad lines and files a reader skipped: how many, and the first."""

    def __init__(self):
        self.count, self.first = 0, None

    def add(self, path, line, why):
        self.count += 1
        if self.first is None:
            self.first = "%s%s: %s" % (path, ":%d" % line if line else "", why)

    def summary(self):
        return "" if not self.count else "skipped %d bad line%s or file%s (first: %s)" % (
            self.count, "" if self.count == 1 else "s", "" if self.count == 1 else "s", self.first)


def read_objects(path, problems, bad=None):
    """A JSON Lines file's records, as (line number, object), each checked
    against the result lines' schema; a line that breaks it is skipped and
    counted, and listed in `bad` as (line number, why, its "type")."""
    try:
        good, wrong = schema.lines(path, "result")
    except OSError as e:
        problems.add(path, 0, e.strerror or str(e))
        (bad if bad is not None else []).append((0, e.strerror or str(e), "unreadable"))
        return []
    for n, why, kind in wrong:
        problems.add(path, n, why)
    if bad is not None:
        bad.extend(wrong)
    return good


def read_results(path, problems, rec=None):
    """One program's rows: {"program", "buffers", "metric", "rows": {size:
    value}, "paths": {size: path class}, "round", "config", "run",
    "header"}; round and config from umb-run's "run" line (1 and None
    without one); null values left out. A file that contradicts itself, or
    run.json's record of it (rec), is refused (contradiction)."""
    out, bad, seen = {"program": None, "buffers": None, "metric": None, "rows": {}, "paths": {}, "round": 1, "config": None,
                      "run": None, "bad": None, "nulls": set(), "header": None}, [], {}
    for n, o in read_objects(path, problems, bad):
        why = contradiction(path, n, o, rec, seen)
        if why:
            raise Fail(why)
        if o["type"] == "header" and out["header"] is None:
            out["header"] = o
        if o["type"] == "run":
            out["run"] = o
            out["round"], out["config"] = o.get("round", 1), o.get("config")
        if o["type"] != "result":
            continue
        # The schema holds a result to a size, a program, buffers and a metric, a number or null.
        metric = out["metric"] or next(k for k in METRICS if k in o)
        out["program"], out["buffers"], out["metric"] = o["program"], o["buffers"], metric
        if o.get(metric) is not None:
            out["rows"][o["size"]] = o[metric]
        else:  # no figure: no iteration placed, or not measured (its share of --launch-budget spent)
            out["nulls"].add(o["size"])
        if isinstance(o.get("path"), str):
            out["paths"][o["size"]] = o["path"]
    if not any(kind == "unreadable" for _, _, kind in bad):  # a file not read says nothing of its end
        unended(path, rec, seen)
    first = next(((n, why) for n, why, kind in bad if kind == "result"), None)
    out["bad"] = "line %d: %s" % first if first else None
    if any(kind == "run" for _, _, kind in bad):  # its round or configuration unknown: not a round of anything
        problems.add(path, 0, "its run line has no round or configuration")
        out["rows"] = {}
    return out


def why_empty(folder, problems=None):
    """Why a folder has no finished run to read: its runs' failures (run.json)
    and the first file or line not read (once "0 of 1 runs did not finish")."""
    runs = (read_manifest(folder) or {}).get("runs", [])
    unread = "; could not read %s" % clip(problems.first, 200) if problems is not None and problems.first else ""
    if not runs:
        if not result_files(folder):
            return " (no run.json listing runs, and no result files%s)" % unread
        return " (%s)" % unread[2:] if unread else ""
    bad = [r for r in runs if not finished(r)]
    first = next((r.get("error") or r.get("skipped") for r in bad if r.get("error") or r.get("skipped")), "")
    return " (%d of %d runs did not finish%s%s)" % (len(bad), len(runs), "; the first: %s" % clip(first, 200) if first else "", unread)


def finished(rec):
    """A run record of run.json that counts: it ended with 0 and its output is whole."""
    return rec["status"] == 0 and rec.get("complete", True) is not False


def result_files(folder, problems=None):
    """The folder's *.jsonl that are regular files; the others (a FIFO, a
    link to a device) are named in problems and never opened."""
    found = sorted(glob.glob(os.path.join(glob.escape(folder), "*.jsonl")))
    for path in (p for p in found if not os.path.isfile(p) and problems is not None):
        problems.add(path, 0, "not a regular file: not read")
    return [p for p in found if os.path.isfile(p)]


def finished_files(folder, manifest, problems):
    """The files that count as finished runs: with umb-run's manifest, those it lists with status 0;
    without (a folder of program outputs), every file (read_results reads their run lines)."""
    files = result_files(folder, problems)
    if manifest is None or "runs" not in manifest:
        return files, 0
    ok = {r["file"] for r in manifest["runs"] if finished(r)}
    skipped = {r["file"] for r in manifest["runs"] if r["status"] == 77}  # nothing to read, by design
    keep = [f for f in files if os.path.basename(f) in ok]
    return keep, sum(1 for f in files if os.path.basename(f) not in ok | skipped)


class Side:
    """One side of a comparison: a folder, or one configuration of it.
    runs = {(program, buffers): {"metric", "rows": {size: {round: value}},
    "paths": {size: [path of each round]}}}."""

    def __init__(self, folder, config, runs, manifest):
        self.folder, self.config, self.runs, self.manifest = folder, config, runs, manifest or {}
        cfg = next((c for c in self.manifest.get("configs", []) if c["name"] == config), None)
        lib = (cfg or {}).get("mpi_library") or self.manifest.get("mpi_library") or ""
        self.lib = escaped(lib.split(",")[0])  # run.json's schema: strings or null; shown on a terminal
        aware = self.manifest.get("cuda_aware") or {}
        if aware.get("verdict") and not (cfg or {}).get("build"):
            self.lib += ", CUDA-aware: %s" % escaped(aware["verdict"])  # a newline in it would start a line
        if (cfg or {}).get("emulates"):  # a label is a fact: not a run across nodes
            self.lib += "; across nodes, emulated on one node"
        # Two configurations with the same settings (and build) are an A/A pair.
        self.settings = (folder, sorted(cfg.get("env", {}).items()), cfg.get("launcher_flags", []),
                         (cfg.get("build") or {}).get("dir")) if cfg else None
        self.label = escaped(os.path.basename(os.path.normpath(folder)))


def load(folder, problems):
    """The folder's sides, one per configuration in the order umb-run ran
    them (the default first), from its finished runs; returns (sides, files
    left out as unfinished)."""
    manifest = read_manifest(folder)
    files, unfinished = finished_files(folder, manifest, problems)
    by_config, libs, records = {}, {}, {r["file"]: (i, r) for i, r in enumerate((manifest or {}).get("runs", []))}
    for path in files:
        r = read_results(path, problems, records.get(os.path.basename(path)))
        stopped = bool(r["run"]) and r["run"].get("complete") is False
        if stopped or not r["metric"]:
            unfinished += stopped
            continue
        config = r["config"] or "default"
        same_as_first(libs, (config, r["program"], r["buffers"]), ran(manifest, config, r["header"]), path)
        runs = by_config.setdefault(config, {})
        slot = runs.setdefault((r["program"], r["buffers"]), {"metric": r["metric"], "rows": {}, "paths": {}})
        if slot["metric"] != r["metric"]:
            problems.add(path, 0, "%s where the other rounds have %s" % (r["metric"], slot["metric"]))
            continue
        if any(r["round"] in by_round for by_round in slot["rows"].values()):
            problems.add(path, 0, "round %d of %s again: the first file read keeps it" % (r["round"], r["config"] or "default"))
            continue
        for size, v in r["rows"].items():
            slot["rows"].setdefault(size, {})[r["round"]] = v
        for size, p in r["paths"].items():
            slot["paths"].setdefault(size, []).append(p)
    order = [c["name"] for c in (manifest or {}).get("configs", [])]  # as umb-run ran them, default first
    names = sorted(by_config, key=lambda n: (n not in order, order.index(n) if n in order else 0, n != "default", n))
    sides = [Side(folder, n, by_config[n], manifest) for n in names]
    for s in sides:
        s.label += "" if len(names) == 1 else "/%s" % s.config
        s.ran = next(what for (config, _, _), (what, _) in libs.items() if config == s.config)
        s.lib = s.lib or escaped((s.ran["library"] or "").split(",")[0])  # no run.json: the runs' headers say it
    return sides, unfinished


def first_header(path):  # a run's header record, or None
    objs = read_objects(path, Problems())
    return objs[0][1] if objs and objs[0][1]["type"] == "header" else None


# What umbench writes in a results folder besides run.json and the runs'
# files: umb-run's lock, and a search's (umb-tune runs its rounds there).
OWN = {LOCK, ".umb-tune.lock", "tune.json", "pilot"}


def _result(name):  # run.json or a run's file
    return name == MANIFEST or name.endswith(".jsonl")


def ours(name):
    """A name umbench writes in a results folder (umb-run's, umb-tune's)."""
    return name in OWN or _result(name)


class Writer:
    """The one writer of a results folder, for the life of the process."""

    def __init__(self, folder, append, prog="umb-run"):
        self.new_folders = first_missing(folder)  # what give_up may remove
        not_elsewhere(folder, ours, _result)
        self.folder, self.prog, self.made, self.lost = out_folder(folder), prog, [], None  # lost: why it is not ours any more
        try:  # held (O_PATH): at() opens through it
            self.dir = os.open(self.folder, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as e:  # gone since it was made
            raise Fail("--out %s: cannot open the folder (%s)" % (folder, e.strerror or e))
        self.taken, self.lock = os.fstat(self.dir), hold_lock(self.folder, LOCK, prog)  # the stat first: see a swap between
        self.manifest = read_manifest(folder)
        files = result_files(folder)
        held = self.manifest is not None or files
        if held and not append:
            n = len(self.manifest.get("runs", [])) if self.manifest else len(files)
            raise Fail("--out %s: already holds results (%d runs); choose a new folder, or add to it with --append" % (folder, n))
        if append and held and self.manifest is None:
            raise Fail("--out %s: holds result files but no %s; --append adds only to a folder umb-run wrote" % (folder, MANIFEST))

    def new_file(self, name):
        """Creates a run's file under a name no other run has; returns the name."""
        self.check_there()  # never in a folder put in its place
        base, n = name[:-len(".jsonl")], 1
        listed = {r["file"] for r in (self.manifest or {}).get("runs", [])}
        while True:
            if name not in listed:
                try:
                    os.close(os.open(self.at(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                    self.made.append(name)
                    return name
                except FileExistsError:
                    pass
                except OSError as e:
                    raise Fail("%s: cannot make it (%s)" % (self.path(name), e.strerror or e))
            n += 1
            name = "%s.%d.jsonl" % (base, n)

    def path(self, name):  # as a user reads it
        return os.path.join(self.folder, name)

    def at(self, name):
        """NAME in the folder this writer holds, wherever it is now: its own files are opened there,
        never in a folder put in its place between a check and a write (CI beside a build wrote
        run.json into one)."""
        return "/proc/self/fd/%d/%s" % (self.dir, name)

    def end_file(self, name, line):
        """umb-run's "run" line, last in the file: its round, configuration,
        status, and whether it finished (readers count only those)."""
        self.check_there()
        text = schema.dumps(dict(line, type="run"), "result", self.path(name), "a run line its readers take")
        try:
            with open(self.at(name), "a") as f:
                f.write(text + "\n")
        except OSError as e:
            raise Fail("%s: cannot write it (%s); %s keeps the runs it listed before" % (
                self.path(name), e.strerror or e, self.path(MANIFEST)))

    def save(self, manifest):
        self.check_there()
        write_whole(self.path(MANIFEST), manifest, "run", "; it keeps the runs it listed before", self.at(MANIFEST))
        self.manifest = manifest

    def there(self):
        """Whether the folder and its lock are the ones this writer took; once not, never again."""
        if self.lost is None and not same(self.folder, self.taken):
            self.lost = ("the results folder was moved or removed while %s wrote it; the runs it had finished are listed "
                         "in its run.json, wherever it went" % self.prog)
        if self.lost is None and not same(self.path(LOCK), os.fstat(self.lock)):
            self.lost = ("its lock %s was removed or replaced while %s wrote it (another could write the folder too); "
                         "the runs it had finished are listed in its run.json" % (LOCK, self.prog))
        return self.lost is None

    def check_there(self):
        """A folder moved, removed or replaced (written no more) is said as such, not as a full disk."""
        if not self.there():
            raise Fail("--out %s: %s" % (self.folder, self.lost))

    def give_up(self):
        """Refused before anything was written: the folder goes as it came (one put in its place stays)."""
        if self.there():
            leave_untouched(self.folder, LOCK, self.new_folders)

    def undo(self, manifest):
        """Puts the folder back as before this writer (an --append refused): its files removed, its run.json."""
        for name in self.made:
            with contextlib.suppress(OSError):
                os.remove(self.at(name))
        self.save(manifest)
