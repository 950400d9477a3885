#!/bin/sh
# The scripts' package and commands: pyflakes finds nothing (unused or
# undefined names, bad format strings), no module over 300 lines and no
# function over 60 (docs/decisions.md, "The scripts' package"); shellcheck
# finds nothing in any shell script under scripts/ (known by its first
# line, so a new one is checked too) nor in .ci/run. Skipped without
# pyflakes, a failure when UMB_NEED_LINT=1 (as in CI), as is a missing
# shellcheck. And the tests' own time limits (below).
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
S=$top_srcdir/scripts
shells=
for f in "$S"/* "$S"/*/* "$top_srcdir/.ci/run"; do
    [ -f "$f" ] && head -1 "$f" | grep -Eq '^#! */(usr/)?bin/(env +)?(ba)?sh( |$)' && shells="$shells $f"
done
[ -n "$shells" ] || fail "no shell scripts found under $S"
shells="$shells $top_srcdir/reframe-checks/gpu_slot.sh"  # sourced by ReFrame's job scripts: no #! line
if command -v shellcheck >/dev/null; then
    shellcheck $shells || fail "shellcheck found the above"
elif [ "${UMB_NEED_LINT:-0}" = 1 ]; then
    fail "shellcheck not installed (UMB_NEED_LINT=1)"
else
    echo "shellcheck not installed (Debian: shellcheck): shell scripts not checked"
fi
files="$S/umbench/*.py $S/umb-run $S/umb-compare $S/umb-findings $S/umb-tune $S/umb-plot $top_srcdir/reframe-checks/*.py $top_srcdir/tests/tools/overhead $top_srcdir/tests/tools/*.py $top_srcdir/tests/json_check.py $top_srcdir/tests/gpu/*.py"
files="$files $top_srcdir/tests/props/*.py"  # the property tests keep the same rules
if "$PYTHON3" -m pyflakes --version >/dev/null 2>&1; then
    "$PYTHON3" -m pyflakes $files || fail "pyflakes found the above"
elif command -v pyflakes3 >/dev/null; then
    pyflakes3 $files || fail "pyflakes found the above"
elif [ "${UMB_NEED_LINT:-0}" = 1 ]; then
    fail "pyflakes not installed (UMB_NEED_LINT=1)"
else
    skip "pyflakes not installed (Debian: pyflakes3)"
fi
# Every Python file it reads keeps the sizes, ReFrame's checks and the
# test tools too (judge.py, umbench_checks.py and overhead had grown past
# them where the rule did not look).
"$PYTHON3" - $files <<'PY' || fail "a module or function over its size (above)"
import ast, sys
bad = []
# ReFrame reads its checks from the one file -c names (docs/decisions.md,
# "The scripts' package"): that file may hold 400 lines.
for path in sys.argv[1:]:
    text = open(path).read()
    if text.count("\n") > (400 if path.endswith("/reframe-checks/umbench_checks.py") else 300):
        bad.append("%s: %d lines" % (path, text.count("\n")))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 60:
            bad.append("%s:%d: %s has %d lines" % (path, node.lineno, node.name, node.end_lineno - node.lineno + 1))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# The package is layered (issue 68): each module stands above what it
# imports, 7 levels at most, with no cycle; and only run.py holds the run
# (no other module's function takes it, nor calls run.SOMETHING).
"$PYTHON3" - "$top_srcdir"/scripts/umbench/*.py <<'PY' || fail "the package's layers (above)"
import ast, os, re, sys
imports, bad, level = {}, [], {}
for path in sys.argv[1:]:
    name, tree = os.path.basename(path)[:-3], ast.parse(open(path).read())
    imports[name] = {n.module.split(".")[0] if n.module else a.name for n in ast.walk(tree)
                     if isinstance(n, ast.ImportFrom) and n.level == 1 for a in n.names} - {name}
    if name != "run":
        bad += ["%s:%d: %s takes the run" % (path, n.lineno, n.name) for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef) and "run" in [x.arg for x in n.args.args]]
        bad += ["%s: calls back the run (%s)" % (path, m) for m in re.findall(r"(?<![-\w])run\.(?!json|py|schema|lock)[a-z_]+\(?", open(path).read())]


def height(m, seen=()):
    if m in seen:
        sys.exit("an import cycle: %s" % " > ".join(seen + (m,)))
    if m not in level:
        level[m] = 1 + max([height(x, seen + (m,)) for x in imports[m] if x in imports] or [0])
    return level[m]


top = max(imports, key=height)
bad += ["%s stands %d levels high (7 at most)" % (top, level[top])] if level[top] > 7 else []
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# The tests' own limits hold on a busy machine (docs/hardening.md, "Tests
# on a busy machine"): a --run-limit under 30 s stops only what never ends
# or a stand-in, and the comments just above it say so ("below 30 s").
"$PYTHON3" - "$top_srcdir"/tests/*/*.sh <<'PY' || fail "a --run-limit under 30 s without its reason (above)"
import re, sys
bad = []
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        for v in re.findall(r"--run-limit[ =]([0-9.]+)", line):
            above = " ".join(lines[max(0, i - 12):i + 1]).lower()
            if 0 < float(v) < 30 and "below 30 s" not in above:  # 0 is refused: nothing runs
                bad.append("%s:%d: --run-limit %s" % (path, i + 1, v))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# Tests kill only what they started (docs/hardening.md, "Tests on a busy
# machine"): a pkill or killall names its processes by the test's own folder
# (a variable), never by a bare pattern that another test, another build's
# run of the same test, or a user's own program can match.
"$PYTHON3" - "$top_srcdir"/tests/*/*.sh "$top_srcdir"/tests/gpu/sections/*.sh "$top_srcdir"/tests/gpu/run-* <<'PY' || fail "a pkill or killall of a bare pattern (above)"
import re, sys
bad = []
for path in [p for p in sys.argv[1:] if not p.endswith("/lint.sh")]:  # this check names them
    for i, line in enumerate(open(path, encoding="utf-8", errors="replace").read().split("\n")):
        code = line.split("#", 1)[0]
        for m in re.finditer(r"\b(pkill|killall)\b([^;|&]*)", code):
            if "$" not in m.group(2):
                bad.append("%s:%d: %s" % (path, i + 1, line.strip()))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# No source the project needs is ignored by git (tests/tools/*.py were: the
# working tree ran, a clean clone had no overhead_idle.py). Checked in a
# git checkout of the sources alone: make distcheck's tree sits inside an
# ignored build folder, and a build made in the source tree itself (CI's
# host-only one) leaves its products there (config.h, tests/tools/mpi_bare).
if [ "$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top_srcdir" && pwd -P)" ] \
    && [ ! -f "$top_srcdir/config.status" ]; then
    git -C "$top_srcdir" ls-files --others --ignored --exclude-standard | grep -v -E '^(\.|build[^/]*/|build-aux/|autom4te\.cache/|results/|umbench-|scripts/umbench\.egg-info/)' \
        | grep -E '\.(c|h|cu|py|sh|md|lua|json|txt)$|^(tests/tools|scripts)/[^./]*$' >"$tmp/ignored" || true
    [ ! -s "$tmp/ignored" ] || { cat "$tmp/ignored"; fail "sources that .gitignore hides from a clone (above)"; }
fi
# Every module of the scripts' package is installed and distributed: a
# module the list in Makefile.am misses works from the source tree and
# breaks the installed commands and make distcheck (pairs.py and records.py
# were missing from it when they were added).
for m in "$top_srcdir"/scripts/umbench/*.py; do
    grep -q "scripts/umbench/${m##*/}\b" "$top_srcdir/Makefile.am" || fail "${m#"$top_srcdir"/}: not in Makefile.am's pkgpython_PYTHON"
done
# A test outside tests/scripts that runs a Python command (the tree's or
# an installed one) skips in one line where no Python has jsonschema,
# through tests/lib.sh's needs_scripts, as the scripts' tests do (issue 67):
# else it fails on a machine where only the C and GPU tests can run.
for t in $(grep -oE 'tests/[A-Za-z0-9_/.-]+\.sh' "$top_srcdir/Makefile.am" | sort -u | grep -v '^tests/scripts/'); do
    grep -v '^[[:space:]]*#' "$top_srcdir/$t" | grep -Eq '(scripts/|^[[:space:]]*|[;&|(][[:space:]]*)umb-(run|compare|findings|tune|plot)([[:space:]"]|$)' || continue
    grep -q '^[[:space:]]*needs_scripts\b' "$top_srcdir/$t" || fail "$t runs a Python command (umb-run and the others) but does not call needs_scripts (tests/lib.sh)"
done
exit 0
