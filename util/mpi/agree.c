/* What every rank must agree on (agree.h): one end for all, with the
   reason of the lowest rank that has one, and a buffer on every rank. */
#include "agree.h"

#include "error.h"
#include "mpi_check.h"
#include "strbuf.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LINE 512

/* Collective: the highest code of any rank (0: none), and the lowest rank
   with a code (first), which says its message on stderr. */
static int agree_on(int code, const char *message, int *rank, int *first)
{
    int nranks, worst, mine;
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    mine = code ? *rank : nranks;
    UMB_MPI_CHECK(MPI_Allreduce(&mine, first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (worst && *rank == *first && message && *message) {
        umb_strbuf line = {0};
        umb_sb_shown(&line, message);  /* a host's or CUDA_VISIBLE_DEVICES' words: one line (strbuf.h) */
        fprintf(stderr, "%s\n", line.s);
        fflush(stderr);
        umb_sb_free(&line);
    }
    return worst;
}

void umb_agree(int code, const char *message)
{
    int rank, first, worst = agree_on(code, message, &rank, &first);
    if (!worst) return;
    MPI_Finalize();
    /* Only the rank that spoke ends non-zero, and a skip ends last: a launcher
       that kills the other ranks when one ends badly (Slurm's KillOnBadExit)
       would otherwise report their signal (143) instead of 77. Inside a Slurm
       step 0.5 s was too short on a loaded 2-core machine (make distcheck). */
    if (rank != first) exit(0);
    if (worst == UMB_EXIT_SKIP) usleep(getenv("SLURM_STEP_ID") ? 3000000 : 500000);
    exit(worst);
}

int umb_agree_pair(int code, const char *message, char *why, size_t n)
{
    int rank, first, worst = agree_on(code, message, &rank, &first);
    char said[2 * LINE] = "";
    if (!worst) return 0;
    if (rank == first && message) snprintf(said, sizeof said, "%s", message);
    UMB_MPI_CHECK(MPI_Bcast(said, (int)sizeof said, MPI_CHAR, first, MPI_COMM_WORLD));
    snprintf(why, n, "%s", said);
    return worst;
}

void umb_bench_alloc(umb_bench *b, umb_buffer *buf, size_t bytes) { umb_bench_alloc_kind(b, buf, b->kind, bytes); }

void umb_bench_alloc_kind(umb_bench *b, umb_buffer *buf, umb_kind kind, size_t bytes)
{
    char why[LINE] = "", msg[LINE + 128] = "";
    int rc = umb_buffer_alloc(buf, kind, bytes, b->opt.advise, b->opt.allow_oversubscription, why, sizeof why);
    if (rc) snprintf(msg, sizeof msg, "%s: rank %d on %s: %s", b->cli->program, b->rank, b->host, why);
    umb_agree(rc ? UMB_EXIT_USAGE : 0, msg);
}
