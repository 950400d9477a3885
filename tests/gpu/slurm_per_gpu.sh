#!/bin/sh
# The Slurm batch script's per-gpu layout on real GPUs (2 or more; skipped,
# 77, with fewer): scripts/slurm/umb.sbatch run as Slurm would run it on one
# node, with a stand-in srun that does what --gpus-per-task=1 does (each
# rank sees only its own GPU, CUDA_VISIBLE_DEVICES), then the real launcher.
# Every run of the set puts one rank on each GPU, and every rank reports the
# GPU it really uses (its PCI bus), though each sees only "GPU 0".
. "$top_srcdir/tests/lib.sh"
needs_scripts  # umb-run, through the batch script
n=$(gpu_count)
[ "$n" -ge 2 ] || skip "the per-gpu layout on GPUs needs 2 or more; this machine shows $n"
command -v bash >/dev/null || skip "bash not found"
inst=$tmp/inst; mkdir "$inst" "$tmp/bin"
ln -s "$top_srcdir/scripts/umb-run" "$inst/umb-run"
for p in $(mpi_programs); do ln -s "$top_builddir/$p" "$inst/${p##*/}"; done
# srun --ntasks=N --gpus-per-task=1 ... PROGRAM ARGS: N ranks through the
# real launcher, each with its local rank's GPU alone visible.
cat >"$tmp/bin/srun" <<EOF2
#!/bin/sh
echo "srun \$*" >>"$tmp/launch.log"
n=1 gpt=
while [ \$# -gt 0 ] && ! [ -f "\$1" -a -x "\$1" ]; do
    case \$1 in -n) n=\$2; shift ;; --ntasks=*) n=\${1#--ntasks=} ;; --gpus-per-task=1) gpt=1 ;; esac
    shift
done
[ -n "\$gpt" ] || exec $MPIEXEC $mpi_flags -np "\$n" "\$@"
exec $MPIEXEC $mpi_flags -np "\$n" sh -c 'export SLURM_LOCALID=\$OMPI_COMM_WORLD_LOCAL_RANK CUDA_VISIBLE_DEVICES=\$OMPI_COMM_WORLD_LOCAL_RANK; exec "\$0" "\$@"' "\$@"
EOF2
chmod +x "$tmp/bin/srun"
"$MPIEXEC" --version 2>&1 | grep -q "Open MPI" || skip "the stand-in srun reads Open MPI's local rank"
rc=0
env -u MPIEXEC PATH="$tmp/bin:$PATH" UMB_BINDIR="$inst" UMB_LAYOUT=per-gpu UMB_OUT="$tmp/r" UMB_EXTRA="-m 8:8 -i 10 -x 1" \
    SLURM_JOB_ID=42 SLURM_NNODES=1 SLURM_GPUS_PER_NODE="$n" timeout "$RUN_LIMIT" bash "$top_srcdir/scripts/slurm/umb.sbatch" \
    >"$tmp/job.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat "$tmp/job.log" "$tmp/launch.log"; fail "umb.sbatch per-gpu: exit $rc"; }
grep -q -- "--gpus-per-task=1" "$tmp/launch.log" || { cat "$tmp/launch.log"; fail "per-gpu: no --gpus-per-task=1"; }
# Each run that used a GPU: every rank on a GPU of its own, named by its PCI bus.
for f in "$tmp"/r/*M*.jsonl; do
    [ -f "$f" ] || continue
    must_judge visible-one "$f" any
done
ls "$tmp"/r/*M*.jsonl >/dev/null 2>&1 || { cat "$tmp/job.log"; fail "per-gpu: no run with managed buffers"; }
echo "umb.sbatch per-gpu: $(ls "$tmp"/r/*.jsonl | wc -l) runs on $n GPUs, one rank per GPU, each GPU named"
exit 0
