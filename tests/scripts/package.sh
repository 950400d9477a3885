#!/bin/sh
# The scripts as a standard Python package (pyproject.toml, docs/install.md):
# its wheel, built offline from a copy of the tree, holds every module,
# schema, settings.json and the registry (programs.txt, a copy of the
# top's), declares jsonschema and the [plot] extra, has configure's version,
# and names each Python command of scripts/ as an entry point that imports.
. "$top_srcdir/tests/lib.sh"
needs_python "setuptools 61 or later" python3-setuptools \
    "import setuptools.build_meta, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 61)"
# Before 70.1, setuptools builds a wheel through the separate wheel package.
needs_python "wheel (setuptools before 70.1 builds wheels with it)" python3-wheel \
    "import setuptools, sys; v = tuple(int(x) for x in setuptools.__version__.split('.')[:2]); v >= (70, 1) or __import__('wheel')"
mkdir -p "$tmp/src/scripts" "$tmp/dist"
cp "$top_srcdir/pyproject.toml" "$tmp/src/" && cp -RL "$top_srcdir/scripts/umbench" "$tmp/src/scripts/" || fail "cannot copy the tree"
rm -rf "$tmp/src/scripts/umbench/__pycache__"
(cd "$tmp/src" && "$PYTHON3" -c "from setuptools import build_meta; print(build_meta.build_wheel('$tmp/dist'))") >"$tmp/build.log" 2>&1 \
    || { tail -20 "$tmp/build.log"; fail "the wheel does not build"; }
version=$(sed -n 's/^AC_INIT(\[umbench\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
whl=$(ls "$tmp/dist"/umbench-"$version"-*.whl 2>/dev/null) || fail "no wheel of version $version (configure.ac's) in: $(ls "$tmp/dist")"
# What the tree holds, the wheel must: modules, schemas, data.
(cd "$top_srcdir/scripts" && ls umbench/*.py umbench/schemas/*.json umbench/settings.json umbench/programs.txt) | sort >"$tmp/want"
commands=$(grep -l '^#!/usr/bin/env python3' "$top_srcdir"/scripts/umb-* | sed 's|.*/||' | sort | tr '\n' ' ')
mkdir "$tmp/x"
"$PYTHON3" - "$whl" "$tmp/want" "$tmp/x" "$commands" <<'PY' || fail "the wheel: see above"
import configparser, sys, zipfile
whl, want, unpacked, commands = sys.argv[1], open(sys.argv[2]).read().split(), sys.argv[3], sys.argv[4].split()
z = zipfile.ZipFile(whl)
names = set(z.namelist())
bad = ["missing: " + n for n in want if n not in names]
if "umbench/programs.txt" in names:  # compared with the top's below, byte for byte
    z.extract("umbench/programs.txt", unpacked)
info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
meta = z.read(info + "/METADATA").decode().splitlines()
for need in ("Requires-Dist: jsonschema", "Provides-Extra: plot"):
    if need not in meta:
        bad.append("METADATA lacks " + need)
if not any(m.startswith("Requires-Dist: matplotlib") and "extra ==" in m and "plot" in m for m in meta):
    bad.append("METADATA lacks matplotlib in the extra plot")
ep = configparser.ConfigParser()
ep.read_string(z.read(info + "/entry_points.txt").decode())
scripts = dict(ep["console_scripts"]) if ep.has_section("console_scripts") else {}
if sorted(scripts) != commands:
    bad.append("entry points %s, scripts/ has %s" % (sorted(scripts), commands))
sys.path.insert(0, whl)
for name, target in scripts.items():
    mod, fn = target.split(":")
    if not callable(getattr(__import__(mod, fromlist=[fn]), fn, None)):
        bad.append("%s: %s is not a function" % (name, target))
print("\n".join(bad))
sys.exit(bool(bad))
PY
cmp -s "$tmp/x/umbench/programs.txt" "$top_srcdir/programs.txt" || fail "the wheel's umbench/programs.txt is not the top's programs.txt"
echo "the wheel: every module, schema and command; jsonschema and the [plot] extra declared"

# make install's commands run with configure's Python (PYTHON3_EXE), not
# with the first python3 on PATH: a venv without jsonschema first on PATH
# (issue 67) still runs them, and so do the tree's commands, whose python3
# is that venv's: its Python is the system's, whose packages it cannot see.
exe=$(sed -n 's/^PYTHON3_EXE = //p' "$top_builddir/Makefile")
make -s -C "$top_builddir" install-dist_binSCRIPTS install-pkgpythonPYTHON install-dist_pkgpythonDATA install-dist_schemasDATA \
    install-exec-hook prefix="$tmp/p" >"$tmp/i.log" 2>&1 || { cat "$tmp/i.log"; fail "make install of the commands"; }
bin=$tmp/p/bin
for c in umb-run umb-compare umb-findings umb-tune umb-plot; do
    [ "$(head -1 "$bin/$c")" = "#!$exe" ] || fail "installed $c runs with '$(head -1 "$bin/$c")', not configure's Python #!$exe"
done
if /usr/bin/python3 -c "import jsonschema" 2>/dev/null && /usr/bin/python3 -m venv --without-pip "$tmp/v" 2>/dev/null; then
    ! "$tmp/v/bin/python3" -c "import jsonschema" 2>/dev/null || fail "the venv sees the system's jsonschema"
    for cmd in "$bin/umb-run" "$top_srcdir/scripts/umb-findings"; do
        PATH=$tmp/v/bin:$PATH "$cmd" --help >"$tmp/o" 2>"$tmp/e" || { cat "$tmp/e"; fail "$cmd --help with a venv without jsonschema first on PATH"; }
    done
    echo "with a venv without jsonschema first on PATH: the installed umb-run and the tree's umb-findings run"
fi
echo "make install: the commands run with #!$exe"
