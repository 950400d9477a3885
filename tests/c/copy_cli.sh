#!/bin/sh
# umb_copy's command line without a GPU: -h, -v, bad input (one line naming
# the value, exit 1, before any GPU is looked for), and no GPU (exit 77).
. "$top_srcdir/tests/lib.sh"
copy=$top_builddir/c/umb_copy
[ -x "$copy" ] || skip "umb_copy is not built (host-only build)"

run() {  # run ARGS...: stdout to $tmp/out, stderr to $tmp/err, status in $rc
    rc=0
    timeout 60 "$copy" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -ne 124 ] || fail "umb_copy $* did not end within 60 s"
}
bad() {  # bad NAMES ARGS...: exit 1, exactly one umb_copy line naming NAMES, nothing on stdout
    names=$1; shift
    run "$@"
    expect_rc 1 "umb_copy $*"
    [ "$(grep -c '^umb_copy: ' "$tmp/err")" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
        || { cat "$tmp/err"; fail "umb_copy $*: not one message line"; }
    grep -qF -- "$names" "$tmp/err" || { cat "$tmp/err"; fail "umb_copy $*: message does not name '$names'"; }
    [ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "umb_copy $*: printed results"; }
}

run -h
expect_rc 0 "umb_copy -h"
grep -q '^Usage: umb_copy' "$tmp/out" || fail "-h: no usage"
for o in -m --memory --direction --method --size --start --grow --numa-node --flush --cputiming --units --device; do
    grep -q -- "$o" "$tmp/out" || fail "-h does not list $o"
done
run --version
expect_rc 0 "umb_copy --version"
[ "$(cat "$tmp/out")" = "umb_copy (umbench) $(sed -n 's/^AC_INIT(\[umbench\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")" ] \
    || { cat "$tmp/out"; fail "--version"; }

bad "--size 0" --size 0
bad "--size 4K,0" --size 4K,0
# Past the most a driver takes (1P), by every way of giving sizes (issue 66).
bad "size 18446744073709551615 bytes (4K,18446744073709551615): above the most a driver takes; accepted: 1 to 1125899906842624" --size 4K,18446744073709551615
bad "-m 1:1125899906842625: 1125899906842625 bytes is above 1125899906842624" -m 1:1125899906842625
bad "size 2251799813685248 bytes (4K to 2097152G" --start 4K --end 2097152G
bad "-m 1:18446744073709551616: expected MAX, MIN:MAX or MIN: in bytes from 1 to 1125899906842624" -m 1:18446744073709551616
bad "--numa-node 99" --numa-node 99
bad "--memory bogus" --memory bogus
bad "accepted: pageable, pinned, wc, registered, managed-host, managed-device, device" --memory bogus
bad "--direction sideways" --direction sideways
bad "--method dma" --method dma
bad "--memory pinned --method prefetch" --memory pinned --method prefetch
bad "--method prefetch" --memory pinned --direction htod --method prefetch
bad "--memory pageable --direction bidir" --direction bidir --memory pageable
bad "--memory managed-device: no sensible" --memory pinned,managed-device --direction htod
# The short names of util/core/memkind.h as well; messages use the long ones.
bad "--memory D --direction htod: no sensible" --memory D --direction htod
bad "--memory managed-device: no sensible" --memory P,MD --direction htod
bad "--memory M: unknown 'M'" --memory M
# One value in two spellings: its rows twice, which the readers refuse.
bad "--memory H,pageable: 'H' and 'pageable' are the same" --memory H,pageable
bad "--end 1024" --start 4K --end 1K
bad "-m 4K:1K: MIN (4096) is larger than MAX (1024)" -m 4K:1K
bad "-m 4K: give one of -m, --size or --start/--end" -m 4K --size 1M
bad "--grow 1" --start 1K --end 1M --grow 1
bad "--factor 4: a size range grows with --grow F" --start 1K --end 1M --factor 4
bad "--step 1K --grow 2" --start 1K --end 1M --step 1K --grow 2
bad "--copies 0" --copies 0
bad "--units MB" --units MB
bad "--format xml" --format xml
bad "--device first" --device first
bad "stray" stray

# An unknown option: its line first, then the usage, exit 1.
run --bogus
expect_rc 1 "umb_copy --bogus"
[ "$(head -1 "$tmp/err")" = "umb_copy: unknown option --bogus" ] || { cat "$tmp/err"; fail "--bogus"; }
# The short option ":" is unknown, not a value the option "r:" lacks (pass 12).
run -:
expect_rc 1 "umb_copy -:"
[ "$(head -1 "$tmp/err")" = "umb_copy: unknown option -:" ] || { cat "$tmp/err"; fail "-:"; }
bad "--flush=1: takes no value" --flush=1
# A value shown in one line: a newline escaped, a long one cut in its middle
# so that the reason stays (umb_shown, pass 12).
bad "--memory 1\x0a2: unknown" --memory "$(printf '1\n2')"
bad "...999999999999999: expected a GPU index 0..1023 or all" --device "$(printf '%0200d' 9 | tr 0 9)"

# `all` is not a claim that every value fits: what does not is skipped.
CUDA_VISIBLE_DEVICES= run --memory all --direction htod
expect_rc 77 "umb_copy --memory all --direction htod (no GPU visible)"
CUDA_VISIBLE_DEVICES= run --memory all --direction all --method all
expect_rc 77 "umb_copy with every list all (no GPU visible)"
CUDA_VISIBLE_DEVICES= run --memory H,P,WC,REG,MH --direction htod,dtoh --method ce
expect_rc 77 "umb_copy with short memory names (no GPU visible)"

# No GPU: one line, exit 77 (on a GPU machine the GPUs are hidden); every
# common option gets this far.
CUDA_VISIBLE_DEVICES= run --size 4K -U -r 3 --flush --cputiming --units GiB --format csv
expect_rc 77 "umb_copy without a GPU"
grep -q '^umb_copy: needs a CUDA GPU, but this machine has none: ' "$tmp/err" || { cat "$tmp/err"; fail "no-GPU message"; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "no GPU: more than one line"; }
[ ! -s "$tmp/out" ] || fail "no GPU: printed results"
exit 0
