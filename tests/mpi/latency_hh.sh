#!/bin/sh
# umb_latency H H on 2 ranks: the OMB table, -f columns, -c validation.
# Needs no GPU and no CUDA driver.
. "$top_srcdir/tests/lib.sh"
lat=$PT2PT/umb_latency

# Open MPI's session directory lies in this test's own folder (lib.sh):
# under make -j two tests' first launches raced to make a shared one
# ("/tmp/ompi.HOST.UID: File exists", issue 67).
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI"; then
    run_mpi 1 sh -c 'for d in "${TMPDIR:-/tmp}"/ompi.* "${TMPDIR:-/tmp}"/prte.*; do [ ! -d "$d" ] || echo "session $d"; done'
    grep -q "^session $tmp/" "$tmp/out" || { cat "$tmp/out" "$tmp/err"; fail "the launch's session directory is not in $tmp"; }
fi

run_mpi 2 "$lat" -m 1:1K -i 200 -x 20 --timeout 60 H H
expect_rc 0 "H H"
grep -q '^# MPI library: ' "$tmp/out" || fail "header lacks the MPI library"
grep -q '^# CUDA-aware MPI: \(yes\|no\|unknown\)' "$tmp/out" || fail "header lacks CUDA awareness"
grep -q '^# Rank 1: host ' "$tmp/out" || fail "header lacks rank 1"
grep -q '^# Buffers: H H$' "$tmp/out" || fail "header lacks the buffers"
grep -q '^# Size *Avg Latency(us)$' "$tmp/out" || fail "no OMB column line"
# 11 sizes, 1 to 1024, each with one positive latency.
awk '!/^#/ { n++; if ($1 != 2^(n-1) || NF != 2 || $2 <= 0) bad = 1 } END { exit !(n == 11 && !bad) }' "$tmp/out" \
    || { cat "$tmp/out"; fail "table rows"; }

run_mpi 2 "$lat" -m 4:64 -i 100 -f -c H H
expect_rc 0 "H H -f -c"
grep -q '^# Size *Avg Latency(us) *Min Latency(us) *Max Latency(us) *P50 Latency(us) *P99 Latency(us) *Iterations *Validation$' "$tmp/out" \
    || fail "-f -c column line"
# min <= p50 <= p99 <= max, min <= avg <= max, 100 iterations, Pass.
awk '!/^#/ { n++; if (!($3 <= $5 && $5 <= $6 && $6 <= $4 && $3 <= $2 && $2 <= $4 && $7 == 100 && $8 == "Pass")) bad = 1 }
     END { exit !(n == 5 && !bad) }' "$tmp/out" || { cat "$tmp/out"; fail "-f -c rows"; }
grep -q '^# Validation: on' "$tmp/out" || fail "header lacks validation"

# Sizes above 8 KiB use the large-message counts, and large messages validate too.
run_mpi 2 "$lat" -m 2M:4M -i 5 -x 1 -c -f
expect_rc 0 "H H 2M:4M"
awk '!/^#/ { n++; if ($7 != 5 || $8 != "Pass") bad = 1 } END { exit !(n == 2 && !bad) }' "$tmp/out" \
    || { cat "$tmp/out"; fail "large rows"; }

# The classic loop marks each round trip after its send (umb_laps): the
# samples still number -i, also with no warm-up, and one sample is the
# whole loop (min = max = avg).
run_mpi 2 "$lat" -m 8:8 -i 1 -x 0 -f --format csv H H
expect_rc 0 "-i 1 -x 0"
awk -F, '$1 == 8 { n++; if (!($2 > 0 && $2 == $3 && $3 == $4 && $7 == 1)) bad = 1 } END { exit !(n == 1 && !bad) }' "$tmp/out" \
    || { cat "$tmp/out"; fail "-i 1 -x 0: one sample"; }
run_mpi 2 "$lat" -m 8:8 -i 300 -x 0 -f --format csv H H
expect_rc 0 "-i 300 -x 0"
awk -F, '$1 == 8 { n++; if (!($3 <= $2 && $2 <= $4 && $7 == 300)) bad = 1 } END { exit !(n == 1 && !bad) }' "$tmp/out" \
    || { cat "$tmp/out"; fail "-i 300 -x 0"; }
grep -q '^# Loop: classic OMB' "$tmp/out" || fail "H H: classic loop"
# The lap clock on MPI_Wtime alone (util/mpi/laps.h): the same checks.
UMB_LAPS_CLOCK=wtime run_mpi 2 "$lat" -m 8:8 -i 1 -x 0 -f --format csv H H
expect_rc 0 "UMB_LAPS_CLOCK=wtime -i 1 -x 0"
awk -F, '$1 == 8 { n++; if (!($2 > 0 && $2 == $3 && $3 == $4 && $7 == 1)) bad = 1 } END { exit !(n == 1 && !bad) }' "$tmp/out" \
    || { cat "$tmp/out"; fail "UMB_LAPS_CLOCK=wtime: one sample"; }
# --loop handshake runs the handshake loop on host buffers too.
run_mpi 2 "$lat" -m 8:8 -i 50 --loop handshake H H
expect_rc 0 "--loop handshake"
grep -q '^# Loop: handshake' "$tmp/out" || fail "--loop handshake: the Loop line"

# Size 0 is allowed, as in OMB.
run_mpi 2 "$lat" -m 0:2 -i 10
expect_rc 0 "-m 0:2"
awk '!/^#/ { s = s $1 " " } END { exit !(s == "0 1 2 ") }' "$tmp/out" || fail "sizes 0 1 2"

# Sizes: MIN, the powers of two between, then MAX, always (docs/method.md).
run_mpi 2 "$lat" -m 3:100 -i 10
expect_rc 0 "-m 3:100"
awk '!/^#/ { s = s $1 " " } END { exit !(s == "3 4 8 16 32 64 100 ") }' "$tmp/out" || { cat "$tmp/out"; fail "-m 3:100: sizes"; }
run_mpi 2 "$lat" -m 5:7 -i 10
expect_rc 0 "-m 5:7"
awk '!/^#/ { s = s $1 " " } END { exit !(s == "5 7 ") }' "$tmp/out" || { cat "$tmp/out"; fail "-m 5:7: sizes"; }
exit 0
