/* What a launch holds per rank, from its options and rank count: the one
   sum that -M bounds (options.h, umb_memory_need), asked by the parser
   (--check-options too) before any allocation, again at the run's start
   with the rank count, and by the precision loop before it grows. */
#include "options.h"

#include "parse.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Sums and products that stop at SIZE_MAX instead of wrapping. */
static size_t add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
static size_t mul(size_t a, size_t b) { return a && b > SIZE_MAX / a ? SIZE_MAX : a * b; }

static int has_device_copy(umb_kind k) { return k == UMB_D || k == UMB_MD; }

/* Bytes a rank holds per timed iteration of one attempt (util/mpi/bench.c:
   times, a copy and flags; placement.c and bench_place.c: a record, its
   flags and times reduced, the observe split; bench_precision.c: the kept
   samples), then rank 0's gather of every rank's times (coll.c, p2p.c). */
#define ITERATION_BYTES (2 * sizeof(double) + sizeof(int))
#define PLACEMENT_BYTES (sizeof(umb_place_rec) + 3 * sizeof(int) + 2 * sizeof(double) + sizeof(int))
#define PRECISION_BYTES sizeof(double)
#define MPI_REQUEST_BYTES 8  /* an MPI_Request: a pointer in Open MPI, an int in MPICH */

static size_t per_iteration(const umb_options *o, const umb_cli *cli, int nranks)
{
    size_t bytes = ITERATION_BYTES;
    if (umb_options_checks_placement(o)) bytes += PLACEMENT_BYTES;
    if (umb_options_precision(o) > 0) bytes += PRECISION_BYTES;
    if (cli->gathers) bytes = add(bytes, mul(sizeof(double), (size_t)nranks));
    return bytes;
}

/* A buffer of `bytes` as util/gpu/buffer.c allocates it: whole pages. */
static size_t pages(size_t bytes) { return bytes ? add(bytes, UMB_PAGE - 1) / UMB_PAGE * UMB_PAGE : UMB_PAGE; }

/* The message buffers (p2p.c's windows, rma.c's slots, coll.c's blocks)
   with a host copy of each D and MD buffer (buffer.c's staging), and
   the arrays that grow with -W or -c. */
static void buffers(const umb_options *o, const umb_cli *cli, int nranks, umb_memory *m)
{
    size_t slots = (size_t)umb_window_buffers(o), per = (size_t)(cli->buffers_per_rank ? cli->buffers_per_rank : 1);
    size_t blocks = add(per - (size_t)cli->rank_blocks, mul((size_t)cli->rank_blocks, (size_t)nranks));
    size_t one = mul(slots, pages(o->max_size));  /* rma.c's slots are one buffer: no more pages than this */
    /* A rotating root of another kind: every rank holds both kinds' sets (coll.c). */
    int sets = cli->rooted && o->root_rotate && !o->buffer_list && o->root_kind != o->other_kind ? 2 : 1;
    m->buffers = mul(mul(one, blocks), (size_t)sets);
    if (umb_options_uses(o, has_device_copy)) m->buffers = mul(m->buffers, 2);
    m->arrays = mul(mul(slots, per), sizeof(umb_buffer));
    if (cli->window) m->arrays = add(m->arrays, mul(2 * MPI_REQUEST_BYTES, (size_t)o->window));
    if (o->validate && cli->min_size > 1) m->arrays = add(m->arrays, o->max_size + 1);  /* coll.c: -c's host floats */
}

void umb_memory_need(const umb_options *o, const umb_cli *cli, int nranks, umb_memory *m)
{
    memset(m, 0, sizeof *m);
    m->nranks = nranks > 0 ? nranks : cli->collective ? 1 : 2;  /* unknown: the fewest a launch has */
    buffers(o, cli, m->nranks, m);
    long skip;
    umb_iterations(o, cli, o->min_size, &m->iterations, &skip);
    long large;
    umb_iterations(o, cli, o->max_size, &large, &skip);
    if (large > m->iterations) m->iterations = large;
    /* A precision's first attempt takes at least what an interval needs (umb_precision_first). */
    if (umb_options_precision(o) > 0 && !o->iters_given && m->iterations < UMB_PRECISION_FIRST_ITERS)
        m->iterations = UMB_PRECISION_FIRST_ITERS;
    m->per_iteration = per_iteration(o, cli, m->nranks);
    m->records = mul(m->per_iteration, (size_t)m->iterations);
    m->total = add(add(m->buffers, m->arrays), m->records);
}

long umb_memory_iterations(const umb_options *o, const umb_cli *cli, int nranks)
{
    umb_memory m;
    umb_memory_need(o, cli, nranks, &m);
    size_t fixed = add(m.buffers, m.arrays);
    if (fixed >= o->mem_limit) return 0;
    size_t most = (o->mem_limit - fixed) / m.per_iteration;
    return most > (size_t)UMB_MAX_ITERS ? UMB_MAX_ITERS : (long)most;
}

int umb_memory_check(const umb_options *o, const umb_cli *cli, int nranks, char *err, size_t n)
{
    umb_memory m;
    umb_memory_need(o, cli, nranks, &m);
    if (m.total <= o->mem_limit) return 0;
    char ranks[128] = "";
    if (cli->gathers || cli->rank_blocks)  /* what grows with the ranks */
        snprintf(ranks, sizeof ranks, " with %d rank%s%s", m.nranks, m.nranks > 1 ? "s" : "",
                 nranks > 0 ? "" : " (the fewest; more need more, checked at the run's start)");
    int slots = umb_window_buffers(o) > 1;
    return umb_errf(err, n, "a rank needs %zu bytes%s, above the memory limit -M %zu: %zu of buffers (-m %zu%s), "
                    "%zu of iteration records (%ld iterations: -i); lower -m%s or -i, or raise -M (at most %zu)",
                    m.total, ranks, o->mem_limit, add(m.buffers, m.arrays), o->max_size,
                    slots ? ", a buffer per -W slot" : "", m.records, m.iterations, slots ? ", -W" : "", UMB_MEM_LIMIT_MAX);
}
