#!/bin/sh
# umb_copy on a GPU (skipped, 77, without one): every kind, direction and
# method at small sizes, each validated; JSON; the link limit respected.
. "$top_srcdir/tests/lib.sh"
copy=$top_builddir/c/umb_copy
[ -x "$copy" ] || skip "umb_copy is not built (host-only build)"
run() {
    rc=0
    timeout 120 "$copy" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -ne 124 ] || fail "umb_copy $* did not end within 120 s"
}
run --size 4K -r 2
[ "$rc" -ne 77 ] || skip "$(cat "$tmp/err")"
expect_rc 0 "umb_copy default matrix at 4 KiB"

# Every sensible combination, two sizes (one not a multiple of 16), JSON.
run --memory all --direction all --method all --size 4099,1M -r 3 --cputiming --format json
expect_rc 0 "umb_copy, all combinations"
must_judge copy-all "$tmp/out"
# One combination: sizes increase, every row passes (tests/json_check.py).
run --memory pinned --direction htod --method ce --start 1K --end 1M --grow 4 -r 3 --format json
expect_rc 0 "pinned htod range"
json_check --rows 6 --header gpus sizes repetitions --keys median_gbs cv_pct link_pct copies --validation pass --positive median_gbs
# GiB/s and CSV.
run --memory pinned --direction dtoh --size 1M -r 2 --units GiB --format csv
expect_rc 0 "GiB CSV"
grep -q '^size,memory,direction,method,gpu,median_gibs,' "$tmp/out" || { cat "$tmp/out"; fail "CSV columns in GiB/s"; }
# --counters: a managed-device to host prefetch moves the whole buffer each
# repetition, and placement moves it back; pinned memory migrates nothing.
if grep -q '^#define HAVE_CUPTI 1' "$top_builddir/config.h"; then
    run -U --memory managed-device,pinned --direction dtoh --method prefetch,ce --size 1M -r 3 --format json
    expect_rc 0 "--counters"
    must_judge copy-counters "$tmp/out"
fi
# Peer copies need two GPUs: with one, a clear 77.
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "${n:-0}" -lt 2 ]; then
    run --direction peer --size 4K
    expect_rc 77 "peer with one GPU"
    grep -q 'needs 2 GPUs' "$tmp/err" || { cat "$tmp/err"; fail "peer with one GPU: message"; }
fi
exit 0
