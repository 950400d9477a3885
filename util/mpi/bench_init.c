/* Setting a benchmark up: agreeing on failures, the buffer kinds of the
   ranks, the GPU each rank uses, the options' checks, and the buffers;
   then the observers prepare (bench.c). */
#include "bench.h"

#include "config.h"
#include "cupti_um.h"
#include "error.h"
#include "gpu.h"
#include "sysinfo.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE 512

void umb_agree(int code, const char *message)
{
    int rank, nranks, first, worst, mine;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    mine = code ? rank : nranks;
    UMB_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (!worst) return;
    if (rank == first && message && *message) {
        fprintf(stderr, "%s\n", message);
        fflush(stderr);
    }
    MPI_Finalize();
    /* Only the rank that spoke ends non-zero, and a skip ends last: a launcher
       that kills the other ranks when one ends badly (Slurm's KillOnBadExit)
       would otherwise report their signal (143) instead of 77. Inside a Slurm
       step 0.5 s was too short on a loaded 2-core machine (make distcheck). */
    if (rank != first) exit(0);
    if (worst == UMB_EXIT_SKIP) usleep(getenv("SLURM_STEP_ID") ? 3000000 : 500000);
    exit(worst);
}

static int is_device(umb_kind k) { return k == UMB_D; }

/* Point-to-point: ranks in the first half take the first kind, the rest the
   second (OMB). Collectives: the --buffers list, else the root's kind for a
   fixed root and the others' kind for everyone else. */
static umb_kind kind_of_rank(const umb_options *o, int rank, int nranks, int collective)
{
    umb_kind k;
    if (collective) {
        if (o->buffer_list) return umb_list_kind(o->buffer_list, rank, &k) == 0 ? k : UMB_H;
        return !o->root_rotate && rank == o->root ? o->root_kind : o->other_kind;
    }
    if (o->nkinds < 2) return o->nkinds ? o->kinds[0] : UMB_H;
    return rank < nranks / 2 ? o->kinds[0] : o->kinds[1];
}

/* "MD MH" (point-to-point), or for collectives "all MH", "root MD, others MH", "MD,MH,MH,MD". */
static void describe_buffers(const umb_options *o, int collective, char *buf, size_t n)
{
    if (!collective)
        snprintf(buf, n, "%s%s%s", umb_kind_name(o->kinds[0]), o->nkinds > 1 ? " " : "",
                 o->nkinds > 1 ? umb_kind_name(o->kinds[1]) : "");
    else if (o->buffer_list)
        snprintf(buf, n, "%s", o->buffer_list);
    else if (o->root_kind == o->other_kind)
        snprintf(buf, n, "all %s", umb_kind_name(o->other_kind));
    else
        snprintf(buf, n, "root %s, others %s", umb_kind_name(o->root_kind), umb_kind_name(o->other_kind));
}

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
    const char *from = NULL;
    int local_rank = umb_launcher_local_rank(&from);
    g->count = g->needed ? umb_gpu_count(g->why, sizeof g->why) : 0;
    /* A bad --device is reported after MPI_Init, where rank and host are known. */
    if (g->needed && g->count > 0 && local_rank >= 0 && b->opt.device < g->count)
        g->code = choose_gpu(b, local_rank, from, g->count, g->msg);
}

/* Collective: the GPU when the launcher gave no local rank, or exit 77 from
   every rank when a GPU buffer finds no GPU. */
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
        if (g->count == 0) {
            snprintf(g->msg, sizeof g->msg, "%s: buffers %s need a CUDA GPU, but rank %d on %s has none: %s",
                     b->cli->program, b->buffers, b->rank, b->host, g->why);
            g->code = UMB_EXIT_SKIP;
        } else if (b->gpu < 0 && !g->code) {
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

/* Collective: a bad command line (err from umb_options_parse, bad its
   return), the rank count, and the collectives' per-rank options. */
static void check_usage(const umb_bench *b, int bad, const char *err, int ranks)
{
    const umb_cli *cli = b->cli;
    char msg[2 * LINE];
    if (bad) {
        snprintf(msg, sizeof msg, "%s: %s", cli->program, err);
        if (bad == 2 && b->rank == 0) {  /* an unknown option: the line, then the usage */
            fprintf(stderr, "%s\n", msg);
            umb_usage(cli, stderr);
            msg[0] = '\0';
        }
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if ((ranks > 0 && b->nranks != ranks) || (ranks < 0 && b->nranks % -ranks != 0)) {
        if (ranks > 0)
            snprintf(msg, sizeof msg, "%s: needs exactly %d ranks, got %d (mpirun -np %d %s ...)",
                     cli->program, ranks, b->nranks, ranks, cli->program);
        else
            snprintf(msg, sizeof msg, "%s: needs a multiple of %d ranks, got %d", cli->program, -ranks, b->nranks);
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if (cli->collective) {
        const umb_options *o = &b->opt;
        if (o->buffer_list && umb_list_length(o->buffer_list) != b->nranks)
            snprintf(msg, sizeof msg, "%s: --buffers %s: %d kinds for %d ranks; give one per rank", cli->program,
                     o->buffer_list, umb_list_length(o->buffer_list), b->nranks);
        else if (!o->root_rotate && o->root >= b->nranks)
            snprintf(msg, sizeof msg, "%s: -k fixed:%d: no such rank; ranks are 0..%d", cli->program, o->root, b->nranks - 1);
        else
            msg[0] = '\0';
        umb_agree(b->rank == 0 && msg[0] ? UMB_EXIT_USAGE : 0, msg);
    }
}

/* Collective: --counters in a build without CUPTI ends the job; CUPTI that
   did not start leaves the getrusage counters, with a note. */
static void check_counters(const umb_bench *b)
{
    if (b->opt.counters == UMB_COUNTERS_FULL && !umb_cupti_built()) {
        char msg[2 * LINE];
        snprintf(msg, sizeof msg, "%s: --counters needs CUPTI, but this build has none (configure found no "
                 "cupti.h/libcupti.so; --with-cupti=DIR names it)", b->cli->program);
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if (b->opt.counters == UMB_COUNTERS_FULL && !umb_counters_cupti() && b->rank == 0) {
        fprintf(stderr, "%s: note: --counters: %s; counting getrusage faults only\n", b->cli->program, b->counters_note);
        fflush(stderr);
    }
}

/* Collective: whether D buffers may go to this MPI (exit 77 when not). */
static void check_cuda_aware(umb_bench *b)
{
    umb_mpi_aware_facts(&b->facts, b->ucx_version, b->pml);
    b->aware = umb_aware_verdict(&b->facts, b->aware_why, sizeof b->aware_why);
    if (umb_options_uses(&b->opt, is_device) && b->aware == UMB_VERDICT_NOT_AWARE && !b->opt.assume_cuda_aware) {
        char lib[LINE], msg[2 * LINE];
        umb_mpi_library(lib, sizeof lib);
        snprintf(msg, sizeof msg, "%s: buffer D needs a CUDA-aware MPI, but %.160s is not: %.300s; "
                 "use MD or MH, or --assume-cuda-aware if you know better", b->cli->program, lib, b->aware_why);
        umb_agree(b->rank == 0 ? UMB_EXIT_SKIP : 0, msg);
    }
    /* UCX moves device memory for a library built without CUDA (the Open MPI
       wheel), but what the library does itself inside a collective runs on
       the CPU: D crashed it (segfaults in MPI_Allreduce, MPI_Allgather and
       MPI_Alltoall across two H100s; MPI_Bcast went through). */
    if (b->cli->cpu_part && umb_options_uses(&b->opt, is_device) && b->aware == UMB_VERDICT_UCX_CARRIES &&
        !b->opt.assume_cuda_aware) {
        char lib[LINE], msg[2 * LINE];
        umb_mpi_library(lib, sizeof lib);
        snprintf(msg, sizeof msg, "%s: buffer D needs a CUDA-aware MPI: the library %s, on the CPU in %.160s: %.300s; "
                 "its UCX moves GPU memory, but not that; use MD or MH, or --assume-cuda-aware if you know better",
                 b->cli->program, b->cli->cpu_part, lib, b->aware_why);
        umb_agree(b->rank == 0 ? UMB_EXIT_SKIP : 0, msg);
    }
}

void umb_bench_init(umb_bench *b, const umb_cli *cli, int ranks, int argc, char **argv)
{
    umb_mpi_abort_on_fatal();
    umb_output_require(cli->program);
    char err[LINE];
    memset(b, 0, sizeof *b);
    b->cli = cli;
    b->gpu = -1;
    int bad = umb_options_parse(&b->opt, cli, argc, argv, err, sizeof err);
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
    check_usage(b, bad, err, ranks);
    check_counters(b);
    b->kind = kind_of_rank(&b->opt, b->rank, b->nranks, cli->collective);
    describe_buffers(&b->opt, cli->collective, b->buffers, sizeof b->buffers);
    choose_gpu_after_init(b, &gpu);
    check_cuda_aware(b);

    b->out.format = b->opt.format;
    b->out.full = b->opt.full;
    b->out.validate = b->opt.validate;
    b->out.program = cli->program;
    b->out.buffers = b->buffers;
    b->out.out = stdout;
}

void umb_bench_alloc(umb_bench *b, umb_buffer *buf, size_t bytes) { umb_bench_alloc_kind(b, buf, b->kind, bytes); }

void umb_bench_alloc_kind(umb_bench *b, umb_buffer *buf, umb_kind kind, size_t bytes)
{
    char why[LINE] = "", msg[LINE + 128] = "";
    int rc = umb_buffer_alloc(buf, kind, bytes, b->opt.advise, b->opt.allow_oversubscription, why, sizeof why);
    if (rc) snprintf(msg, sizeof msg, "%s: rank %d on %s: %s", b->cli->program, b->rank, b->host, why);
    umb_agree(rc ? UMB_EXIT_USAGE : 0, msg);
}
