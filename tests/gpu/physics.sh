#!/bin/sh
# Physics, not only "it ran" (GPU machine; skipped, 77, without a GPU): only
# what the physics guarantees on every host, with margins from the same
# run's repeats, never a share of another figure that varies run to run
# (docs/method.md, "What tests/gpu/physics.sh asserts"). Every bound comes
# from the machine: the PCIe link each header reports (its maximum
# generation and width), never a figure typed in.
#  1. umb_copy: pinned copies, 256 MiB, each way, at most the link (the
#     share is printed: a shared host's link gave 27.0 and 52.2 GB/s in the
#     same minute).
#  2. umb_um, three fresh processes per advice, interleaved: accessed-by
#     (remote mapped, no migration) reads faster than first-touch demand
#     paging in every turn, its median faster than every demand run; no accessed-by
#     run and no first demand run above the link; demand paging's second
#     run reads HBM, above twice the link.
#  3. umb_latency MD MD through an MPI that is not CUDA-aware is slower than
#     H H by at least the time the message needs to cross the link: each
#     one-way trip first moves the sender's pages to the host.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found: cannot read JSON"
copy=$top_builddir/c/umb_copy
um=$top_builddir/c/umb_um
[ -x "$copy" ] && [ -x "$um" ] || skip "c/ programs are not built (host-only build)"
run_cmd "$copy" --memory pinned --direction htod,dtoh --method ce --size 256M -r 5 --format json
[ "$rc" -ne 77 ] || skip "$(cat "$tmp/err")"
expect_rc 0 "umb_copy pinned 256 MiB"
cp "$tmp/out" "$tmp/pinned.jsonl"
must_judge copy-pinned "$tmp/pinned.jsonl"

# Each advice in its own process, so each run 1 is a first touch; the
# advices take turns, so a change in the link's speed meets both.
for try in 1 2 3; do
    for advise in accessed-by none; do
        run_cmd "$um" --size 256M --repeat 2 --advise $advise --format json
        expect_rc 0 "umb_um --advise $advise"
        cp "$tmp/out" "$tmp/um-$advise-$try.jsonl"
    done
done
must_judge physics-um "$tmp"/um-accessed-by-?.jsonl "$tmp"/um-none-?.jsonl "$tmp/pinned.jsonl"

lat=$PT2PT/umb_latency
run_mpi 2 "$lat" -m 64K:64K -i 200 -x 10 -f --format json H H
expect_rc 0 "umb_latency H H 64 KiB"
cp "$tmp/out" "$tmp/hh.jsonl"
run_mpi 2 "$lat" -m 64K:64K -i 200 -x 10 -f --format json MD MD
expect_rc 0 "umb_latency MD MD 64 KiB"
must_judge physics-mdmd "$tmp/hh.jsonl" "$tmp/out"
exit 0
