/* Setting a benchmark up, in order: the options, the observers' prepare
   (bench.c), MPI, the GPU each rank uses and whether the run can go on here
   (can_run.c); then, per buffer pair, pairs.c. */
#include "bench.h"
#include "can_run.h"

#include "config.h"
#include "env.h"
#include "error.h"
#include "gpu.h"
#include "sysinfo.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 512

static int choose_gpu(umb_bench *b, int local_rank, const char *from, int count, char *msg)
{
    if (b->opt.device >= 0) {
        if (b->opt.device >= count) {
            snprintf(msg, LINE, "%s: --device %d: rank %d on %s sees %d GPU(s), numbered 0..%d",
                     b->cli->program, b->opt.device, b->rank, b->host, count, count - 1);
            return UMB_EXIT_USAGE;
        }
        b->gpu = b->opt.device;
        snprintf(b->gpu_from, sizeof b->gpu_from, "--device");
    } else {
        b->gpu = local_rank % count;
        snprintf(b->gpu_from, sizeof b->gpu_from, "local rank %d (%s)", local_rank, from);
    }
    /* A launcher or wrapper that gives each rank its own GPU (Slurm's
       --gpus-per-task) makes every rank's GPU "0": the PCI bus says which it
       is, and the choice says why the index is what it is. */
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (visible) {
        size_t used = strlen(b->gpu_from);
        snprintf(b->gpu_from + used, sizeof b->gpu_from - used, " of %d visible (CUDA_VISIBLE_DEVICES=%.60s)", count, visible);
    }
    umb_gpu_use(b->gpu);
    return 0;
}

/* The GPU choice, begun before MPI_Init and finished after it. */
typedef struct {
    int needed, count, code;        /* a buffer needs a GPU; GPUs seen; the exit status all ranks agree on */
    char msg[2 * LINE], why[LINE];  /* code's message; why count is 0 */
} gpu_choice;

/* CUDA-aware libraries want the GPU chosen before MPI_Init: use the
   launcher's local rank when it gives one. */
static void choose_gpu_before_init(umb_bench *b, gpu_choice *g)
{
    g->count = g->needed ? umb_gpu_count(g->why, sizeof g->why) : 0;
    /* A bad --device is reported after MPI_Init, where rank and host are known. */
    if (g->needed && g->count > 0 && b->local_rank >= 0 && b->opt.device < g->count)
        g->code = choose_gpu(b, b->local_rank, b->local_from, g->count, g->msg);
}

/* Collective: the GPU when the launcher gave no local rank; where a GPU
   buffer finds none, why (b->no_gpu), for each pair that needs one. */
static void choose_gpu_after_init(umb_bench *b, gpu_choice *g)
{
    if (g->needed) {
        /* Collective on every rank (so no rank waits alone): the rank within
           this node's shared-memory group, for when no launcher variable said. */
        MPI_Comm node;
        int node_rank;
        UMB_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
        MPI_Comm_rank(node, &node_rank);
        MPI_Comm_free(&node);
        if (g->count == 0)
            snprintf(b->no_gpu, sizeof b->no_gpu, "%s", g->why[0] ? g->why : "no CUDA device");
        else if (b->gpu < 0 && !g->code) {
            g->code = choose_gpu(b, node_rank, "MPI_COMM_TYPE_SHARED", g->count, g->msg);
        }
    }
    umb_agree(g->code, g->msg);
}

/* -h and -v: rank 0 answers, every rank ends with 0. */
static void answer_help_or_version(const umb_bench *b)
{
    if (!b->opt.help && !b->opt.version) return;
    if (b->rank == 0) {
        if (b->opt.help) umb_usage(b->cli, stdout);
        else printf("%s (umbench) %s\n", b->cli->program, PACKAGE_VERSION);
    }
    int status = umb_output_end(b->cli->program, UMB_FMT_TABLE, 0, 0);
    MPI_Finalize();
    exit(status);
}

void umb_bench_init(umb_bench *b, const umb_cli *cli, int ranks, int argc, char **argv)
{
    umb_mpi_abort_on_fatal();
    umb_output_require(cli->program);
    char err[LINE];
    memset(b, 0, sizeof *b);
    b->cli = cli;
    b->gpu = b->local_rank = -1;
    int bad = umb_options_parse(&b->opt, cli, argc, argv, err, sizeof err);
    /* The environment's numbers, read once and range-checked: a bad one is
       a usage error, said once after MPI_Init as the options' are. */
    if (!bad) bad = umb_env_local_rank(&b->local_rank, &b->local_from, err, sizeof err);
    /* --check-options: the options' verdict alone, before MPI_Init and any
       GPU, so that umb-run refuses bad benchmark options before its first
       run (docs/output.md, "Exit status"). */
    if (b->opt.check_only) {
        /* -h and -v print and measure nothing: options that make no run (pass 12: "-fh"). */
        if (!bad && (b->opt.help || b->opt.version)) {
            snprintf(err, sizeof err, "%s prints the %s and measures nothing",
                     b->opt.help ? "-h (--help)" : "-v (--version)", b->opt.help ? "usage" : "version");
            bad = 1;
        }
        if (!bad) bad = umb_counters_unbuilt(&b->opt, err, sizeof err);  /* the run's refusal too */
        if (bad) fprintf(stderr, "%s: %s\n", cli->program, err);
        exit(bad ? UMB_EXIT_USAGE : 0);
    }
    gpu_choice gpu = {0};
    gpu.needed = !bad && !b->opt.help && !b->opt.version && umb_options_uses(&b->opt, umb_kind_needs_gpu);

    if (!bad && !b->opt.help && !b->opt.version) umb_observers_prepare(b, argv);
    umb_placement_set_mode(b->opt.place_check);
    if (!bad) umb_watchdog_start(b->opt.timeout);
    choose_gpu_before_init(b, &gpu);

    UMB_MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->nranks);
    umb_hostname(b->host, sizeof b->host);
    umb_error_context(cli->program, b->rank, b->host);
    umb_watchdog_where(b->rank, b->host);

    answer_help_or_version(b);
    umb_check_usage(b, bad, err, ranks);
    umb_check_counters(b);
    choose_gpu_after_init(b, &gpu);
    umb_mpi_awareness(b);

    b->out.format = b->opt.format;
    b->out.full = b->opt.full;
    b->out.validate = b->opt.validate;
    b->out.program = cli->program;
    b->out.buffers = b->buffers;
    b->out.out = stdout;
    if (b->opt.npairs == 1) umb_bench_pair(b, 0);  /* one pair: a skip ends the job, as it always has */
}
