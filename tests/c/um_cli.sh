#!/bin/sh
# umb_um and umb_oversub without a GPU: -h, -v, one line and exit 1 for each
# bad command line (before any GPU is looked for), and one line and exit 77
# when there is no GPU (hidden with CUDA_VISIBLE_DEVICES on a GPU machine).
. "$top_srcdir/tests/lib.sh"
um=$top_builddir/c/umb_um
ov=$top_builddir/c/umb_oversub
[ -x "$um" ] && [ -x "$ov" ] || skip "c/umb_um and c/umb_oversub are not built (host-only build)"

# run PROGRAM ARGS...: stdout to $tmp/out, stderr to $tmp/err, status in $rc.
run() {
    rc=0
    timeout 60 "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -ne 124 ] || fail "$* did not end within 60 s"
}
# bad PROGRAM NAMES ARGS...: exit 1, one "PROGRAM: " line naming NAMES, no results.
bad() {
    path=$1 names=$2; shift 2
    name=$(basename "$path")
    run "$path" "$@"
    expect_rc 1 "$name $*"
    [ "$(grep -c "^$name: " "$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "$name $*: not one message line"; }
    grep "^$name: " "$tmp/err" | grep -qF -- "$names" || { cat "$tmp/err"; fail "$name $*: message does not name '$names'"; }
    [ ! -s "$tmp/out" ] || { cat "$tmp/out"; fail "$name $*: printed results"; }
}

version=$(sed -n 's/^AC_INIT(\[umbench\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
for p in "$um" "$ov"; do
    name=$(basename "$p")
    run "$p" -h
    expect_rc 0 "$name -h"
    [ "$(grep -c "^Usage: $name" "$tmp/out")" -eq 1 ] || fail "$name -h: usage"
    grep -q -- '--allow-oversubscription' "$tmp/out" || fail "$name -h: lists --allow-oversubscription"
    run "$p" --version
    expect_rc 0 "$name --version"
    [ "$(cat "$tmp/out")" = "$name (umbench) $version" ] || { cat "$tmp/out"; fail "$name --version"; }
    # An unknown option: one line, then the usage.
    run "$p" --no-such-option
    expect_rc 1 "$name --no-such-option"
    grep -q "^$name: unknown option --no-such-option" "$tmp/err" || { cat "$tmp/err"; fail "$name: unknown option"; }
    grep -q "^Usage: $name" "$tmp/err" || fail "$name: unknown option without the usage"
    bad "$p" "--format xml" --format xml
    bad "$p" "--device -1" --device -1
    bad "$p" "--block 100" --block 100
    bad "$p" "--grid 0" --grid 0
    bad "$p" "--op copy" --op copy
    bad "$p" "'extra'" extra
done

bad "$um" "--size 1000" --size 1000
bad "$um" "--size 1X" --size 1X
bad "$um" "--size 0" --size 0
# Past the most a driver takes (1P): its buffer's page rounding wrapped near SIZE_MAX (issue 66).
bad "$um" "--size 18446744073709547520: expected a multiple of 4K from 4K to 1125899906842624" --size 18446744073709547520
bad "$um" "--size 2097152G" --size 2097152G
bad "$um" "--repeat 0" --repeat 0
bad "$um" "--repeat 33" --repeat 33
bad "$um" "--repeat many" --repeat many
bad "$um" "-r 0" -r 0
# --runs was renamed: refused with the new name, whatever its value.
bad "$um" "--runs: renamed --repeat" --runs 3
bad "$um" "--runs: renamed --repeat" --runs=3
bad "$um" "--device all" --device all
bad "$um" "--memory hbm" --memory hbm
bad "$um" "--memory H" --memory H
bad "$um" "--memory managed-device" --memory managed-device
bad "$um" "--advise fast" --advise fast
bad "$um" "--advise preferred=cpu,preferred=gpu" --advise preferred=cpu,preferred=gpu
bad "$um" "--prefetch some" --prefetch some
bad "$um" "--prefetch blocks:5" --prefetch blocks:5
bad "$um" "--prefetch blocks:2G" --size 1G --prefetch blocks:2G
bad "$um" "--memory pinned" --memory pinned --advise accessed-by
bad "$um" "--memory pinned" --memory P --advise accessed-by
bad "$um" "--advise accessed-by=gpu,preferred=gpu,preferred=cpu" --advise accessed-by=gpu,preferred=gpu,preferred=cpu
bad "$um" "--memory device" --memory device --matrix
bad "$um" "--touch-on-host" --memory device --touch-on-host
bad "$um" "--numa-node 0" --numa-node 0
bad "$um" "--numa-node x" --numa-node x --memory numa-host  # the value first: a build without libnuma refuses numa-host
bad "$um" "--matrix" --matrix --prefetch whole
bad "$um" "--size" --size
# numa-host: a build without libnuma refuses it before any GPU is looked for.
grep -q '^#define HAVE_NUMA 1' "$top_builddir/config.h" || bad "$um" "--memory numa-host: this build has no libnuma" --memory numa-host

bad "$ov" "--factor 0" --factor 0
bad "$ov" "'abc'" --factor 0.1,abc
bad "$ov" "--factor -1" --factor -1
bad "$ov" "--factor 65" --factor 65
bad "$ov" "--factor nan" --factor nan
bad "$ov" "--pattern zigzag" --pattern zigzag
# Every value of each list option, given twice: refused naming the value,
# as the MPI programs' lists are (umb_list_repeat).
for opt in --pattern --mode; do
    run "$ov" "$opt" zz
    values=$(sed -n "s/.*accepted: \([^(]*\) (.*/\1/p" "$tmp/err" | tr -d ,)
    [ -n "$values" ] || { cat "$tmp/err"; fail "$opt zz: no accepted values named"; }
    for v in $values; do
        bad "$ov" "$opt $v,$v: '$v' named twice" "$opt" "$v,$v"
    done
done
bad "$ov" "--pattern grid,,block" --pattern grid,,block
# Above 1 is refused with the other bad input, before any GPU is looked for.
bad "$ov" "--factor 1.5: above 1 oversubscribes" --factor 1.5
bad "$ov" "--factor 0.5,0.50: the factor 0.5 is given twice" --factor 0.5,0.50
bad "$ov" "--mode stripe-8K" --mode stripe-8K
bad "$ov" "--steps 0" --steps 0
# What umb_oversub does not take (umb_copy's sizes, a repeat count).
bad "$ov" "unknown option --repeat" --repeat 2
bad "$ov" "unknown option --size" --size 4K

# They start without a driver: nothing links libcuda.
if command -v ldd >/dev/null; then
    for p in "$um" "$ov"; do
        ! ldd "$p" | grep -q 'libcuda\.so' || fail "$p links libcuda.so"
    done
fi

# No GPU: one line, exit 77, even for a request that a GPU would refuse.
export CUDA_VISIBLE_DEVICES=
# Every option each accepts gets this far (none is taken for a bad one).
for cmd in "$um --repeat 1" "$um -r 2 --matrix" "$ov --factor 0.1" "$ov --factor 1.5 --allow-oversubscription" \
           "$um -f -U --device 0 --grid 64 --block 128 --format csv --allow-oversubscription --op write" \
           "$um --memory M --advise accessed-by,read-mostly --prefetch blocks:64M" "$um --memory P" \
           "$um --memory device --op write" "$um --memory pinned --touch-on-host" \
           "$ov -U --device 0 --grid 64 --block 128 --format json --steps 4 --op write"; do
    run $cmd
    name=$(basename "${cmd%% *}")
    expect_rc 77 "$cmd without a GPU"
    [ "$(grep -c "^$name: needs a CUDA GPU, but this machine has none: " "$tmp/err")" -eq 1 ] \
        && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "$cmd: no-GPU message"; }
    [ ! -s "$tmp/out" ] || fail "$cmd: printed results without a GPU"
done
echo "umb_um and umb_oversub: usage, bad input and no-GPU checks passed"
exit 0
