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
#
# A singleton's 0.25 s is mostly its MPI_Init waiting, not working: the
# lines run alone go four at once, each with a session folder of its own
# (TMPDIR: two first runs raced for a shared one, issue 67), and are
# judged in the table's order once all have ended.
. "$top_srcdir/tests/lib.sh"
export OMPI_MCA_ess_singleton_isolated=1
AT_ONCE=4

# alone K PROGRAM ARGS...: the line run alone; its stdout, stderr and
# status in $tmp/sK.
alone() {
    k=$1; shift
    mkdir "$tmp/s$k"
    r=0; TMPDIR="$tmp/s$k" timeout "$RUN_LIMIT" "$@" </dev/null >"$tmp/s$k/out" 2>"$tmp/s$k/err" || r=$?
    echo "$r" >"$tmp/s$k/rc"
}
# refused NAME PROGRAM NAMES FLAG ARGS...: the last run refused the line as
# the table says.
refused() {
    name=$1 path=$2 names=$3 flag=$4; shift 4
    said_usage_error "$path" "$names" "$@"
    if [ "$flag" = unknown ]; then
        grep -q "^Usage: $name" "$tmp/err" || { cat "$tmp/err"; fail "$path $*: no usage after an unknown option"; }
    fi
}

n=0 launched=0 running=0 folders=
: >"$tmp/alone"
while IFS='|' read -r np prog names args flag; do
    case $np in ''|'#'*) continue ;; esac
    n=$((n + 1))
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
        refused "$name" "$path" "$names" "$flag" $args
        launched=$((launched + 1))
    else
        alone "$n" "$path" $args &
        echo "$n|$path|$names|$args|$flag" >>"$tmp/alone"
        running=$((running + 1))
        [ "$running" -lt "$AT_ONCE" ] || { wait; running=0; }
    fi
done <"$top_srcdir/tests/bad_input.txt"
wait
while IFS='|' read -r k path names args flag; do
    cp "$tmp/s$k/out" "$tmp/out" && cp "$tmp/s$k/err" "$tmp/err" && rc=$(cat "$tmp/s$k/rc") || fail "line $k: no result"
    [ "$rc" -ne 124 ] || { cat "$tmp/err" >&2; fail "$path $args did not end within $RUN_LIMIT s"; }
    refused "$(basename "$path")" "$path" "$names" "$flag" $args
done <"$tmp/alone"
[ "$n" -ge 50 ] || fail "only $n bad command lines"
[ "$launched" -ge 4 ] || fail "only $launched lines launched"
echo "$n bad command lines ($launched launched, the rest alone, $AT_ONCE at once): each exit 1, one line naming the value"
exit 0
