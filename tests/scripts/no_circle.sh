#!/bin/sh
# The house has no circle (issue 34): between the files of util/mpi,
# util/drive, util/gpu and util/core, a file calls another only where that one calls it back
# through no chain. Read from the objects' symbols (nm), so a call is a
# call, not a name in a comment. A file and its header are one room, and
# an #include is an arrow too (issue 50): an observer that includes the
# sweep's header while the sweep calls it runs back up the house. And no
# C source of the house (util/, mpi/, c/) has more than 400 lines, no
# function more than 60 and no program's file more than 60.
. "$top_srcdir/tests/lib.sh"
command -v nm >/dev/null || skip "no nm"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
# The families and observers sit in folders of their own under util/mpi
# (docs/architecture.md): every folder below the three libraries counts.
(cd "$top_builddir" && find util/mpi util/drive util/gpu util/core -name '*.o' | sort) | while read -r o; do
    f=$(basename "$o" .o); f=$(dirname "$o")/${f#lib*_a-}
    # An object whose source is gone (renamed or moved since this build
    # folder was made) is no file of the house.
    [ -f "$top_srcdir/$f.c" ] || [ -f "$top_srcdir/$f.cu" ] || continue
    nm "$top_builddir/$o" | awk -v f="$f" 'NF == 3 && $2 ~ /^[TDRB]$/ { print "def", f, $3 } NF == 2 && $1 == "U" { print "use", f, $2 }'
done >"$tmp/syms"
[ "$(grep -c '^def util/mpi/bench ' "$tmp/syms")" -gt 0 ] || fail "no symbols of util/mpi/bench.o (not built?)"
"$PYTHON3" - "$tmp/syms" "$top_srcdir" <<'PY' || fail "a circle between files (above)"
import os, re, sys
where, edges = {}, {}
lines = [l.split() for l in open(sys.argv[1])]
for kind, f, sym in lines:
    if kind == "def":
        where[sym] = f
for kind, f, sym in lines:
    if kind == "use" and sym in where and where[sym] != f:
        edges.setdefault(f, set()).add(where[sym])
# Includes: beside the including file first, then the layers' folders.
# util/gpu is not read for them yet: counters.c and cupti_um.c each include
# the other's header (issue 50, step 2).
top, dirs, includes = sys.argv[2], ("util/core", "util/gpu", "util/drive", "util/mpi"), 0
for d, _, names in [w for layer in ("util/core", "util/drive", "util/mpi") for w in os.walk(os.path.join(top, layer))]:
    for name in names:
        if not name.endswith((".c", ".h", ".cu")):
            continue
        src = os.path.relpath(os.path.join(d, name), top)
        room = os.path.splitext(src)[0]
        for inc in re.findall(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', open(os.path.join(top, src)).read(), re.M):
            for base in (os.path.dirname(src),) + dirs:
                if os.path.isfile(os.path.join(top, base, inc)):
                    to = os.path.splitext(os.path.normpath(os.path.join(base, inc)))[0]
                    if to != room:
                        edges.setdefault(room, set()).add(to); includes += 1
                    break
done = set()
def circle(start):
    stack, path = [(start, iter(sorted(edges.get(start, ()))))], [start]
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            done.add(node); stack.pop(); path.pop(); continue
        if nxt in path:
            return path[path.index(nxt):] + [nxt]
        if nxt not in done:
            stack.append((nxt, iter(sorted(edges.get(nxt, ()))))); path.append(nxt)
    return None
found = next((c for c in map(circle, sorted(edges)) if c), None)
n = sum(len(v) for v in edges.values())
if found:
    print("circle: " + " -> ".join(found)); sys.exit(1)
print("%d calls and includes (%d includes) between %d rooms, no circle" % (n, includes, len(edges)))
PY
long=$(cd "$top_srcdir" && find util mpi c \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -exec wc -l {} + | awk '$2 != "total" && $1 > 400')
[ -z "$long" ] || fail "over 400 lines: $long"
# No C function over 60 lines, as no Python one (lint.sh): counted from the
# line before its opening brace, at column 0 as the house writes it, to its
# closing one.
long=$(cd "$top_srcdir" && find util mpi c \( -name '*.c' -o -name '*.cu' \) -exec awk '
    FNR == 1 { body = 0 } /^\{/ { body = 1; start = FNR; name = prev }
    /^\}/ && body { if (FNR - start + 2 > 60) print FILENAME ": " name ": " FNR - start + 2 " lines"; body = 0 }
    { prev = $0 }' {} +)
[ -z "$long" ] || fail "functions over 60 lines: $long"
# A program, MPI or driver, is a descriptor of its family and a short main
# (docs/architecture.md): its one file holds at most 60 lines.
for p in $(programs --path); do
    n=$(wc -l <"$top_srcdir/$p.c") || fail "$p.c: not found"
    [ "$n" -le 60 ] || fail "$p.c: $n lines; a program is a descriptor of its family (at most 60)"
done
exit 0
