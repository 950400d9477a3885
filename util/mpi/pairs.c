/* Several buffer pairs in one launch (docs/decisions.md, "One launch for
   many pairs"): MPI_Init, the GPU and the watchdog once, then each pair in
   turn with what it needs of its own (its kinds, whether it can run here,
   its buffers, header, rows and end record), so that a reader sees one run
   per pair, as it would from one launch each; with --pair-files, each
   pair's in a file of its own. */
#include "bench.h"
#include "can_run.h"

#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LINE 512

/* --pair-files: rank 0's standard output becomes pair k's file, the pair
   before it flushed to its own first, so that everything a pair prints
   (header, rows, the observers' records, its end record) is in its file
   as it is written: a launch killed mid-way leaves the pairs it ended
   whole. 0, or UMB_EXIT_USAGE and why in msg. */
static int open_pair_file(const umb_bench *b, int k, char *msg, size_t n)
{
    char path[PATH_MAX];
    if (b->rank != 0) return 0;
    umb_pair_file_name(&b->opt, k, path, sizeof path);  /* its length checked with the options */
    fflush(stdout);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
        snprintf(msg, n, "%s: --pair-files: cannot write %s (%s)", b->cli->program, path, strerror(errno));
        if (fd >= 0) close(fd);
        return UMB_EXIT_USAGE;
    }
    close(fd);
    clearerr(stdout);  /* a write the last pair's file refused was said with it (umb_output_end_pair) */
    return 0;
}

int umb_bench_pair(umb_bench *b, int k)
{
    char msg[2 * LINE], why[2 * LINE];
    umb_options_select_pair(&b->opt, k);
    /* A file that cannot be made (the folder gone since the options' check) ends the launch: exit 1. */
    if (b->opt.pair_files) {
        char said[PATH_MAX + LINE];  /* the whole path */
        umb_agree(open_pair_file(b, k, said, sizeof said), said);
    }
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
