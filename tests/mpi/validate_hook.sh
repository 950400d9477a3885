#!/bin/sh
# -c at program level, one run per family (issue 70): the test builds of
# umb_bw, umb_bibw, umb_put_bw and umb_bcast (tests/tools/hooked/: bench.c's
# one -c hook compiled in, never installed) flip one byte of a chosen
# message, on a chosen rank, at a chosen offset; the program names it and
# exits 2. Every position (message of the window, offset, sender) is
# tests/unit/test_window_check's; here, that a program acts on what the
# check says.
. "$top_srcdir/tests/lib.sh"

# hooked PROGRAM RANK:MESSAGE:OFFSET [ARGS]: 16-byte messages, 3 windows
# of 4 (a collective: 3 calls); MESSAGE counts from the run's first (warm-up 0).
hooked() {
    prog=$1 at=$2
    shift 2
    UMB_TEST_CORRUPT=$at
    export UMB_TEST_CORRUPT
    run_mpi 2 "$top_builddir/tests/tools/hooked/$prog" -c -m 16:16 -i 3 -x 0 --timeout 60 "$@"
    expect_rc 2 "$prog with byte ${at##*:} of message $(echo "$at" | cut -d: -f2) on rank ${at%%:*} flipped"
    msg=$(echo "$at" | cut -d: -f2) off=${at##*:}
    grep -q "^$prog: rank ${at%%:*} on .*: size 16, message $msg (key [01]) at offset [0-9]*: byte $off is 0x[0-9a-f]*, expected 0x" "$tmp/err" \
        || { cat "$tmp/err"; fail "$prog: no line naming message $msg, byte $off"; }
    grep -q "^16 .*Fail$" "$tmp/out" || { cat "$tmp/out"; fail "$prog: the row does not say Fail"; }
}
hooked umb_bw 1:6:15 -W 4 H H     # the receiver, window 1's third message, its last byte
hooked umb_bibw 0:3:0 -W 4 H H    # rank 0 as receiver, window 0's last message, its first byte
hooked umb_put_bw 1:9:8 -W 4 H H  # the target's window, window 2's second operation, a middle byte
hooked umb_bcast 1:2:8            # the receiving rank, the last call, a middle byte
exit 0
