/* Several buffer pairs in one launch (docs/decisions.md, "One launch for
   many pairs"): MPI_Init, the GPU and the watchdog once, then each pair in
   turn with what it needs of its own (its kinds, whether it can run here,
   its buffers, header, rows and end record), so that a reader sees one run
   per pair, as it would from one launch each. */
#include "bench.h"
#include "can_run.h"

#include "error.h"

#include <mpi.h>
#include <stdio.h>

#define LINE 512

int umb_bench_pair(umb_bench *b, int k)
{
    char msg[2 * LINE], why[2 * LINE];
    umb_options_select_pair(&b->opt, k);
    b->kind = umb_kind_of_rank(&b->opt, b->rank, b->nranks, b->cli->collective);
    umb_describe_buffers(&b->opt, b->cli->collective, b->buffers, sizeof b->buffers);
    b->exit_code = 0;
    int code = umb_pair_skip(b, msg, sizeof msg);
    if (b->opt.npairs == 1) {
        umb_agree(code, msg);  /* one pair: its skip ends the job (exit 77) */
        return 0;
    }
    int worst = umb_agree_pair(code, msg, why, sizeof why);
    if (worst) umb_output_end_pair(b->cli->program, b->opt.format, b->rank == 0, worst, b->buffers, why);
    return worst;
}

int umb_bench_pairs(umb_bench *b, void (*run)(umb_bench *b, void *ctx), void *ctx)
{
    if (b->opt.npairs == 1) {  /* umb_bench_init took the pair: the output and status of a launch of one */
        run(b, ctx);
        return umb_bench_finish(b);
    }
    int worst = 0, ran = 0;  /* the worst status of the pairs that ran, and how many ran */
    for (int k = 0; k < b->opt.npairs; k++) {
        if (umb_bench_pair(b, k)) continue;
        run(b, ctx);
        int status = umb_output_end_pair(b->cli->program, b->opt.format, b->rank == 0, b->exit_code, b->buffers, NULL);
        if (status > worst) worst = status;
        ran++;
    }
    MPI_Finalize();
    /* Every pair skipped: the launch says so (77), as one of them would. */
    return ran ? worst : UMB_EXIT_SKIP;
}
