#!/bin/sh
# The read check of umb_um and umb_oversub on a GPU (util/core/fold.h): it
# passes on an intact buffer, and fails (exit 2, the run named, its sum one
# above the expected one) when UMB_TEST_CORRUPT_WORD changes one word of the
# buffer after it was written, for each kind of memory (in the test builds,
# tests/tools/hooked/: the installed drivers read no test variable). --op
# write reads nothing and prints no check. Skipped (77) where there is no GPU.
. "$top_srcdir/tests/lib.sh"
um=$top_builddir/c/umb_um
ov=$top_builddir/c/umb_oversub
hum=$top_builddir/tests/tools/hooked/umb_um hov=$top_builddir/tests/tools/hooked/umb_oversub
[ -x "$um" ] && [ -x "$ov" ] || skip "c/umb_um and c/umb_oversub are not built (host-only build)"

run_cmd "$um" --size 4M --repeat 1
[ "$rc" -ne 77 ] || skip "$(cat "$tmp/err")"
expect_rc 0 "umb_um probe"

# one_above FILE: the "# Check: Fail" line's two sums differ by exactly the one added to the word.
one_above() {
    sed -n 's/.*read sum \([0-9a-f]*\), expected \([0-9a-f]*\).*/\1 \2/p' "$1" | head -1 >"$tmp/sums"
    read got want <"$tmp/sums" && [ $((0x$got - 0x$want)) -eq 1 ]
}

for mem in managed pinned device; do
    run_cmd "$um" --size 64M --repeat 2 --memory $mem
    expect_rc 0 "umb_um --memory $mem"
    grep -q '^# Check: Pass: 2 runs; ' "$tmp/out" || { cat "$tmp/out"; fail "umb_um --memory $mem: no Pass"; }
    run_cmd env UMB_TEST_CORRUPT_WORD=123457 "$hum" --size 64M --repeat 2 --memory $mem
    expect_rc 2 "umb_um --memory $mem with a broken word"
    grep -q '^# Check: Fail: 2 of 2 runs; first run 1 (advice none, prefetch none): read sum ' "$tmp/out" && one_above "$tmp/out" \
        || { cat "$tmp/out" "$tmp/err"; fail "umb_um --memory $mem: the broken word's Fail line"; }
    grep -q '^umb_um: read check failed: run 1 ' "$tmp/err" || { cat "$tmp/err"; fail "umb_um --memory $mem: no failure on stderr"; }
    echo "umb_um $mem: $(grep '^# Check' "$tmp/out")"
done
# --touch-on-host writes every byte again before run 2: only run 1 sees the broken word.
run_cmd env UMB_TEST_CORRUPT_WORD=0 "$hum" --size 64M --repeat 3 --touch-on-host --format json
expect_rc 2 "umb_um --touch-on-host with a broken word"
grep -q '^{"type":"check","program":"umb_um","result":"fail","runs":3,"failed":1,"first_failure":"run 1 ' "$tmp/out" \
    || { cat "$tmp/out"; fail "umb_um --touch-on-host: JSON check record"; }
# Writes read nothing: no check at all, whatever the variable says.
run_cmd env UMB_TEST_CORRUPT_WORD=0 "$hum" --size 64M --repeat 2 --op write
expect_rc 0 "umb_um --op write"
! grep -q '^# Check' "$tmp/out" || { cat "$tmp/out"; fail "umb_um --op write printed a check"; }
# A bad value of the hook: one line, exit 1.
run_cmd env UMB_TEST_CORRUPT_WORD=99999999999 "$hum" --size 64M --repeat 1
expect_rc 1 "UMB_TEST_CORRUPT_WORD past the end"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^UMB_TEST_CORRUPT_WORD='99999999999': expected a whole number from 0 to 16777215\$" "$tmp/err" \
    || { cat "$tmp/err"; fail "UMB_TEST_CORRUPT_WORD past the end: message"; }
# The installed driver reads no test variable: the word is not broken.
run_cmd env UMB_TEST_CORRUPT_WORD=0 "$um" --size 4M --repeat 1
expect_rc 0 "the installed umb_um with UMB_TEST_CORRUPT_WORD set"

# umb_oversub: grid and block read every word, random 4 steps of 128 B per warp.
run_cmd "$ov" --factor 0.01 --mode demand,prefetch --steps 4
expect_rc 0 "umb_oversub"
grep -q '^# Check: Pass: 6 runs; ' "$tmp/out" || { cat "$tmp/out"; fail "umb_oversub: no Pass"; }
run_cmd env UMB_TEST_CORRUPT_WORD=5 "$hov" --factor 0.01 --pattern grid,block --mode demand,prefetch
expect_rc 2 "umb_oversub with a broken word"
grep -q '^# Check: Fail: 4 of 4 runs; first factor 0.01, pattern grid, mode demand: read sum ' "$tmp/out" && one_above "$tmp/out" \
    || { cat "$tmp/out"; fail "umb_oversub: the broken word's Fail line"; }
echo "umb_oversub: $(grep '^# Check' "$tmp/out")"
exit 0
