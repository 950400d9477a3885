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
exit 0
