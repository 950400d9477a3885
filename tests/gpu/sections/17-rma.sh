#   rma: the one-sided programs over H, D, MD, MH windows through every configuration, with --path;
#        then umb_put_latency MD MD under each other -s where a managed window was made
# shellcheck shell=bash

# Issue 34's one-sided table: umb_put_latency, umb_get_latency and
# umb_put_bw, windows over H, D, MD and MH (origin and target of one kind),
# with --path, through the machine's Open MPI and every carried stack that
# is built; Open MPI's UCX configurations add --mca osc ucx (the default osc
# of the machine's 4.1.6 makes no window). A refusal is a row of its own.
section_rma() {
stacks_setup || echo "one-sided: the machine's Open MPI only"
local rma  # the registry's one-sided programs
rma=$(programs family=rma | paste -sd ' ')
step "one-sided: put/get latency and put bandwidth over H D MD MH windows, --path, every configuration"
while IFS='|' read -r name stack flags; do
    [ "$stack" = system ] || [ -x "/tmp/umb-stack-$stack/mpi/rma/umb_put_latency" ] || continue
    case $flags in *"pml ucx"*) flags="$flags --mca osc ucx" ;; esac
    with_stack "$name" "$stack" "$flags" bash -c "$(declare -f why_runs); out='$out'; why_runs $name rma '$rma' 'H-H D-D MD-MD MH-MH'"
    # OMB's other synchronisations on managed windows, where the default made one.
    grep -q '"type":"result"' "$out/rma-$name-umb_put_latency-MD-MD.jsonl" 2>/dev/null || continue
    for s in flush_local lock lock_all fence pscw; do
        with_stack "$name" "$stack" "$flags" bash -c "$(declare -f why_runs); out='$out'; WHY_EXTRA='-s $s -i 20 -x 2' why_runs $name+$s rmas umb_put_latency MD-MD"
    done
done < <(stack_configs)
why_table rma- | tee "$out/rma-table.txt"
echo; echo "umb_put_latency MD MD under each -s (config+sync):"
why_table rmas- | tee "$out/rma-sync-table.txt"
}
