#!/bin/sh
# The house has no circle (issue 34): between the files of util/mpi, util/gpu
# and util/core, a file calls another only where that one calls it back
# through no chain. Read from the objects' symbols (nm), so a call is a
# call, not a name in a comment. And no C source of the house (util/, mpi/,
# c/) has more than 400 lines.
. "$top_srcdir/tests/lib.sh"
command -v nm >/dev/null || skip "no nm"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
# The families and observers sit in folders of their own under util/mpi
# (docs/architecture.md): every folder below the three libraries counts.
(cd "$top_builddir" && find util/mpi util/gpu util/core -name '*.o' | sort) | while read -r o; do
    f=$(basename "$o" .o); f=$(dirname "$o")/${f#lib*_a-}
    nm "$top_builddir/$o" | awk -v f="$f" 'NF == 3 && $2 ~ /^[TDRB]$/ { print "def", f, $3 } NF == 2 && $1 == "U" { print "use", f, $2 }'
done >"$tmp/syms"
[ "$(grep -c '^def util/mpi/bench ' "$tmp/syms")" -gt 0 ] || fail "no symbols of util/mpi/bench.o (not built?)"
"$PYTHON3" - "$tmp/syms" <<'PY' || fail "a circle between files (above)"
import sys
where, edges = {}, {}
lines = [l.split() for l in open(sys.argv[1])]
for kind, f, sym in lines:
    if kind == "def":
        where[sym] = f
for kind, f, sym in lines:
    if kind == "use" and sym in where and where[sym] != f:
        edges.setdefault(f, set()).add(where[sym])
def circle(start):
    stack, path = [(start, iter(sorted(edges.get(start, ()))))], [start]
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop(); path.pop(); continue
        if nxt in path:
            return path[path.index(nxt):] + [nxt]
        stack.append((nxt, iter(sorted(edges.get(nxt, ()))))); path.append(nxt)
    return None
found = next((c for c in map(circle, sorted(edges)) if c), None)
n = sum(len(v) for v in edges.values())
if found:
    print("circle: " + " -> ".join(found)); sys.exit(1)
print("%d calls between %d files, no circle" % (n, len(edges)))
PY
long=$(cd "$top_srcdir" && find util mpi c \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -exec wc -l {} + | awk '$2 != "total" && $1 > 400')
[ -z "$long" ] || fail "over 400 lines: $long"
exit 0
