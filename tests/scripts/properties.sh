#!/bin/sh
# Property-based tests (Hypothesis, tests/props/) over every reader and
# command of the scripts: generated documents, argument lists and batch
# environments; no traceback, no hang, a refusal in one line that changes
# nothing, nothing run from data, and what umb-run writes its readers read.
# Bounded and deterministic here (UMB_PROPS_PROFILE=ci); a longer random
# run with UMB_PROPS_PROFILE=adversary (docs/hardening.md, "Properties").
# Skipped without Hypothesis, a failure when UMB_NEED_PROPS=1 (as in CI).
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
if ! "$PYTHON3" -c "import hypothesis" 2>/dev/null; then
    [ "${UMB_NEED_PROPS:-0}" != 1 ] || fail "$PYTHON3 has no hypothesis (UMB_NEED_PROPS=1; python3 -m pip install --user hypothesis, or Debian's python3-hypothesis)"
    skip "$PYTHON3 has no hypothesis (python3 -m pip install --user hypothesis, or Debian's python3-hypothesis)"
fi
command -v bash >/dev/null || skip "bash not found (the batch scripts need it)"
# The runner prints each property's examples and the time they took.
"$PYTHON3" "$top_srcdir/tests/props/run.py" || fail "a property did not hold (above: its example; UMB_PROPS_PROFILE=adversary shrinks it)"
exit 0
