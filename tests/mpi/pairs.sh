#!/bin/sh
# Several buffer pairs in one launch (docs/decisions.md, "One launch for many
# pairs"): each pair writes its own header, rows and end record naming it, as
# a launch of its own would; a pair that cannot run here ends with its reason
# (status 77 in its end record) and the next one runs; the launch exits 0
# when any pair ran, 77 when none could; --pair-files puts each pair's
# output in a file of its own. Needs no GPU.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot read the JSON"

# pairs_read WANT: the end records of the last run, "BUFFERS:STATUS" each,
# are WANT; each pair that ran has one header before its rows, naming it.
pairs_read() {
    "$PYTHON3" - "$1" "$tmp/out" <<'PY' || { cat "$tmp/out" "$tmp/err"; fail "$2: the pairs' records"; }
import json, sys
want, objs = sys.argv[1], [json.loads(l) for l in open(sys.argv[2])]
ends, header, rows = [], None, 0
for o in objs:
    if o["type"] == "header":
        assert header is None and rows == 0, o
        header = o
    elif o["type"] == "result":
        assert header is not None and header["buffers"] == o["buffers"], o
        rows += 1
    elif o["type"] == "end":
        ran = o["status"] != 77
        assert (header is not None) == ran and (rows > 0) == ran and ("skipped" in o) != ran, o
        assert ran or "need a CUDA GPU" in o["skipped"] and o["skipped"].startswith(o["program"] + ": buffers " + o["buffers"]), o
        assert header is None or header["buffers"] == o["buffers"], (header, o)
        ends.append("%s:%d" % (o["buffers"], o["status"]))
        header, rows = None, 0
assert header is None, "a header without its end record"
assert " ".join(ends) == want, (ends, want)
PY
}

# With --pair-files PREFIX, umb_latency's pairs below each write to a file
# of their own, PREFIXk-SRC-DST, and nothing to standard output:
# pair_files_read puts the files in place of the standard output the
# checks read. pair_files_alone: each file is a launch of its pair alone
# (in $tmp/out; the timings and what they show apart; alone, the end
# record names no pair). A prefix no file can be made with is refused in
# one line before MPI_Init (--check-options: the ranks refuse every bad
# option as it does).
pair_files_read() {
    [ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "$prog --pair-files: output on standard output"; }
    [ "$(cd "$tmp" && echo pf.*)" = "pf.1-H-H pf.2-H-H" ] || { ls "$tmp"; fail "$prog --pair-files: the files' names"; }
    cat "$tmp/pf.1-H-H" "$tmp/pf.2-H-H" >"$tmp/out"
}
pair_files_alone() {
    "$PYTHON3" - "$tmp" <<'PY' || fail "$prog --pair-files: a pair's file is not a launch of the pair alone"
import json, os, sys
# The timings apart: every number but a size, count or status, the date, and findings (of the timings).
kept = ("size", "iterations", "status", "nranks")
def masked(path):
    objs = [json.loads(line) for line in open(os.path.join(sys.argv[1], path))]
    if objs[-1]["type"] == "end":
        objs[-1].pop("buffers", None)  # alone, the end record names no pair
    return [{k: "#" if k == "date" or isinstance(v, (int, float)) and k not in kept else v for k, v in o.items()}
            for o in objs if o["type"] != "finding"]
for name in ("pf.1-H-H", "pf.2-H-H"):
    assert masked(name) == masked("out"), (name, masked(name), masked("out"))
PY
    one_line 1 "umb_latency: --pair-files '': expected a path prefix" "$1" --check-options --pair-files "" H H
    one_line 1 "pair 1's file name would pass 4095 characters" "$1" --check-options --pair-files "$(printf %04100d 0)" H H
    one_line 1 "umb_latency: --pair-files $tmp/none/p.: cannot make files in $tmp/none/ (No such file or directory)" \
        "$1" --check-options --pair-files "$tmp/none/p." H H MD MD
    [ ! -e "$tmp/none" ] || fail "$prog --pair-files in no folder made it"
}

gpus=$(gpu_count)
for path in $PT2PT/umb_latency $PT2PT/umb_bw; do
    prog=${path##*/}
    files=; [ "$prog" != umb_latency ] || files="--pair-files $tmp/pf."
    # shellcheck disable=SC2086 # the option and its value are two words
    run_mpi 2 "$path" -m 8:64 -i 10 -x 1 --format json --timeout 60 $files H H H H
    expect_rc 0 "$prog H H H H"
    [ -z "$files" ] || pair_files_read
    pairs_read "H H:0 H H:0" "$prog H H H H"
    # The same rows as a launch of one pair: the sizes, keys and iterations.
    cp "$tmp/out" "$tmp/two"
    run_mpi 2 "$path" -m 8:64 -i 10 -x 1 --format json --timeout 60 H H
    "$PYTHON3" - "$tmp/two" "$tmp/out" <<'PY' || fail "$prog: a pair of two is not a launch of one"
import json, sys
two, one = ([json.loads(l) for l in open(p)] for p in sys.argv[1:])
shape = lambda objs: [(o["type"], o.get("size"), sorted(k for k in o if k != "buffers"), o.get("iterations")) for o in objs
                      if o["type"] in ("result", "end")]
assert shape(two) == 2 * shape(one), (shape(two), shape(one))
assert sorted(two[0]) == sorted(one[0]), "the headers differ in their keys"
PY
    [ -z "$files" ] || pair_files_alone "$path"
    [ "$gpus" -eq 0 ] || continue
    run_mpi 2 "$path" -m 8:8 -i 5 -x 1 --format json --timeout 60 MH MD H H D D
    expect_rc 0 "$prog MH MD H H D D without a GPU"
    pairs_read "MH MD:77 H H:0 D D:77" "$prog MH MD H H D D"
    [ "$(grep -c "^$prog: buffers .* need a CUDA GPU" "$tmp/err")" -eq 2 ] || { cat "$tmp/err"; fail "$prog: one line per skipped pair"; }
    run_mpi 2 "$path" -m 8:8 -i 5 -x 1 --format json --timeout 60 MH MH MD MD
    expect_rc 77 "$prog MH MH MD MD without a GPU"
    pairs_read "MH MH:77 MD MD:77" "$prog MH MH MD MD"
    # The table says a skipped pair's reason in its place too.
    run_mpi 2 "$path" -m 8:8 -i 5 -x 1 --timeout 60 MD MD H H
    expect_rc 0 "$prog MD MD H H (table) without a GPU"
    grep -q "^# $prog MD MD: skipped: $prog: buffers MD MD need a CUDA GPU" "$tmp/out" && [ "$(grep -c '^# Buffers: ' "$tmp/out")" -eq 1 ] \
        || { cat "$tmp/out"; fail "$prog: the table's skipped pair"; }
done

# The one-sided programs: each pair its own window.
base_flags=$mpi_flags
window_flags
run_mpi 2 "$top_builddir/mpi/rma/umb_put_latency" -m 8:64 -i 10 -x 1 --format json --timeout 60 H H H H H H
expect_rc 0 "umb_put_latency H H H H H H"
pairs_read "H H:0 H H:0 H H:0" "umb_put_latency, three pairs"
mpi_flags=$base_flags
exit 0
