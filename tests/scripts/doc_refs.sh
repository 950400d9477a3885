#!/bin/sh
# Every document a file of the project cites is in the project (issue 50):
# a relative link of a Markdown page resolves to a file or folder, every
# page or result under docs/ that a source, script, test or page
# names exists, and no file cites the design contract by the name it has
# outside the repository (its figures and rules are docs/reference.md).
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
"$PYTHON3" - "$top_srcdir" <<'PY' || fail "a citation of a document that is not in the project (above)"
import os, re, sys
top = sys.argv[1]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")  # [text](path), inline
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]: *<?([^>\s#]+)", re.M)  # [label]: path, a reference's definition
HREF = re.compile(r"""(?:href|src)=["']([^"'#]+)""")  # HTML in a page
NAMED = re.compile(r"\bdocs/[A-Za-z0-9_./-]*[A-Za-z0-9_-](?:\.md|\.txt|\.json|\.png|/)")
OUTSIDE = "DESIGN" + ".md"  # spelled so that this file does not cite it
TEXT = (".c", ".h", ".cu", ".py", ".sh", ".md", ".am", ".ac", ".in", ".lua", ".txt")
SKIP = {".git", "build", "autom4te.cache", "_build"}
bad = []
for root, dirs, files in os.walk(top):
    dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith(("umbench-", ".carry"))]
    rel_root = os.path.relpath(root, top)
    logs = (rel_root + os.sep).startswith(os.path.join("docs", "results") + os.sep)
    scripts = rel_root in ("scripts", os.path.join("tests", "gpu"), os.path.join("tests", "tools"))
    for name in files:
        if logs and not name.endswith(".md"):
            continue  # kept logs quote what the machines printed
        path = os.path.join(root, name)
        if not name.endswith(TEXT) and not scripts:
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        where = os.path.relpath(path, top)
        if OUTSIDE in text:
            bad.append("%s: cites %s, which is not in the project (docs/reference.md holds what it said)" % (where, OUTSIDE))
        if name.endswith(".md"):
            for target in LINK.findall(text) + REFERENCE.findall(text) + HREF.findall(text):
                if re.match(r"[a-z]+:", target):
                    continue
                if not os.path.exists(os.path.normpath(os.path.join(root, target))):
                    bad.append("%s: links to %s, which is not there" % (where, target))
        for cited in set(NAMED.findall(text)):
            if not os.path.exists(os.path.join(top, cited)):
                bad.append("%s: names %s, which is not there" % (where, cited))
for line in sorted(bad):
    print(line)
sys.exit(1 if bad else 0)
PY
