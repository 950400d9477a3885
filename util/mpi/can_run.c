/* Can this run here (can_run.h): the command line and the rank count, the
   counters this build has, and per pair a GPU for GPU buffers and the
   library's CUDA-awareness for D. */
#include "can_run.h"

#include "agree.h"
#include "cupti_um.h"
#include "error.h"
#include "memkind.h"

#include <stdio.h>

#define LINE 512

static int is_device(umb_kind k) { return k == UMB_D; }

void umb_check_usage(const umb_bench *b, int bad, const char *err, int ranks)
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
    /* -M again with the rank count (the parser counted the fewest): before any allocation. */
    char why[LINE];
    int over = umb_memory_check(&b->opt, cli, b->nranks, why, sizeof why);
    if (over) snprintf(msg, sizeof msg, "%s: %s", cli->program, why);
    umb_agree(b->rank == 0 && over ? UMB_EXIT_USAGE : 0, msg);
}

int umb_counters_unbuilt(const umb_options *o, char *why, size_t n)
{
    if (o->counters != UMB_COUNTERS_FULL || umb_cupti_built()) return 0;
    snprintf(why, n, "--counters needs CUPTI, but this build has none (configure found no "
             "cupti.h/libcupti.so; --with-cupti=DIR names it)");
    return 1;
}

void umb_check_counters(const umb_bench *b)
{
    char why[LINE];
    if (umb_counters_unbuilt(&b->opt, why, sizeof why)) {
        char msg[2 * LINE];
        snprintf(msg, sizeof msg, "%s: %s", b->cli->program, why);
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if (b->opt.counters == UMB_COUNTERS_FULL && !umb_counters_cupti() && b->rank == 0) {
        fprintf(stderr, "%s: note: --counters: %s; counting getrusage faults only\n", b->cli->program, b->counters_note);
        fflush(stderr);
    }
}

void umb_mpi_awareness(umb_bench *b)
{
    umb_mpi_aware_facts(&b->facts, b->ucx_version, b->pml);
    b->aware = umb_aware_verdict(&b->facts, b->aware_why, sizeof b->aware_why);
}

int umb_pair_skip(const umb_bench *b, char *msg, size_t n)
{
    char lib[LINE];
    msg[0] = '\0';
    if (b->no_gpu[0] && umb_options_uses(&b->opt, umb_kind_needs_gpu)) {
        snprintf(msg, n, "%s: buffers %s need a CUDA GPU, but rank %d on %s has none: %s", b->cli->program, b->buffers,
                 b->rank, b->host, b->no_gpu);
        return UMB_EXIT_SKIP;
    }
    if (b->rank != 0 || !umb_options_uses(&b->opt, is_device) || b->opt.assume_cuda_aware) return 0;
    if (b->aware == UMB_VERDICT_NOT_AWARE) {
        umb_mpi_library(lib, sizeof lib);
        snprintf(msg, n, "%s: buffer D needs a CUDA-aware MPI, but %.160s is not: %.300s; "
                 "use MD or MH, or --assume-cuda-aware if you know better", b->cli->program, lib, b->aware_why);
        return UMB_EXIT_SKIP;
    }
    /* UCX moves device memory for a library built without CUDA (the Open MPI
       wheel), but what the library does itself inside a collective runs on
       the CPU: D crashed it (segfaults in MPI_Allreduce, MPI_Allgather and
       MPI_Alltoall across two H100s; MPI_Bcast went through). */
    if (b->cli->cpu_part && b->aware == UMB_VERDICT_UCX_CARRIES) {
        umb_mpi_library(lib, sizeof lib);
        snprintf(msg, n, "%s: buffer D needs a CUDA-aware MPI: the library %s, on the CPU in %.160s: %.300s; "
                 "its UCX moves GPU memory, but not that; use MD or MH, or --assume-cuda-aware if you know better",
                 b->cli->program, b->cli->cpu_part, lib, b->aware_why);
        return UMB_EXIT_SKIP;
    }
    return 0;
}
