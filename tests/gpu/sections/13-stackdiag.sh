#   stackdiag: CUDA-aware stacks (.carry/stacks.tar.gz): ucx_perftest and D D through UCX, setting by setting
# shellcheck shell=bash

d_latency() {  # d_latency LABEL [ENV=VALUE...]: umb_latency D D at 8 B, 64 KiB, 4 MiB
    local label=$1; shift
    env "$@" timeout 120 $MPIEXEC $MPIEXEC_FLAGS -np 2 "$BD/mpi/pt2pt/umb_latency" -m 8:4M -i 100 -x 10 -f -c --timeout 60 \
        D D >"$out/diag-$NAME-$label.txt" 2>&1
    local rc=$?
    if [ $rc -eq 77 ]; then  # refused by the verdict: say so, and measure anyway
        label="$label-refused-assumed"
        env "$@" timeout 120 $MPIEXEC $MPIEXEC_FLAGS -np 2 "$BD/mpi/pt2pt/umb_latency" -m 8:4M -i 100 -x 10 -f -c --timeout 60 \
            --assume-cuda-aware D D >"$out/diag-$NAME-$label.txt" 2>&1
        rc=$?
    fi
    printf '%-16s %-34s exit %3d  %s\n' "$NAME" "$label" $rc "$(awk '/^(8|65536|4194304) / { printf "%s B: p50 %s  ", $1, $5 }' "$out/diag-$NAME-$label.txt")"
}

diag_one() {
    sed -n 's/^# \(CUDA-aware MPI\|UCX\): /  \1: /p' "$out/diag-$NAME-default.txt" 2>/dev/null | head -2
}

section_stackdiag() {
stacks_setup || return
step "D D through UCX: what the per-message cost is (2 ranks, one GPU; p50 one-way us)"
local perf=/opt/umb-stacks/ucx-cu13/libucx/bin/ucx_perftest
( export LD_LIBRARY_PATH=/opt/umb-stacks/ucx-cu13/libucx/lib
  for m in host cuda; do for sz in 8 65536 4194304; do
    timeout 60 $perf -t tag_lat -m $m -s $sz -n 200 -w 20 -p 13337 >"$out/perftest-srv.txt" 2>&1 &
    sleep 1
    r=$(timeout 60 $perf 127.0.0.1 -t tag_lat -m $m -s $sz -n 200 -w 20 -p 13337 2>&1 | tail -1)
    wait
    echo "ucx_perftest tag_lat -m $m,$m -s $sz: $r"
  done; done ) | tee "$out/perftest.txt"
for cfg in "ompi5-wheel-ucx|ompi5-wheel|$ucx" "ompi4-cuda-ucx|ompi4-cuda|$ucx" "ompi4-cuda-ob1|ompi4-cuda|$ob1"; do
    IFS='|' read -r name stack flags <<<"$cfg"
    with_stack "$name" "$stack" "$flags" bash -c "$(declare -f d_latency diag_one); out='$out'
        d_latency default; diag_one
        d_latency memtype-cache-off UCX_MEMTYPE_CACHE=n
        d_latency no-cuda_ipc UCX_TLS=^cuda_ipc
        d_latency ipc-cache-off UCX_CUDA_IPC_CACHE=n
        d_latency proto-info UCX_PROTO_INFO=y"
done
grep -h -i -E 'tag_send|tag_recv|rndv|cuda' "$out"/diag-ompi5-wheel-ucx-proto-info.txt | head -20
step "the same with umbench's cudart linked shared (-lcudart) instead of static"
for s in ompi5-wheel ompi4-cuda; do
    ( eval "$("$top/scripts/umb-stack" env $s)" && cd /tmp/umb-stack-$s && rm -f mpi/pt2pt/umb_latency \
      && make mpi/pt2pt/umb_latency CUDA_LIBS="-L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcudart -lrt -ldl -lpthread -lstdc++" \
      && mv mpi/pt2pt/umb_latency mpi/pt2pt/umb_latency.shared && make mpi/pt2pt/umb_latency ) >>"$out/build-shared.log" 2>&1 \
      || echo "$s: shared-cudart build failed"
done
for cfg in "ompi5-wheel-ucx|ompi5-wheel|$ucx" "ompi4-cuda-ucx|ompi4-cuda|$ucx"; do
    IFS='|' read -r name stack flags <<<"$cfg"
    with_stack "$name" "$stack" "$flags" bash -c "$(declare -f d_latency); out='$out'
        ldd \$BD/mpi/pt2pt/umb_latency.shared | grep -i cudart
        mv \$BD/mpi/pt2pt/umb_latency \$BD/mpi/pt2pt/umb_latency.static; cp \$BD/mpi/pt2pt/umb_latency.shared \$BD/mpi/pt2pt/umb_latency
        d_latency shared-cudart
        d_latency shared-cudart-memtype-off UCX_MEMTYPE_CACHE=n
        mv \$BD/mpi/pt2pt/umb_latency.static \$BD/mpi/pt2pt/umb_latency"
done
}
