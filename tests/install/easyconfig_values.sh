#!/bin/sh
# `make easyconfig` with EB_MPI_MODULE and EB_CUDA_MODULE a site could
# mistype or a hostile environment could hold (quotes, $(...), backticks,
# a newline, a ;): nothing in them runs (issue 66: a quote in
# EB_MPI_MODULE ran what followed it, since the recipe pasted the value
# into its shell text), each is refused in one line naming it, and no
# easyconfig is left. From make's command line and from the environment.
# Then easyconfig.sh on good names writes them into the easyconfig as given.
. "$top_srcdir/tests/lib.sh"
command -v make >/dev/null || skip "make not found"
mark=$tmp/ran
n=0
for value in "x'; touch $mark; '" "x\"; touch $mark; \"" "\$(touch $mark)" "\`touch $mark\`" "a
b" "openmpi; touch $mark" "\${x:=\$(touch $mark)}" "-o" "'" ""; do
    # EB_MPI_MODULE from make's command line (a $ doubled, as make reads
    # it: a literal $), EB_CUDA_MODULE and EB_PYTHON_MODULE from the environment.
    for var in EB_MPI_MODULE EB_CUDA_MODULE EB_PYTHON_MODULE; do
        # An empty EB_CUDA_MODULE is the host-only build, an empty EB_PYTHON_MODULE the system's python3.
        [ -n "$value" ] || [ $var = EB_MPI_MODULE ] || continue
        rm -f "$mark"
        # -o dist: the recipe alone, without making the tarball (the values are refused before it is read).
        rc=0
        if [ $var = EB_MPI_MODULE ]; then
            make -s -C "$top_builddir" -o dist easyconfig "$var=$(printf '%s' "$value" | sed 's/[$]/$$/g')" >"$tmp/out" 2>"$tmp/err" || rc=$?
        else
            env "$var=$value" make -s -C "$top_builddir" -o dist easyconfig >"$tmp/out" 2>"$tmp/err" || rc=$?
        fi
        [ ! -e "$mark" ] || fail "make easyconfig $var=$value ran a command from the value"
        [ $rc -ne 0 ] || fail "make easyconfig $var=$value: exit 0"
        [ "$(grep -c '^easyconfig.sh: ' "$tmp/err")" -eq 1 ] && grep -q "^easyconfig.sh: $var '.*' is not a module name" "$tmp/err" \
            || { cat "$tmp/err"; fail "make easyconfig $var=$value: not one line naming $var"; }
        ! ls "$top_builddir"/*.eb "$top_builddir"/*.eb.tmp >/dev/null 2>&1 || fail "make easyconfig $var=$value left an easyconfig"
        n=$((n + 1))
    done
done
echo "$n hostile EB_* values refused in one line, nothing run, nothing written"
# Good names: written as given, each in its own Python string.
echo tarball >"$tmp/u.tar.gz"
sh "$top_srcdir/scripts/easybuild/easyconfig.sh" "$top_srcdir/scripts/easybuild/umbench.eb.in" "$tmp/u.tar.gz" 0.1.0 \
    openmpi/4.1.6+x cuda/12.4 Python/3.11-jsonschema >"$tmp/u.eb" || fail "easyconfig.sh on good names"
grep -qx "    ('openmpi/4.1.6+x', EXTERNAL_MODULE)," "$tmp/u.eb" && grep -qx "    ('cuda/12.4', EXTERNAL_MODULE)," "$tmp/u.eb" \
    && grep -qx "    ('Python/3.11-jsonschema', EXTERNAL_MODULE)," "$tmp/u.eb" \
    && grep -qx "configopts = '--with-cuda'" "$tmp/u.eb" || { cat "$tmp/u.eb"; fail "the easyconfig's dependencies"; }
if "$PYTHON3" -c 1 2>/dev/null; then  # the easyconfig is Python: it parses
    "$PYTHON3" -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" "$tmp/u.eb" || fail "the easyconfig is not Python"
fi
echo "good names: in the easyconfig as given"
