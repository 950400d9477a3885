#!/bin/sh
# shellcheck disable=SC2086 # a line's args are words on purpose
# Every line of tests/bad_input.txt: a bad command line of some program.
# It must exit 1 with one line naming the bad value, print no results, and
# for an unknown option also print the usage.
#
# Most lines are refused before MPI_Init: --check-options gives that
# verdict without MPI, and must name the value too. The launcher is not
# what such a line tests: the program runs alone, as an MPI singleton
# (Open MPI 4 then starts no daemon), 0.25 s a line where a launch took
# 2.4 s (211 s for the table, issue 67). Launched with the line's ranks:
# the lines --check-options accepts (refused by the ranks, after
# MPI_Init), and the first line of each program folder, so that rank 0
# alone saying the line through the launcher stays tested in each family.
. "$top_srcdir/tests/lib.sh"
export OMPI_MCA_ess_singleton_isolated=1
n=0 launched=0 folders=
while IFS='|' read -r np prog names args flag; do
    case $np in ''|'#'*) continue ;; esac
    path=$top_builddir/$prog
    name=$(basename "$prog")
    run_cmd "$path" --check-options $args
    crc=$rc
    case $crc in
    0) ;;
    1) said_usage_error "$path" "$names" --check-options $args ;;
    *) cat "$tmp/err"; fail "$name --check-options $args: exit $crc" ;;
    esac
    folder=$(dirname "$prog")
    case " $folders " in *" $folder "*) first= ;; *) first=1 folders="$folders $folder" ;; esac
    if [ "$crc" -eq 0 ] || [ -n "$first" ]; then
        usage_error "$np" "$path" "$names" $args
        launched=$((launched + 1))
    else
        run_cmd "$path" $args
        said_usage_error "$path" "$names" $args
    fi
    if [ "$flag" = unknown ]; then
        grep -q "^Usage: $name" "$tmp/err" || { cat "$tmp/err"; fail "$prog $args: no usage after an unknown option"; }
    fi
    n=$((n + 1))
done <"$top_srcdir/tests/bad_input.txt"
[ "$n" -ge 50 ] || fail "only $n bad command lines"
[ "$launched" -ge 4 ] || fail "only $launched lines launched"
echo "$n bad command lines ($launched launched, the rest alone): each exit 1, one line naming the value"
exit 0
