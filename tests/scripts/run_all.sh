#!/bin/sh
# tests/gpu/run-all without a GPU: its files parse and keep their size, -h
# names every section there is, and the dispatch reaches each section by
# its name. The machine is stubbed (nvidia-smi, mpirun, nvcc, make,
# autogen.sh, configure log what they are asked); each section function is
# replaced by one that says it was reached, so nothing is measured.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
# run-all's own knobs from a run that started this test (the GPU machine's
# make check runs under run-all, with UMB_GPU_RECORD set) are not this one's.
for v in $(env | sed -n 's/^\(UMB_GPU_[A-Z_]*\|UMB_AWARE_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
gpu=$top_srcdir/tests/gpu
files="$gpu/run-all $gpu/run-lib.sh $gpu/run-node $(ls "$gpu"/sections/*.sh 2>/dev/null)"

# Every file parses, and none is over 300 lines (issue 50: a file of a kept
# size, read whole).
for f in $files; do
    [ -f "$f" ] || fail "$f: missing"
    bash -n "$f" || fail "$f: bash -n"
    n=$(wc -l <"$f")
    [ "$n" -le 300 ] || fail "$f: $n lines, over 300"
done

# A copy of the run in a top of its own: the real files, the stubs, and the
# sections replaced (after run-node, the last file run-all sources).
fake=$tmp/top; mkdir -p "$fake/tests" "$tmp/bin" "$tmp/build"
cp -R "$gpu" "$fake/tests/gpu"
cp "$top_srcdir/programs.txt" "$fake/"
[ ! -f "$top_srcdir/programs.sh" ] || cp "$top_srcdir/programs.sh" "$fake/"
cat >>"$fake/tests/gpu/run-node" <<'EOF'
for f in $(declare -F | sed -n 's/^declare -f \(section_.*\)/\1/p'); do
    eval "$f() { echo \"reached $f\"; }"
done
EOF
log=$tmp/stub.log
for c in nvidia-smi mpirun nvcc make; do
    cat >"$tmp/bin/$c" <<EOF
#!/bin/sh
echo "$c \$* [in \$PWD] [record \${UMB_GPU_RECORD:-}]" >>"$log"
case "$c \$*" in
"nvidia-smi -L") echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)" ;;
"nvidia-smi --query-gpu"*) echo "NVIDIA H100 80GB HBM3" ;;
"make"*check*) echo "PASS: tests/stub.sh" ;;
esac
exit 0
EOF
done
printf '#!/bin/sh\necho "autogen [in $PWD]" >>"%s"\n' "$log" >"$fake/autogen.sh"
printf '#!/bin/sh\necho "configure $* [in $PWD]" >>"%s"\n' "$log" >"$fake/configure"
chmod +x "$tmp/bin/"* "$fake/autogen.sh" "$fake/configure"
run_all() {
    rc=0
    env PATH="$tmp/bin:$PATH" UMB_GPU_BUILD="$tmp/build" ${run_env:-} timeout 60 bash "$fake/tests/gpu/run-all" "$@" \
        </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
}

# -h names every section function of the files, and nothing else as one.
bash "$gpu/run-all" -h >"$tmp/help" || fail "run-all -h: exit status"
grep -q '^  check: ' "$tmp/help" || fail "run-all -h does not list check"
(cd "$fake/tests/gpu" && cat run-lib.sh sections/*.sh run-node) | sed -n 's/^section_\([a-z]*\)().*/\1/p' | sort >"$tmp/defined"
[ "$(wc -l <"$tmp/defined")" -ge 30 ] || fail "fewer than 30 sections defined: $(cat "$tmp/defined")"
for s in $(cat "$tmp/defined"); do
    grep -q -E "(^|[ ,])$s([:,]| and )" "$tmp/help" || fail "run-all -h does not name the section $s"
done

# check: the machine, the build (autogen, configure for sm_90, make) and
# make check, recorded under OUTDIR/recorded/h100x1; no section.
run_all "$tmp/o1" check
[ "$rc" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "run-all OUT check: exit $rc"; }
for want in "autogen [in $fake]" "configure --with-cuda-arch=90 [in $tmp/build]" "make -j16 [in $tmp/build] [record ]" \
            "make -j6 check [in $tmp/build] [record $tmp/o1/recorded/h100x1]"; do
    grep -q -x -F "$want" "$log" || { cat "$log"; fail "run-all OUT check did not run: $want"; }
done
grep -q '^PASS: tests/stub.sh' "$tmp/out" || fail "run-all OUT check did not show make check's results"
for f in machine.txt build.log check.log; do [ -f "$tmp/o1/$f" ] || fail "run-all OUT check wrote no $f"; done
! grep -q '^reached' "$tmp/out" || fail "run-all OUT check ran a section: $(grep '^reached' "$tmp/out")"

# Every section, by name, in the order asked: each reached once.
mkdir -p "$tmp/build/mpi/pt2pt" && touch "$tmp/build/mpi/pt2pt/umb_latency" && chmod +x "$tmp/build/mpi/pt2pt/umb_latency"
: >"$log"
run_env="UMB_GPU_REUSE=1 UMB_GPU_TESTS=none"
run_all "$tmp/o2" $(cat "$tmp/defined") check
sed -n 's/^reached section_//p' "$tmp/out" >"$tmp/reached"
cmp -s "$tmp/defined" "$tmp/reached" || { diff "$tmp/defined" "$tmp/reached"; fail "the dispatch did not reach each section once, in order"; }
grep -q '^reusing ' "$tmp/out" || fail "UMB_GPU_REUSE=1 did not keep the build"
! grep -q '^autogen' "$log" || fail "a kept build (UMB_GPU_REUSE=1) ran autogen.sh"

# Sections alone run no make check: a lent machine's whole time went to
# one nobody asked for (issue 48's first node call).
: >"$log"
run_env="UMB_GPU_REUSE=1"
run_all "$tmp/o4" latency bandwidth
run_env=
[ "$rc" -eq 0 ] && grep -q "^reached section_bandwidth" "$tmp/out" || { cat "$tmp/out" "$tmp/err"; fail "run-all OUT latency bandwidth: exit $rc"; }
! grep -q 'check' "$log" && [ ! -f "$tmp/o4/check.log" ] || { cat "$log"; fail "run-all OUT latency bandwidth ran make check"; }

# A misspelt section: refused with the names there are, exit 1, none run.
run_all "$tmp/o3" latency latncy
[ "$rc" -eq 1 ] || fail "run-all OUT latncy: exit $rc, expected 1"
grep -q 'run-all: unknown section latncy (check .*latency' "$tmp/err" || { cat "$tmp/out" "$tmp/err"; fail "misspelt section: no message naming it"; }
! grep -q '^reached' "$tmp/out" || fail "misspelt section: a section ran anyway"

# The sections' time variables through their one reader (run-lib.sh): a
# number is taken, nothing where unset, and anything else is one line and
# status 1, never evaluated by shell arithmetic.
bash -c 'top=$1; . "$top/tests/gpu/run-lib.sh"
    [ "$(UMB_DEADLINE= deadline_left)" = "" ] && [ "$(UMB_DEADLINE=$(( $(date +%s) + 100 )) deadline_left)" -ge 98 ] \
        && [ "$(UMB_RF_LIMIT= seconds_var UMB_RF_LIMIT 600)" = 600 ] && [ "$(UMB_RF_LIMIT=08 seconds_var UMB_RF_LIMIT 600)" = 8 ] || exit 2
    for v in "a[\$(touch $2/ran)]" 1e3 -5 " 7" 9999999999999; do
        UMB_DEADLINE=$v deadline_left >"$2/got" 2>"$2/err" && exit 3
        [ ! -s "$2/got" ] && [ "$(wc -l <"$2/err")" = 1 ] && grep -q "^UMB_DEADLINE=.*: expected whole seconds$" "$2/err" || exit 4
    done
    [ ! -e "$2/ran" ]' x "$top_srcdir" "$tmp" || fail "run-lib.sh: the sections' time variables (exit $?)"
echo "run-all: $(wc -l <"$tmp/defined") sections reached by name; check builds and runs make check"

# A misspelt UMB_GPU_TESTS is refused in one line before anything runs; a
# machine without a GPU gets 77 and a line (it ran every section, exit 0).
run_env="UMB_GPU_TESTS=tests/gpu/nosuch.sh" run_all "$tmp/o9" check
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^run-all: UMB_GPU_TESTS: no test tests/gpu/nosuch.sh; accepted: none" "$tmp/err" \
    && [ ! -e "$tmp/o9/build.log" ] || { cat "$tmp/out" "$tmp/err"; fail "run-all with UMB_GPU_TESTS=tests/gpu/nosuch.sh: exit $rc"; }
if ! PATH=/usr/bin:/bin command -v nvidia-smi >/dev/null; then
    mkdir -p "$tmp/bin2" && cp "$tmp/bin/mpirun" "$tmp/bin/nvcc" "$tmp/bin/make" "$tmp/bin2/"
    rc=0; env PATH="$tmp/bin2:/usr/bin:/bin" UMB_GPU_BUILD="$tmp/build" timeout 60 bash "$fake/tests/gpu/run-all" "$tmp/o10" latency \
        </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 77 ] && grep -q "^run-all: no NVIDIA GPU here" "$tmp/err" && ! grep -q "^reached" "$tmp/out" \
        || { cat "$tmp/out" "$tmp/err"; fail "run-all without a GPU: exit $rc"; }
else
    echo "this machine has nvidia-smi: run-all's no-GPU case not tried"
fi
