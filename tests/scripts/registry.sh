#!/bin/sh
# The registry of programs (programs.txt) is the one list: the build's
# programs.am is made from it and current, every program's source is
# there and no program file is outside it, the built MPI programs are the
# registry's (those that take several pairs its pt2pt and rma families),
# umb-run's full set and the README's list name each one, and
# programs-am.sh refuses a malformed line in one line, exit 1.
. "$top_srcdir/tests/lib.sh"
reg=$top_srcdir/programs.txt
sh "$top_srcdir/programs-am.sh" "$reg" >"$tmp/am" || fail "programs-am.sh on programs.txt"
cmp -s "$tmp/am" "$top_srcdir/programs.am" || { diff "$tmp/am" "$top_srcdir/programs.am"; fail "programs.am is not programs.txt's: run autogen.sh"; }
registry | awk '{ print $3 "/" $1 }' | sort >"$tmp/listed"
[ "$(wc -l <"$tmp/listed")" -ge 12 ] || fail "programs.txt lists fewer than 12 programs"
while read -r p; do
    [ -f "$top_srcdir/$p.c" ] || fail "programs.txt lists $p, but $p.c is not there"
done <"$tmp/listed"
# Every program file in the tree is listed.
(cd "$top_srcdir" && ls mpi/*/umb_*.c c/umb_*.c) | sed 's/\.c$//' | sort >"$tmp/files"
comm -13 "$tmp/listed" "$tmp/files" >"$tmp/unlisted"
[ ! -s "$tmp/unlisted" ] || { cat "$tmp/unlisted"; fail "program files that programs.txt does not list"; }
# The MPI programs are built where the registry says.
for p in $(mpi_programs); do
    [ -x "$top_builddir/$p" ] || fail "$p: in programs.txt, not built"
done
# umb-run knows from the registry which programs take several pairs in one
# launch (the families pt2pt and rma, programs.PAIR_FAMILIES): exactly the
# built ones that take two pairs.
for p in $(mpi_programs); do
    "$top_builddir/$p" --check-options H H H H >/dev/null 2>&1 && echo "${p##*/}"
done >"$tmp/takes"
programs family=pt2pt,rma | cmp -s - "$tmp/takes" || { cat "$tmp/takes"; fail "the programs that take several pairs are not programs.txt's pt2pt and rma"; }
# The README names every program; umb-run's full set runs every MPI program.
for n in $(registry | awk '{ print $1 }'); do
    grep -q "\`$n\`" "$top_srcdir/README.md" || fail "README.md does not name $n"
done
if [ -n "${PYTHON3:-}" ]; then
    "$PYTHON3" - "$top_srcdir/scripts" <<'PY' >"$tmp/full" || fail "umb-run's full set"
import re, sys
sys.path.insert(0, sys.argv[1])
from umbench import sets
print("\n".join(sorted({p for p, _, _ in sets.commands("full", re.compile(""), [])})))
# The quick and full sets place with a prefetch (docs/method.md, "Which
# placement the sets use"), before the user's options, which may say otherwise.
for name in ("quick", "full"):
    for p, pair, args in sets.commands(name, re.compile(""), ["--place-with", "kernel"]):
        at = [i for i, a in enumerate(args) if a == "--place-with"]
        assert [args[i + 1] for i in at] == ["prefetch", "kernel"], (name, p, pair, args)
PY
    mpi_programs | sed 's|.*/||' | sort | cmp -s - "$tmp/full" || { cat "$tmp/full"; fail "umb-run --set full is not every MPI program of programs.txt"; }
fi
# A malformed registry: one line naming the line, exit 1.
printf 'umb_x pt2pt mpi/pt2pt 3 mpi -\n' >"$tmp/bad.txt"
rc=0; sh "$top_srcdir/programs-am.sh" "$tmp/bad.txt" >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$tmp/bad.txt:1: ranks 3: not 1, 2, even or any" "$tmp/err" \
    || { cat "$tmp/err"; fail "programs-am.sh on a bad ranks column (exit $rc)"; }
# One reader of programs.txt per language: programs.sh for the shell (the
# build, the tests, the GPU run), scripts/umbench/programs.py for Python. No
# other shell file reads the file itself, and none writes a program list or
# a folder glob of programs by hand: a list is a query of the registry, so a
# new program is in every list that is of its kind. A few programs chosen
# by name (e.g. the results page's picks) say so: "# selection:" and why.
names=$(programs | paste -sd '|' -)
# The tracked files, or every file where git tracks none here: make
# distcheck's tree is unpacked inside the checkout, where git ls-files
# succeeds and lists nothing.
(cd "$top_srcdir" && git ls-files 2>/dev/null) >"$tmp/all"
[ -s "$tmp/all" ] || (cd "$top_srcdir" && find . -type f | sed 's|^\./||') >"$tmp/all"
grep -E '^(tests|scripts|\.ci|reframe-checks)/|^[^/]*\.sh$|^tests/gpu/run-' "$tmp/all" | grep -v -E '^tests/data/|\.(md|txt|json|c|h|cu|in|png)$' \
    | grep -v -x -E 'programs\.sh|tests/scripts/registry\.sh' | sort -u >"$tmp/shell"
[ "$(wc -l <"$tmp/shell")" -ge 20 ] || fail "found $(wc -l <"$tmp/shell") shell files to check"
: >"$tmp/hand"
# Two names in a row, spaced or in a tuple, with or without their folders
# ("umb_bw umb_bibw", "mpi/pt2pt/umb_latency mpi/collective/umb_bcast",
# ("umb_latency", "umb_bw")), in shell and Python alike; a selection says
# so on its line or the line above.
list="(^|[^A-Za-z0-9_/])([A-Za-z0-9_]+/)*($names)[\"']?[ ,]+[\"']?([A-Za-z0-9_]+/)*($names)([^A-Za-z0-9_.]|\$)"
while read -r f; do
    [ -f "$top_srcdir/$f" ] || continue
    case $f in *.py) ;; *) grep -nE '^[^#]*(awk|sed|grep|cat|read|<).*/programs\.txt"?( *$| *[|;)<])' "$top_srcdir/$f" | sed "s|^|$f: reads programs.txt: |" >>"$tmp/hand" ;; esac
    awk -v re="^[^#]*$list" '$0 ~ re && !/# selection:/ && prev !~ /# selection:/ { print FNR ":" $0 } { prev = $0 }' "$top_srcdir/$f" \
        | sed "s|^|$f: a list by hand: |" >>"$tmp/hand"
    grep -nE '^[^#]*/umb_\*([" ;)]|$)' "$top_srcdir/$f" | sed "s|^|$f: a folder glob: |" >>"$tmp/hand"
done <"$tmp/shell"
# Python reads the registry through scripts/umbench/programs.py alone.
grep -n 'programs\.txt' $(grep -E '\.py$' "$tmp/shell" | sed "s|^|$top_srcdir/|") | grep -v -E '^[^:]*/scripts/umbench/programs\.py:' \
    | grep -E 'open\(|join\(' | sed 's|^|reads programs.txt: |' >>"$tmp/hand"
[ ! -s "$tmp/hand" ] || { cat "$tmp/hand"; fail "programs written by hand, or programs.txt read outside programs.sh (above)"; }
# The reader's queries: every field, several values, DIR/NAME, a refusal.
[ "$(programs family=rma ranks=2 needs=mpi | paste -sd ' ' -)" = "$(registry | awk '$2 == "rma" { print $1 }' | paste -sd ' ' -)" ] \
    || fail "programs family=rma ranks=2 needs=mpi: $(programs family=rma ranks=2 needs=mpi)"
[ "$(programs name=umb_bw,umb_bcast --path | paste -sd ' ' -)" = "mpi/pt2pt/umb_bw mpi/collective/umb_bcast" ] \
    || fail "programs name=umb_bw,umb_bcast --path: $(programs name=umb_bw,umb_bcast --path)"
[ "$(programs family=driver | wc -l)" -ge 3 ] && [ -z "$(programs family=driver needs=mpi)" ] || fail "programs family=driver (needs=mpi)"
rc=0; programs famly=rma >"$tmp/o" 2>"$tmp/e" || rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -qF 'famly=rma: expected FIELD=VALUE' "$tmp/e" \
    || { cat "$tmp/e"; fail "programs famly=rma: exit $rc, not one line naming it"; }
[ "$(window_programs "$top_builddir" | paste -sd ' ' -)" = "umb_bw umb_bibw" ] \
    || fail "window_programs: $(window_programs "$top_builddir")"
exit 0
