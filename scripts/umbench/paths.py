"""The folders and files a command writes or reads by name: made, checked
and locked here, each refusal one line (cli.Fail)."""
import contextlib
import errno
import fcntl
import os
import stat
import tempfile

from . import schema
from .fail import Fail
from .shown import clip, escaped, shown


def out_folder(path, option="--out"):
    """Makes the folder a command writes into, or says in one line why not."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise Fail("%s %s: not a folder" % (option, path))
    # A link that leads nowhere (dangling, or a loop) is neither a folder nor
    # a free name: makedirs said "File exists", which sends the user looking
    # for a folder that is not there.
    if os.path.islink(path) and not os.path.exists(path):
        raise Fail("%s %s: a symbolic link to %s, which leads to no folder (dangling, or a loop); "
                   "give a folder, or a name that is free" % (option, path, os.readlink(path)))
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise Fail("%s %s: cannot make the folder (%s)" % (option, path, e.strerror or e))
    if not os.access(path, os.W_OK | os.X_OK):
        raise Fail("%s %s: the folder is not writable" % (option, path))
    return path


def out_file(path, option):
    """Checks that a file can be written there before any work is done."""
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise Fail("%s %s: a folder, expected a file name" % (option, path))
    if os.path.exists(path) and not os.path.isfile(path):
        raise Fail("%s %s: not a regular file" % (option, path))
    if not os.path.isdir(folder):
        raise Fail("%s %s: no folder %s" % (option, path, folder))
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise Fail("%s %s: not writable" % (option, path))
    try:  # access() answers for permissions only (root may "write" in /proc): a file made there says
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        raise Fail("%s %s: cannot write a file in %s (%s)" % (option, path, folder, e.strerror or e))
    return path


def in_folders(text, option):
    """Folders separated by ':' (--bindir), each one a folder: checked
    before any work, so that a search does not start (and leave a folder
    behind) only for umb-run to refuse its first run."""
    for p in text.split(os.pathsep):
        if not p.strip() or not os.path.isdir(p):
            raise Fail("%s %s: %s; expected a build folder, or folders separated by '%s'"
                       % (option, shown(text), "an empty folder name" if not p.strip() else "%s is not a folder" % p, os.pathsep))
    return text.split(os.pathsep)


def distinct_folders(folders):
    """(the folders, each once however it is named: DIR, ./DIR, a link to
    it; a note for each one left out): a folder named again would count its
    runs twice. What is not a folder is kept, for the command to name it."""
    seen, out, notes = {}, [], []
    for i, f in enumerate(folders):
        st = os.stat(f) if os.path.isdir(f) else None
        key = (st.st_dev, st.st_ino) if st else i
        if key in seen:
            notes.append("%s is the same folder as %s: counted once" % (f, seen[key]))
        else:
            seen[key] = f
            out.append(f)
    return out, notes


def hold_lock(folder, name, who):
    """FOLDER/NAME locked (flock) while the process lives, its pid in it for
    a second writer's line: a killed writer leaves no lock. Never through a
    link (O_NOFOLLOW) or into a FIFO or a folder planted under its name: the
    pid went into the link's target, and a FIFO was taken for a folder
    moved away (docs/hardening.md, "What a writer opens")."""
    path = os.path.join(folder, name)
    not_regular = "--out %s: %s is not a regular file (a link, a FIFO or a folder); remove it, or choose another folder" % (folder, name)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise Fail(not_regular)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = ""
        with contextlib.suppress(OSError), open(path) as f:
            pid = f.read().strip()  # its holder writes it just after locking
        raise Fail("--out %s: in use by %s; wait for it to end, or choose another folder"
                   % (folder, "%s pid %s" % (who, pid) if pid else "another %s (its pid not yet written)" % who))
    except OSError as e:
        raise Fail(not_regular if e.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO) else
                   "--out %s: cannot lock it (%s)" % (folder, e.strerror or e))
    with contextlib.suppress(OSError):  # the lock holds without it
        os.ftruncate(fd, 0)
        os.write(fd, ("%d\n" % os.getpid()).encode())
    return fd


def same(path, st):
    """Whether PATH is the file of stat ST (device and inode): not one put
    in its place, nor moved away."""
    try:
        return os.path.samestat(os.stat(path), st)
    except OSError:
        return False


def first_missing(path):
    """The outermost folder of PATH that does not exist yet (what making
    PATH would make), or None."""
    path, missing = os.path.abspath(path), None
    while not os.path.lexists(path):
        path, missing = os.path.dirname(path), path
    return missing


def leave_untouched(folder, lock, made):
    """Where a writer ends with nothing of its own in FOLDER but its LOCK,
    the lock goes, and the folders it made (MADE: first_missing before it
    made FOLDER) where they are empty: a failure leaves no trace
    (docs/hardening.md, "Properties of the scripts")."""
    with contextlib.suppress(OSError):
        if os.listdir(folder) != [lock]:
            return
        os.remove(os.path.join(folder, lock))
        path = os.path.abspath(folder)
        while made and (path == made or path.startswith(made + os.sep)):
            os.rmdir(path)  # an OSError (not empty: another writer's) ends the walk
            path = os.path.dirname(path)


def not_elsewhere(folder, ours, results):
    """--out names a new folder, an empty one, or umbench's (OURS(name):
    a name umbench writes there; RESULTS(name): one that makes it a results
    folder): a folder of other files ($HOME, / from a batch script's
    UMB_OUT) had run.json, a lock and the runs' files written among them."""
    try:
        names = os.listdir(folder)
    except OSError:
        return  # a new name (out_folder makes it), or one out_folder names in its own line
    other = sorted(n for n in names if not ours(n))
    if other and not any(results(n) for n in names):
        raise Fail("--out %s: a folder of other files (%s%s), not a results folder; give a new folder or an empty one"
                   % (folder, escaped(clip(other[0], 60)), " and %d more" % (len(other) - 1) if len(other) > 1 else ""))


def write_whole(path, data, kind, kept="", at=None):
    """A JSON file, whole (whole_file), once it is a valid KIND: what its
    readers would refuse is not written (schema.dumps)."""
    text = schema.dumps(data, kind, path, indent=1) + "\n"
    whole_file(path, lambda f: f.write(text.encode("utf-8")), kept, at)


def whole_file(path, write, kept="", at=None):
    """PATH whole or not at all: write(f) into a temporary file, synced,
    renamed over the old one (a full disk left an empty plot behind);
    `kept` ends the refusal. at: where to write it, where not PATH (a
    held folder's, results.Writer.at)."""
    tmp, at = None, at or path
    try:  # a new name of its own (mkstemp: O_EXCL, never through a planted link)
        fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(at), suffix=".tmp", dir=os.path.dirname(at) or ".")
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
            if not f.tell():
                raise OSError(errno.ENOSPC, "nothing was written: a full disk?")
        os.replace(tmp, at)
    except OSError as e:
        if tmp:  # mkstemp made it
            with contextlib.suppress(OSError):
                os.remove(tmp)
        raise Fail("%s: cannot write it (%s)%s" % (path, e.strerror or e, kept))
