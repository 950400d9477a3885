#!/bin/sh
# The point-to-point programs over the p2p descriptor (util/mpi/p2p/p2p.c)
# print what they printed as files of their own: each run's program-made
# lines (Loop, Units, Window, Pairs, the column titles) and the JSON's
# header fields, record types, row keys, sizes and validation, against
# tests/data/p2p/recorded.txt, recorded from the four files before the
# move. Timings and the machine's own facts are left aside.
# UMB_RECORD=FILE writes the file instead (from the build under test).
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
got=$tmp/recorded.txt
: >"$got"
shape() {  # shape LABEL: the run's program-made parts, one line each
    "$PYTHON3" - "$tmp/out" "$1" >>"$got" <<'PY' || fail "$1: cannot read the output"
import json, re, sys
text, label = open(sys.argv[1]).read().splitlines(), sys.argv[2]
if text and text[0].startswith("{"):
    objs = [json.loads(l) for l in text]
    h = objs[0]
    for k in ("program", "buffers", "nranks", "iterations", "loop", "units", "window", "window_buffers", "pairs", "validation"):
        print("%s json %s: %s" % (label, k, re.sub(r"\(umbench [^)]*\)", "(umbench)", json.dumps(h.get(k)))))
    rows = [o for o in objs if o["type"] == "result"]
    print("%s json types: %s" % (label, " ".join(o["type"] for o in objs if o["type"] != "finding")))
    print("%s json row keys: %s" % (label, " ".join(sorted(rows[0]))))
    print("%s json rows: %s" % (label, " ".join("%d:%s" % (r["size"], r["validation"]) for r in rows)))
else:
    keep = ("# Loop:", "# Units:", "# Window", "# Pairs:", "# Size", "# Iterations:", "# Validation:")
    for l in text:
        if l.startswith(keep):
            print("%s table: %s" % (label, " ".join(l.split())))
    print("%s table rows: %s" % (label, " ".join(l.split()[0] for l in text if l[:1].isdigit())))
PY
}
for path in $(programs_of pt2pt); do
    prog=${path##*/}
    for how in "-m 1:64 -i 20 -x 2" "-m 1:64 -i 20 -x 2 -f" "-m 1:64 -i 20 -x 2 --format json" "-m 8:32 -i 20 -x 2 -c --format json" \
               "-m 4:4 -i 20 -x 2 -W 4 -c" "-m 8:8 -i 10 --loop handshake --format json"; do
        case "$prog $how" in umb_latency*-W*) continue ;; esac
        run_mpi 2 "$PT2PT/$prog" $how H H
        expect_rc 0 "$prog $how H H"
        shape "$prog $how"
    done
done
run_mpi 4 "$PT2PT/umb_mbw_mr" -m 1:16 -i 10 -x 1 -c --format json H H
expect_rc 0 "umb_mbw_mr on 4 ranks"
shape "umb_mbw_mr 4 ranks"
if [ -n "${UMB_RECORD:-}" ]; then
    cp "$got" "$UMB_RECORD"
    exit 0
fi
want=$top_srcdir/tests/data/p2p/recorded.txt
diff "$want" "$got" >"$tmp/diff" || { cat "$tmp/diff"; fail "the point-to-point programs' output changed (above: < recorded, > now)"; }
echo "$(wc -l <"$got") lines of program-made output, as recorded"
