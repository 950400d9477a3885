#!/bin/sh
# umb-compare --plot and umb-plot: PNGs of the expected dimensions (1300 x 500), when
# matplotlib is installed (the quick start installs it; skipped without it,
# a failure when UMB_NEED_PLOTS=1, as in CI, so that CI never skips it).
. "$top_srcdir/tests/lib.sh"
missing() { if [ "${UMB_NEED_PLOTS:-0}" = 1 ]; then fail "$* (UMB_NEED_PLOTS=1)"; else skip "$*"; fi; }
[ -n "${PYTHON3:-}" ] || missing "python3 not found"
"$PYTHON3" -c "import matplotlib" 2>/dev/null || missing "matplotlib not installed for $PYTHON3"
RUN="$PYTHON3 $top_srcdir/scripts/umb-run --bindir $PT2PT:$top_builddir/mpi/collective"
export MPIEXEC MPIEXEC_FLAGS="$mpi_flags"
# One real run; the plots only read it, so b is a copy of it under another name.
$RUN --out "$tmp/a" -- -m 8:1K -i 10 -x 1 >/dev/null 2>&1 || fail "umb-run a"
cp -R "$tmp/a" "$tmp/b"
"$PYTHON3" "$top_srcdir/scripts/umb-compare" "$tmp/a" "$tmp/b" --plot "$tmp/p.png" >/dev/null || fail "umb-compare --plot"
"$PYTHON3" "$top_srcdir/scripts/umb-plot" "$tmp/a" >/dev/null || fail "umb-plot"
# As the README runs them: through their "env python3" line, which may find a
# pyenv or conda python3 without the distribution's matplotlib.
"$top_srcdir/scripts/umb-compare" "$tmp/a" "$tmp/b" --plot "$tmp/q.png" >/dev/null || fail "scripts/umb-compare --plot (python3 on PATH: $(command -v python3))"
"$top_srcdir/scripts/umb-plot" "$tmp/b" >/dev/null || fail "scripts/umb-plot (python3 on PATH: $(command -v python3))"
"$PYTHON3" - "$tmp/p.png" "$tmp/a/plot.png" "$tmp/q.png" "$tmp/b/plot.png" <<'PY' || fail "PNG"
import struct, sys, os
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    w, h = struct.unpack(">II", data[16:24])
    assert (w, h) == (1300, 500), (path, w, h)
    assert os.path.getsize(path) > 20000, (path, os.path.getsize(path))
PY
exit 0
