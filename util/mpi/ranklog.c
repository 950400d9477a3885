#include "ranklog.h"

#include "error.h"
#include "mpi_check.h"

#include <mpi.h>
#include <stdlib.h>

void *umb_ranklog_gather(umb_ranklog *l, int rank, int nranks, size_t size, long iters, const void *mine, size_t rec)
{
    unsigned char *row = NULL;
    if (rank == 0) {
        /* The same size again (--precision ran it again): its last attempt stands. */
        if (l->n > 0 && l->sizes[l->n - 1] == size) l->n--;
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 64;
            l->sizes = realloc(l->sizes, sizeof *l->sizes * (size_t)l->cap);
            l->iters = realloc(l->iters, sizeof *l->iters * (size_t)l->cap);
            l->recs = realloc(l->recs, rec * (size_t)l->cap * (size_t)nranks);
            if (!l->sizes || !l->iters || !l->recs) umb_fatal("realloc", __FILE__, __LINE__, "out of memory for a per-rank log");
        }
        l->rec = rec;
        l->nranks = nranks;
        l->sizes[l->n] = size;
        l->iters[l->n] = iters;
        row = l->recs + rec * (size_t)l->n++ * (size_t)nranks;
    }
    UMB_MPI_CHECK(MPI_Gather(mine, UMB_MPI_COUNT(rec), MPI_BYTE, row, UMB_MPI_COUNT(rec), MPI_BYTE, 0, MPI_COMM_WORLD));
    return row;
}

const void *umb_ranklog_at(const umb_ranklog *l, int i, int r)
{
    return l->recs + l->rec * ((size_t)i * (size_t)l->nranks + (size_t)r);
}
