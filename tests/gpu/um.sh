#!/bin/sh
# umb_um and umb_oversub on a GPU, small sizes: every memory kind, both
# operations, the policy matrix, every pattern and mode, the refusal of a
# factor above free memory; every read run's check passes (a broken word:
# tests/gpu/um_check.sh). Skipped (77) where there is no GPU.
. "$top_srcdir/tests/lib.sh"
um=$top_builddir/c/umb_um
ov=$top_builddir/c/umb_oversub
[ -x "$um" ] && [ -x "$ov" ] || skip "c/umb_um and c/umb_oversub are not built (host-only build)"

run() {
    rc=0
    timeout 120 "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -ne 124 ] || fail "$* did not end within 120 s"
}
# check ROWS WHAT: the last run's JSON holds ROWS result rows, every GiB/s in
# (0, the memory peak] (tests/gpu/judge.py um-rows); prints the first row's
# rates. Called as it is, never in $(...), where a failure would end only the subshell.
check() {
    judge um-rows "$1" "$tmp/out"
    [ "$rc" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$2"; }
}

run "$um" --size 4M --repeat 1
[ "$rc" -ne 77 ] || skip "$(cat "$tmp/err")"
expect_rc 0 "umb_um probe"

for mem in managed pinned device numa-host; do
    for op in read write; do
        run "$um" --size 256M --repeat 3 --memory $mem --op $op --format json
        if [ $mem = numa-host ] && [ $rc -eq 1 ] && grep -q 'no libnuma\|NUMA is not available' "$tmp/err"; then
            echo "numa-host: $(cat "$tmp/err")"; continue
        fi
        expect_rc 0 "umb_um --memory $mem --op $op"
        # Reads end with a passed check of 3 runs; writes read nothing and print none.
        if [ $op = read ]; then grep -q '^{"type":"check","program":"umb_um","result":"pass","runs":3,' "$tmp/out" || { cat "$tmp/out"; fail "umb_um --memory $mem: no passed check"; }
        else ! grep -q '"type":"check"' "$tmp/out" || fail "umb_um --memory $mem --op write: a check with nothing read"; fi
        echo "umb_um $mem $op, GiB/s per run:"; check 1 "$mem $op"
    done
done
for extra in "--prefetch whole" "--prefetch blocks:16M --touch-on-host" "--advise accessed-by,preferred=cpu --touch-on-host" \
             "--advise read-mostly --op read"; do
    run "$um" --size 256M --repeat 3 -f --format json $extra
    expect_rc 0 "umb_um $extra"
    echo "umb_um $extra, GiB/s per run:"; check 1 "$extra"
done
run "$um" --size 256M --repeat 2 --matrix --format json
expect_rc 0 "umb_um --matrix"
check 36 "matrix"
head -1 "$tmp/out" | grep -q '"repetitions":2' || { head -1 "$tmp/out"; fail "matrix: header repetitions"; }
# The summary: two result rows, the fastest for a single pass and for repeated passes.
must_judge um-matrix "$tmp/out"
run "$um" --size 256M --repeat 2 --matrix
expect_rc 0 "umb_um --matrix (table)"
[ "$(grep -c -E '^[0-9]+ +(single|repeated) ' "$tmp/out")" -eq 2 ] && grep -q '^# Size .*Fastest for' "$tmp/out" \
    || { cat "$tmp/out"; fail "matrix table: summary rows"; }

run "$ov" --factor 0.01,0.02 --steps 4 --format json
expect_rc 0 "umb_oversub, every pattern and mode"
check 36 "oversub"
run "$ov" --factor 0.01,0.02 --pattern grid --mode demand,prefetch --op write
expect_rc 0 "umb_oversub --op write, table"
grep -q '^# Sweep, GiB/s by factor' "$tmp/out" || { cat "$tmp/out"; fail "oversub: no sweep table"; }

# --counters tell the policies apart: demand paging migrates the buffer to
# the GPU on run 1 with GPU faults; accessed-by reads it in place over the
# link, migrating almost nothing; a prefetch moves it before the kernel.
if grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h"; then
    for adv in none accessed-by; do
        run "$um" -U --size 64M --repeat 2 --advise $adv --format json
        expect_rc 0 "umb_um -U --advise $adv"
        cp "$tmp/out" "$tmp/ctr-$adv.jsonl"
    done
    run "$um" -U --size 64M --repeat 2 --prefetch whole --format json
    expect_rc 0 "umb_um -U --prefetch whole"
    cp "$tmp/out" "$tmp/ctr-prefetch.jsonl"
    run "$ov" -U --factor 0.01 --pattern grid --mode demand --format json
    expect_rc 0 "umb_oversub -U"
    must_judge um-counters "$tmp/ctr-none.jsonl" "$tmp/ctr-accessed-by.jsonl" "$tmp/ctr-prefetch.jsonl" "$tmp/out"
fi

# The refusal: above free GPU memory without --allow-oversubscription.
run "$ov" --factor 1.5
expect_rc 1 "umb_oversub --factor 1.5"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^umb_oversub: --factor 1.5: above 1 oversubscribes the GPU's memory; refused unless --allow-oversubscription" "$tmp/err" \
    || { cat "$tmp/err"; fail "oversub refusal message"; }
[ ! -s "$tmp/out" ] || fail "the refused run printed results"
echo "refusal: $(cat "$tmp/err")"
run "$um" --size 4096G
expect_rc 1 "umb_um --size 4096G"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^umb_um: --size 4096G refused: 4398046511104 bytes of managed memory exceed the GPU's" "$tmp/err" \
    || { cat "$tmp/err"; fail "umb_um refusal"; }
run "$um" --device 99
expect_rc 1 "umb_um --device 99"
grep -q '^umb_um: --device 99: this machine has' "$tmp/err" || { cat "$tmp/err"; fail "--device 99"; }
run "$um" --runs 2
expect_rc 1 "umb_um --runs 2"
[ "$(cat "$tmp/err")" = "umb_um: --runs: renamed --repeat" ] || { cat "$tmp/err"; fail "--runs: renamed"; }
exit 0
