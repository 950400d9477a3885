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
exit 0
