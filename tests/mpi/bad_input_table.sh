#!/bin/sh
# Every line of tests/bad_input.txt: a bad command line of some program.
# It must exit 1 with one line naming the bad value, print no results, and
# for an unknown option also print the usage.
. "$top_srcdir/tests/lib.sh"
n=0
while IFS='|' read -r np prog names args flag; do
    case $np in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086 # args are words on purpose
    usage_error "$np" "$top_builddir/$prog" "$names" $args
    if [ "$flag" = unknown ]; then
        grep -q "^Usage: $(basename "$prog")" "$tmp/err" || { cat "$tmp/err"; fail "$prog $args: no usage after an unknown option"; }
    fi
    n=$((n + 1))
done <"$top_srcdir/tests/bad_input.txt"
[ "$n" -ge 50 ] || fail "only $n bad command lines"
echo "$n bad command lines: each exit 1, one line naming the value"
exit 0
