#!/bin/sh
# The GPU tests' readings without a GPU: tests/gpu/judge.py's readings
# replayed on output recorded on GPU machines (tests/data/gpu, made by
# tests/gpu/run-all with UMB_GPU_RECORD): each holds as it held there, each
# has a recording, each fails on a changed copy, and every recorded field is
# named in docs/output.md (tests/gpu/replay.py). So a reading changed or a
# field renamed fails CI, not only the next GPU run.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
"$PYTHON3" "$top_srcdir/tests/gpu/replay.py" "$top_srcdir/tests/data/gpu" "$top_srcdir/docs/output.md" \
    || fail "the GPU tests' readings on recorded output (above)"
# Bad use and bad files (adversarial pass 7): one line each, exit 2 for a
# wrong count of arguments, 1 for a file a reading cannot hold; a rate that
# is no number fails the reading.
J=$top_srcdir/tests/gpu/judge.py
printf '[1, 2]\n' >"$tmp/list"
"$PYTHON3" -c "print('[' * 100000)" >"$tmp/deep"
pum=$top_srcdir/tests/data/gpu/h200x1/physics/001-physics-um
sed 's/"run1_gibs":[0-9.]*/"run1_gibs":NaN/' "$pum/f4" >"$tmp/nan"
for case in "2|um-rows 3" "2|copy-all" "1|physics-um $tmp/list" "1|copy-all $tmp/deep" \
        "1|physics-um $pum/f1 $pum/f2 $pum/f3 $tmp/nan $pum/f5 $pum/f6 $pum/f7"; do
    rc=0
    # shellcheck disable=SC2086 # the reading and its files, split on purpose
    "$PYTHON3" "$J" ${case#*|} >/dev/null 2>"$tmp/err" || rc=$?
    [ "$rc" -eq "${case%%|*}" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q Traceback "$tmp/err" \
        || { cat "$tmp/err"; fail "judge.py ${case#*|}: exit $rc, expected ${case%%|*} and one line"; }
done
# --take into a machine that already has recordings (2026-11-29: the second
# run of a machine stopped on the first one's 001-...): the calls it takes
# are numbered after those there, which stay as they were.
R=$top_srcdir/tests/gpu/replay.py
mkdir -p "$tmp/take/rec/h200x1/physics" "$tmp/take/data/h200x1"
cp -R "$top_srcdir/tests/data/gpu/h200x4/physics/005-physics-um" "$tmp/take/rec/h200x1/physics/001-physics-um"
cp -R "$top_srcdir/tests/data/gpu/h200x1/physics" "$tmp/take/data/h200x1/"
before=$(ls "$tmp/take/data/h200x1/physics" | wc -l)
"$PYTHON3" "$R" --take "$tmp/take/rec" "$tmp/take/data" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "replay.py --take into a folder with recordings"; }
[ "$(ls "$tmp/take/data/h200x1/physics" | wc -l)" -eq $((before + 1)) ] \
    && cmp -s "$pum/f1" "$tmp/take/data/h200x1/physics/001-physics-um/f1" \
    || { ls "$tmp/take/data/h200x1/physics"; fail "replay.py --take: one call taken, numbered after the others"; }
# Taken twice: not again. A source that is no folder: one line, exit 1.
"$PYTHON3" "$R" --take "$tmp/take/rec" "$tmp/take/data" >"$tmp/out" 2>&1 && [ "$(ls "$tmp/take/data/h200x1/physics" | wc -l)" -eq $((before + 1)) ] \
    || { cat "$tmp/out"; fail "replay.py --take: a call taken again"; }
rc=0; "$PYTHON3" "$R" --take "$tmp/take/nosuch" "$tmp/take/data" >"$tmp/out" 2>&1 || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] || { cat "$tmp/out"; fail "replay.py --take of no folder: exit $rc"; }
exit 0
