#!/bin/sh
# util/gpu/topo.c without a GPU: tests/unit/test_topo against a stand-in
# libnvidia-ml.so.1 (tests/tools/fake_nvml.c) for each made-up machine,
# and, where this machine has no NVML of its own, without any.
. "$top_srcdir/tests/lib.sh"
test_topo=$top_builddir/tests/unit/test_topo
fake=$top_builddir/tests/tools/fakenvml
for s in switch hidden direct pcie fail; do
    rc=0
    LD_LIBRARY_PATH=$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} UMB_FAKE_NVML=$s "$test_topo" "$s" || rc=$?
    [ "$rc" -ne 77 ] || skip "host-only build"
    [ "$rc" -eq 0 ] || fail "test_topo $s"
done
if ! ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 '; then
    "$test_topo" missing || fail "test_topo missing"
fi
