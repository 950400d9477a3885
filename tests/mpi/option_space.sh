#!/bin/sh
# The whole option space at tiny counts (issue 66): no accepted option set
# crashes, hangs or exits 0 without its rows. The programs come from the
# registry, their options and values from their own --help
# (tests/mpi/option_space.py: a covering design, every (option, value) in
# at least one launch, a family's programs in turn, a fixed seed). Each
# launch ends 0 with one row per size and pair that ran (a pair skipped
# says so), 77 with the program's line (GPU kinds on a host without one),
# or 1 with exactly one line; never a signal, never past its time. Its
# --check-options verdict is the run's. A launch refused runs its values
# one at a time, so that none goes untried.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
space="$PYTHON3 $top_srcdir/tests/mpi/option_space.py"
RUN_LIMIT=30
SEED=${UMB_OPTION_SPACE_SEED:-66}

# rows FORMAT: the result rows of the last run's stdout (CSV: under a
# "size," header, not a section's own rows such as "# precision").
rows() {
    case $1 in
    json) grep -c '"type":"result"' "$tmp/out" ;;
    csv) awk '/^size,/ { in_rows = 1; next } !/^[0-9]/ { in_rows = 0 } in_rows { n++ } END { print n + 0 }' "$tmp/out" ;;
    *) grep -Ec '^[0-9]+ ' "$tmp/out" ;;
    esac
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# skipped FORMAT NAME: the pairs the last run said it could not run here.
skipped() {
    case $1 in
    json) grep -c '"type":"end".*"skipped"' "$tmp/out" ;;
    *) grep -c "^# $2 .*: skipped: " "$tmp/out" ;;
    esac
}

# launch NP PROGRAM NSIZES NPAIRS ARG...: 0 when the run held, 3 when it
# was refused in one line (its verdict as --check-options gives it), 1 on
# a failure (said on stderr). One line: the program's own, "NAME: ...";
# mpirun adds its notice of a rank's exit status.
launch() {
    np=$1 prog=$top_builddir/$2 nsizes=$3 npairs=$4
    shift 4
    name=$(basename "$prog")
    format=csv
    case " $* " in *" --format json "*) format=json ;; *" --format table "*) format=table ;; esac
    started=$(uptime_s)
    run_mpi "$np" "$prog" "$@"
    echo "$(awk -v a="$started" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }') s: exit $rc: $name $*"
    lines=$(grep -c "^$name: " "$tmp/err")
    got=$(rows "$format")
    crc=0; "$prog" --check-options "$@" </dev/null >/dev/null 2>&1 || crc=$?
    what="$name $* (np $np)"
    case $rc in
    0)
        ran=$npairs; [ "$ran" -gt 0 ] || ran=1
        ran=$((ran - $(skipped "$format" "$name")))
        [ "$ran" -gt 0 ] && [ "$got" -eq $((nsizes * ran)) ] \
            || { cat "$tmp/out" "$tmp/err" >&2; echo "FAIL: $what: exit 0 with $got rows, expected $nsizes sizes x $ran pairs" >&2; return 1; } ;;
    77)
        [ "$lines" -ge 1 ] && [ "$got" -eq 0 ] \
            || { cat "$tmp/out" "$tmp/err" >&2; echo "FAIL: $what: exit 77 without its reason, or with rows" >&2; return 1; } ;;
    1)
        [ "$lines" -eq 1 ] && [ "$got" -eq 0 ] \
            || { cat "$tmp/out" "$tmp/err" >&2; echo "FAIL: $what: exit 1 with $lines lines and $got rows" >&2; return 1; } ;;
    *)
        cat "$tmp/out" "$tmp/err" >&2; echo "FAIL: $what: exit $rc" >&2; return 1 ;;
    esac
    # The verdict: --check-options has no ranks to count, so a refusal that
    # names the ranks (--buffers' list against -np, the collectives' -M over
    # every rank's buffers) is the run's alone.
    if [ "$rc" -eq 1 ] && [ "$crc" -eq 0 ] && grep "^$name: " "$tmp/err" | grep -q 'rank'; then
        return 3
    fi
    [ "$((rc == 1))" -eq "$crc" ] \
        || { cat "$tmp/err" >&2; echo "FAIL: $what: the run exits $rc, --check-options $crc" >&2; return 1; }
    [ "$rc" -ne 1 ] || return 3
}

launches=0
# Without a GPU every launch of GPU buffer kinds ends 77 the same way: one
# of each family runs, the others are asked for their verdict only.
gpus=$(gpu_count)
# One family at a time: its programs, the ranks they all take.
for family in pt2pt:2 rma:2 collective:3; do
    programs=$(programs_of "${family%:*}" | sed "s|^$top_builddir/||")
    # shellcheck disable=SC2086  # one program a word
    (cd "$top_builddir" && $space launches "$SEED" "${family#*:}" $programs) >"$tmp/plan" || fail "option_space.py failed"
    refused=0 gpu_ran=0
    while read -r kind line; do
        case $kind in
        FAIL) cases=$((cases + 1)) failed=$((failed + 1)); echo "FAIL: $line" >&2; continue ;;
        L) refused=0 ;;
        K) refused=0
           if [ "$gpus" -eq 0 ] && [ "$gpu_ran" -eq 1 ]; then
               cases=$((cases + 1))
               # shellcheck disable=SC2086
               set -- $line
               prog=$top_builddir/$2; shift 4
               "$prog" --check-options "$@" </dev/null >"$tmp/co" 2>&1 \
                   || { failed=$((failed + 1)); cat "$tmp/co" >&2; echo "FAIL: $line: --check-options refuses" >&2; }
               continue
           fi
           gpu_ran=1 ;;
        S) [ "$refused" -eq 1 ] || continue ;;
        esac
        cases=$((cases + 1)) launches=$((launches + 1))
        r=0
        # shellcheck disable=SC2086  # the plan's words, none with a blank
        launch $line || r=$?
        case $r in
        0) ;;
        3) [ "$kind" = S ] || { refused=1; echo "refused, its values one at a time: $line"; } ;;
        *) failed=$((failed + 1)) ;;
        esac
    done <"$tmp/plan"
done
echo "$launches launches"

# The drivers need a GPU: their option values through --check-options, each
# alone (0, or 1 and the one line).
drivers=
for prog in $(programs_of driver); do
    if [ -x "$prog" ]; then drivers="$drivers $prog"; else echo "$prog: not built (a host-only build)"; fi
done
# shellcheck disable=SC2086
[ -z "$drivers" ] || $space verdicts $drivers >"$tmp/plan" || fail "option_space.py failed"
[ -n "$drivers" ] || : >"$tmp/plan"
while read -r _ prog args; do
    cases=$((cases + 1))
    name=$(basename "$prog")
    rc=0
    # shellcheck disable=SC2086
    timeout 10 "$prog" --check-options $args </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    case $rc in
    0) [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] ;;
    1) [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^$name: " "$tmp/err" && [ ! -s "$tmp/out" ] ;;
    *) false ;;
    esac || { cat "$tmp/out" "$tmp/err" >&2; failed=$((failed + 1)); echo "FAIL: $name --check-options $args: exit $rc" >&2; }
done <"$tmp/plan"
cases_done option_space
