#!/bin/sh
# package.sh where its Python lacks what building a wheel needs: every
# missing piece x UMB_NEED_SCRIPTS gives one SKIP line naming it (exit 77),
# or a failure under UMB_NEED_SCRIPTS=1 where .ci/run's apt-get line
# installs it (needs_python in tests/lib.sh). The Python is $PYTHON3 with
# tests/tools/fakepy/sitecustomize.py hiding modules.
. "$top_srcdir/tests/lib.sh"
cat >"$tmp/python3" <<PY
#!/bin/sh
PYTHONPATH="$top_srcdir/tests/tools/fakepy" exec "$PYTHON3" "\$@"
PY
chmod +x "$tmp/python3"
apt=$(sed -n '/apt-get install/,/[^\\]$/p' "$top_srcdir/.ci/run" 2>/dev/null)
# missing setuptools-version package
# The last word: UMB_NEED_SCRIPTS values tried (the edges of the versions once).
for case in "setuptools - python3-setuptools 01" "- 60.2.0 python3-setuptools 1" "wheel 65.5.0 python3-wheel 01" \
            "wheel 70.0.9 python3-wheel 1"; do
    set -- $case
    for need in $(echo "$4" | sed 's/./& /g'); do
        rc=0
        UMB_FAKE_MISSING=${1#-} UMB_FAKE_SETUPTOOLS=${2#-} UMB_NEED_SCRIPTS=$need PYTHON3=$tmp/python3 \
            sh "$top_srcdir/tests/scripts/package.sh" >"$tmp/out" 2>"$tmp/err" || rc=$?
        want=77
        [ "$need" = 1 ] && echo "$apt" | grep -qw -- "$3" && want=1
        [ "$rc" = "$want" ] || { cat "$tmp/out" "$tmp/err"; fail "missing $1, setuptools $2, UMB_NEED_SCRIPTS=$need: exit $rc, expected $want"; }
        [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "$3" "$tmp/err" \
            || { cat "$tmp/err"; fail "missing $1, setuptools $2, UMB_NEED_SCRIPTS=$need: not one line naming $3"; }
    done
done
echo "package.sh skips, naming what is missing"
