#!/bin/sh
# The README's blocks as a newcomer pastes them into a terminal (issue 47):
# a launcher (mpirun, mpiexec, srun, jsrun) hands its standard input to a
# rank, so a launcher line with lines after it in its block must read no
# terminal: </dev/null on it, or inside a { ... } </dev/null group. Then
# .ci/run's block runner (where the tree has it: not in a dist tarball)
# on small blocks: the lines a program eats fail the block, a line's
# failure fails it, 77 skips it, cd and export carry on.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
"$PYTHON3" - "$top_srcdir/README.md" <<'PY' || fail "README: a launcher line that would eat the lines pasted after it (above)"
import re, sys
launcher = re.compile(r"^\s*(\w+=\S*\s+)*(mpirun|mpiexec|srun|jsrun)\b")
bad, block = [], None
for i, line in enumerate(open(sys.argv[1]), 1):
    if block is None:
        block = [] if line.rstrip() == "```sh" else None
        continue
    if line.rstrip() != "```":
        block.append((i, line.rstrip("\n")))
        continue
    code = [(k, l) for k, l in block if l.strip() and not l.lstrip().startswith("#")]
    closes, stack = {}, []  # each group's opening line: whether its closing line gives it </dev/null
    for k, l in code:
        if re.match(r"^\s*[{(]\s*(#.*)?$", l):
            stack.append(k)
        elif re.match(r"^\s*[})]", l) and stack:
            closes[stack.pop()] = "</dev/null" in l.split("#")[0]
    open_ = []  # the groups a line is in: True for each that reads no terminal
    for j, (k, l) in enumerate(code):
        if re.match(r"^\s*[{(]\s*(#.*)?$", l):
            open_.append(closes.get(k, False)); continue
        if re.match(r"^\s*[})]", l) and open_:
            open_.pop(); continue
        last = j == len(code) - 1
        if launcher.match(l) and not last and "</dev/null" not in l.split("#")[0] and not any(open_):
            bad.append("README.md:%d: %s" % (k, l.strip()))
    block = None
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
# Each line of each block made to fail in turn: the line becomes `false`
# (its && or || kept), a DEBUG trap (extdebug: a command it refuses is not
# run) skips every other command, as if those before had succeeded, and
# notes any that a later line would have run; the last line says the
# shell is still open (no set -e, no exit closed it).
"$PYTHON3" - "$top_srcdir/README.md" "$tmp" <<'PY' || fail "README: a block that runs on after a failing line, or closes the terminal (above)"
import os, re, subprocess, sys
readme, tmp = sys.argv[1], sys.argv[2]
GROUP = re.compile(r"^\s*([{(]\s*(#.*)?|[})]\s*(<\s*\S+\s*)?(&&|\|\|)?\s*(#.*)?)$")
GATE = r'''__umb_failed=$1 __umb_log=$2
shopt -s extdebug
set -T
__umb_gate() {  # LINENO COMMAND: only the failed line's false, set and the last line run
    case $2 in "false __umb_failed_line"*) echo "line made to fail: $2"; return 0 ;; "echo __umb_shell_open"|set\ *) return 0 ;; esac
    [ "$1" -le "$__umb_failed" ] || echo "line $1: $2" >>"$__umb_log"
    return 1
}
trap '__umb_gate "$LINENO" "$BASH_COMMAND"' DEBUG
'''
FIRST = GATE.count("\n") + 1  # the script's line of a block's first line


def sh_blocks(path):
    """(README line of its first line, its lines) of every sh block"""
    found, block, start = [], None, 0
    for i, line in enumerate(open(path), 1):
        if block is None:
            block, start = ([], i + 1) if line.rstrip() == "```sh" else (None, 0)
        elif line.rstrip() == "```":
            found.append((start, block))
            block = None
        else:
            block.append(line.rstrip("\n"))
    return found


def failed(lines, k, at):
    """lines with line k made to fail: `false`, its indent and its joining && || | kept"""
    m = re.match(r"^(\s*).*?(&&|\|\||\|)?\s*(\s#\s.*)?$", lines[k])
    return lines[:k] + ["%sfalse __umb_failed_line_%d %s" % (m.group(1), at, m.group(2) or "")] + lines[k + 1:]


bad, tried = [], 0
log = os.path.join(tmp, "ran")
for start, lines in sh_blocks(readme):
    for k, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#") or GROUP.match(line):
            continue
        if not os.path.exists(os.path.join(tmp, "first-%d.sh" % start)):  # for .ci/run's runner, below
            open(os.path.join(tmp, "first-%d.sh" % start), "w").write("\n".join(failed(lines, k, start + k)) + "\n")
        open(log, "w").close()
        script = GATE + "\n".join(failed(lines, k, start + k)) + "\necho __umb_shell_open\n"
        out = subprocess.run(["bash", "-s", str(FIRST + k), log], input=script, capture_output=True, text=True, timeout=20).stdout
        ran = open(log).read().splitlines()
        where = "README.md:%d (%s)" % (start + k, line.strip()[:60])
        tried += 1
        if "line made to fail: false __umb_failed_line_%d" % (start + k) not in out:
            bad.append("%s: made to fail, it never ran" % where)
        if ran:
            at, cmd = ran[0].split(": ", 1)
            bad.append("%s: made to fail, its block ran on: README.md:%d: %s" % (where, start + int(at.split()[1]) - FIRST, cmd))
        if "__umb_shell_open" not in out:
            bad.append("%s: made to fail, its block closed the shell (a terminal would close)" % where)
print("README: %d lines of %d blocks each made to fail in turn" % (tried, len(sh_blocks(readme))))
print("\n".join(bad))
sys.exit(1 if bad or not tried else 0)
PY
# A block stops at its first failure, so where there is no GPU only its
# first program runs: every program line of every block has its options
# checked here, an MPI program's by --check-options, a driver's by a run
# that sees no GPU (it checks its options first, then exits 77).
"$PYTHON3" - "$top_srcdir/README.md" "$top_srcdir/programs.txt" "$top_builddir" <<'PY' || fail "README: a program line whose options are refused (above)"
import os, re, shlex, subprocess, sys
readme, registry, build = sys.argv[1:4]
where = {f[0]: f[2] for f in (l.split() for l in open(registry)) if f and not f[0].startswith("#")}
bad, asked, on = [], 0, False
for i, line in enumerate(open(readme), 1):
    if line.rstrip() in ("```sh", "```"):
        on = line.rstrip() == "```sh"
        continue
    code = re.sub(r"\s#\s.*$", "", line)
    m = re.search(r"(?:^|[\s(])(?:\S*/)?(umb_[a-z_]+)((?:\s+[^\s&|<>;)]+)*)", code) if on else None
    if not m or m.group(1) not in where or "$" in m.group(2):
        continue
    prog, args = os.path.join(build, where[m.group(1)], m.group(1)), shlex.split(m.group(2))
    if not os.access(prog, os.X_OK):
        print("README.md:%d: %s is not built here (the drivers need CUDA): not checked" % (i, m.group(1)))
        continue
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    mpi = where[m.group(1)].startswith("mpi/")
    r = subprocess.run([prog] + (["--check-options"] if mpi else []) + args, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    asked += 1
    if r.returncode not in ((0,) if mpi else (0, 77)):
        bad.append("README.md:%d: %s %s: exit %d: %s" % (i, m.group(1), " ".join(args), r.returncode, (r.stderr or r.stdout).strip()[:200]))
print("README: %d program lines, their options checked" % asked)
print("\n".join(bad))
sys.exit(1 if bad or not asked else 0)
PY
ci=$top_srcdir/.ci/run
if [ ! -f "$ci" ]; then
    echo "no .ci/run here (a dist tarball): its block runner is not checked"
    exit 0
fi
sed -n "/^cat >\"\$ci\/lines\" <<'EOF'\$/,/^EOF\$/p" "$ci" | sed '1d;$d' >"$tmp/lines"
[ -s "$tmp/lines" ] || fail ".ci/run: no block runner (cat >\"\$ci/lines\" <<'EOF' ... EOF)"
paste_block() {  # paste_block WANT TEXT LINES...: the runner on LINES exits WANT and prints TEXT
    want=$1 text=$2; shift 2
    printf '%s\n' "$@" >"$tmp/block"
    rc=0; bash "$tmp/lines" "$tmp" "$tmp/block" >"$tmp/o" 2>&1 </dev/null || rc=$?
    [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/o" || { cat "$tmp/block" "$tmp/o"; fail "block runner: exit $rc (expected $want), or no '$text'"; }
}
paste_block 1 "its last lines never ran" 'echo one' 'cat >/dev/null' 'echo two'
paste_block 0 "two 5" 'echo one' 'cd /' 'export X=5' '{ cat; echo inner; } </dev/null' 'echo two $X'
paste_block 1 "README line failed (exit 2): ls /no/such/file" 'echo one' 'ls /no/such/file' 'echo two'
paste_block 1 "README line failed (exit 1): false && echo no" 'false && echo no' 'echo two'
paste_block 77 "(exit 77, skipped here:   (exit 77))" '{' '  (exit 77)' '} </dev/null' '# a comment' 'echo two'
paste_block 77 "1 line(s) exited 77" 'echo one' '(exit 77)'
paste_block 1 "README line failed (exit 1):   false &&" 'a=1 &&' '( cd / &&' '  false &&' '  echo x )' 'echo y'
# Every README block with its first line made to fail (written above): the
# runner stops there, naming that line.
for f in "$tmp"/first-*.sh; do
    [ -f "$f" ] || fail "README: no sh block"
    rc=0; bash "$tmp/lines" "$tmp" "$f" >"$tmp/o" 2>&1 </dev/null || rc=$?
    [ "$rc" -eq 1 ] && grep -qE '^README line failed \(exit 1\): *false __umb_failed_line_[0-9]+ ' "$tmp/o" \
        || { cat "$f" "$tmp/o"; fail "${f##*/}: a README block whose first line fails: the runner did not stop there naming it"; }
    grep '^README line failed' "$tmp/o"
done
exit 0
