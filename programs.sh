# The shell's one reader of the registry of programs, programs.txt (the
# Python one is the scripts package's programs module; docs/decisions.md, "The
# registry of programs"). Sourced, with $programs_txt its path, by
# programs-am.sh (the build), tests/lib.sh (the tests) and
# tests/gpu/run-lib.sh (the GPU machine's run): a program list in a test or
# script is a query here, never names or a folder glob written by hand.

# registry: the registry's lines, comments and blank lines left out, each
# checked: name family dir ranks needs sources. A bad line stops it with one
# line, FILE:LINE: what is wrong, and exit status 1.
registry() {
    awk '
function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
/^[ \t]*(#|$)/ { next }
{
    if (NF != 6) fail("expected 6 columns (name family dir ranks needs sources), got " NF)
    if ($2 !~ /^(pt2pt|rma|collective|driver)$/) fail("family " $2 ": not pt2pt, rma, collective or driver")
    if ($4 !~ /^(1|2|even|any)$/) fail("ranks " $4 ": not 1, 2, even or any")
    if ($5 !~ /^(mpi|gpu)$/) fail("needs " $5 ": not mpi or gpu")
    if (seen[$1]++) fail($1 " listed twice")
    print $1, $2, $3, $4, $5, $6
}
' "${programs_txt:?programs.sh: set programs_txt to the registry, programs.txt}"
}

# programs [FIELD=VALUE[,VALUE...]]... [--path]: the names of the programs
# whose FIELD (name, family, dir, ranks, needs) is one of the VALUEs, for
# every FIELD given, in the registry's order; with --path, DIR/NAME (where
# the source and the build put it). E.g. programs family=pt2pt,rma ranks=2.
programs() {
    registry | awk -v q="$*" '
BEGIN {
    split("name family dir ranks needs", col, " ")
    for (i = 1; i <= 5; i++) at[col[i]] = i
    n = split(q, w, " ")
    for (i = 1; i <= n; i++) {
        if (w[i] == "--path") { path = 1; continue }
        eq = index(w[i], "=")
        field = substr(w[i], 1, eq - 1)
        if (eq < 2 || !(field in at)) {
            print "programs: " w[i] ": expected FIELD=VALUE[,VALUE...] with FIELD name, family, dir, ranks or needs, or --path" > "/dev/stderr"
            exit 1
        }
        want[at[field]] = "," substr(w[i], eq + 1) ","
    }
}
{
    for (c in want) if (index(want[c], "," $c ",") == 0) next
    print path ? $3 "/" $1 : $1
}'
}

# window_programs BUILD: the two-rank point-to-point programs that send a
# window of messages (-W, the bandwidth programs), as the build BUILD's
# programs say in their --help.
window_programs() {
    for p in $(programs family=pt2pt ranks=2 --path); do
        "$1/$p" --help 2>&1 | grep -q -- '-W' && echo "${p##*/}"
    done
}
