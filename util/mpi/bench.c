/* The sweep over message sizes, the observers' hooks around it, the rows,
   the -c check and the end; setting up is bench_init.c's. */
#include "bench.h"
#include "bench_header.h"
#include "observer.h"

#include "error.h"
#include "pattern.h"
#include "watchdog.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The observers (observer.h), in the order their hooks run and their
   columns appear. */
void (*umb_times_hook)(size_t size, double *times, long n);

static const umb_observer *const observers[] = {
    &umb_place_observer, &umb_counters_observer, &umb_path_observer, &umb_precision_observer, &umb_findings_observer,
};
#define EACH_OBSERVER(o) for (const umb_observer *const *o = observers; o < observers + sizeof observers / sizeof *observers; o++)

void umb_observers_prepare(umb_bench *b, char **argv)
{
    EACH_OBSERVER(o) if ((*o)->environment) (*o)->environment(b, argv);
    EACH_OBSERVER(o) if ((*o)->prepare) (*o)->prepare(b);
}

static void observers_header(umb_bench *b, umb_header *h, umb_header_part part)
{
    if (b->rank != 0) return;
    EACH_OBSERVER(o) if ((*o)->header) (*o)->header(b, h, part);
}

/* The facts and common lines (bench_header.c), then the observers' start
   and their placement lines, then the limits: one way, bench.c calls
   bench_header.c and never the other way round. */
void umb_bench_header(umb_bench *b, umb_header *h)
{
    umb_header_facts(b, h);
    EACH_OBSERVER(o) if ((*o)->start) (*o)->start(b);
    observers_header(b, h, UMB_HDR_PLACEMENT);
    umb_header_limits(b, h);
}


static void no_stats(umb_stats *s)
{
    memset(s, 0, sizeof *s);
    s->avg = s->min = s->max = s->p50 = s->p99 = s->stddev = s->p50_lo = s->p50_hi = s->p25 = s->p75 = NAN;
}

/* The row's statistics over the kept iterations and, where an observer
   split them, over each group; summarize is collective, and every rank
   keeps the same iterations, so the calls line up. */
static void summarize_row(umb_bench *b, const umb_sweep *sw, void *ctx, umb_row *row, double *times, double *scratch,
                          umb_col *extra)
{
    for (int g = 0; row->split && g < 2; g++) {
        umb_col unused[2];
        memcpy(unused, sw->extra, sizeof unused);
        long k = 0;
        for (long i = 0; i < row->iters; i++)
            if (row->keep[i] && row->split[i] == (g == 0)) scratch[k++] = times[i];
        if (k) sw->summarize(b, ctx, row->size, scratch, k, &row->group[g], unused);
        else no_stats(&row->group[g]);
    }
    long k = 0;
    for (long i = 0; i < row->iters; i++)
        if (row->keep[i]) times[k++] = times[i];
    if (umb_times_hook) umb_times_hook(row->size, times, k);
    if (k) {
        sw->summarize(b, ctx, row->size, times, k, &row->stats, extra);
    } else {  /* none kept, or a size not measured: no figure, its own columns' too (not the row before's) */
        no_stats(&row->stats);
        for (int i = 0; i < sw->nextra; i++) extra[i].value = NAN;
    }
}

/* Room for n timed iterations' times and flags. */
static void ensure_slots(long n, long *slots, double **times, double **scratch, int **keep)
{
    if (n <= *slots) return;
    free(*times);
    free(*scratch);
    free(*keep);
    *slots = n;
    *times = umb_xmalloc(sizeof(double) * (size_t)n, "iteration times");
    *scratch = umb_xmalloc(sizeof(double) * (size_t)n, "iteration times");
    *keep = umb_xmalloc(sizeof(int) * (size_t)n, "iteration flags");
}

/* One attempt at a size, observed: returns whether every -c check passed. */
static int attempt(umb_bench *b, const umb_sweep *sw, void *ctx, umb_row *row, double *times)
{
    for (long i = 0; i < row->iters; i++) row->keep[i] = 1, times[i] = 0;  /* 0: a rank that times nothing (a responder) */
    row->split = NULL;
    row->times = times;
    EACH_OBSERVER(o) if ((*o)->begin) (*o)->begin(b, row);
    if (!umb_bench_place_each(b)) sw->place(b, ctx, row->size);
    UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int valid = 1;
    if (umb_bench_handshake(b)) valid = sw->handshake(b, ctx, row->size, row->iters, row->skip, times);
    else sw->classic(b, ctx, row->size, row->iters, row->skip, times);
    EACH_OBSERVER(o) if ((*o)->stop) (*o)->stop(b, row);  /* first: what is counted ends with the loop */
    valid = umb_bench_all_valid(b, valid);
    EACH_OBSERVER(o) if ((*o)->end) (*o)->end(b, row);
    return valid;
}

/* Avg, the extra columns (after the statistics where sw->extra_last),
   the full-only statistics, then --counters'. */
static int row_cols(const umb_stats *s, const umb_sweep *sw, const umb_col *extra, const umb_col *more, int nmore,
                    umb_col *cols)
{
    umb_col stats[8];
    int n = umb_stats_cols(s, sw->metric, stats), at = sw->extra_last ? n : 1, k = 0;
    for (int i = 0; i < at; i++) cols[k++] = stats[i];
    for (int i = 0; i < sw->nextra; i++) cols[k++] = extra[i];
    for (int i = at; i < n; i++) cols[k++] = stats[i];
    for (int i = 0; i < nmore; i++) cols[k++] = more[i];
    return k;
}

/* Rank 0: the table's column line. */
static void print_columns(umb_bench *b, const umb_sweep *sw, const umb_col *extra, const umb_col *more, int nmore)
{
    umb_stats none = {0};
    umb_col cols[80];
    if (b->rank != 0) return;
    int n = row_cols(&none, sw, extra, more, nmore, cols);
    umb_out_columns(&b->out, cols, n);
}

/* Rank 0: one size's row. */
static void print_row(umb_bench *b, size_t size, const umb_stats *s, const umb_sweep *sw, const umb_col *extra,
                      const umb_col *more, int nmore, int valid)
{
    umb_col cols[80];
    if (b->rank != 0) return;
    int n = row_cols(s, sw, extra, more, nmore, cols);
    umb_out_row(&b->out, size, cols, n, valid);
}

void umb_bench_sweep(umb_bench *b, const umb_sweep *sw, void *ctx)
{
    umb_col extra[2], more[64];
    int nmore = 0;
    memcpy(extra, sw->extra, sizeof extra);
    if (b->rank == 0) EACH_OBSERVER(o) if ((*o)->titles) nmore += (*o)->titles(b, sw->metric, more + nmore);
    print_columns(b, sw, extra, more, nmore);
    double *times = NULL, *scratch = NULL;
    int *keep = NULL;
    long slots = 0;
    umb_progress_phase(sw->phase);
    size_t size = b->opt.min_size;
    do {  /* MIN, the powers of two between, MAX (umb_size_next) */
        umb_row row = {.size = size, .metric = sw->metric, .payload = sw->payload ? sw->payload(b, ctx, size) : NAN};
        umb_row_facts_unknown(&row.facts);
        umb_iterations(&b->opt, b->cli, size, &row.iters, &row.skip);
        EACH_OBSERVER(o) if ((*o)->plan) (*o)->plan(b, &row);
        umb_progress_size(size);
        int valid;
        for (;; row.attempt++) {  /* until no observer asks for another attempt (--precision) */
            ensure_slots(row.iters > 0 ? row.iters : 1, &slots, &times, &scratch, &keep);
            row.keep = keep;
            valid = attempt(b, sw, ctx, &row, times);
            if (!row.again) break;
            row.iters = row.again;
        }
        summarize_row(b, sw, ctx, &row, times, scratch, extra);
        nmore = 0;
        if (b->rank == 0) EACH_OBSERVER(o) if ((*o)->columns) nmore += (*o)->columns(b, &row, more + nmore);
        print_row(b, size, &row.stats, sw, extra, more, nmore, valid);
    } while (umb_size_next(&size, b->opt.max_size) == 0);
    free(times);
    free(scratch);
    free(keep);
    EACH_OBSERVER(o) if ((*o)->report) (*o)->report(b);
}

void umb_bench_run(umb_bench *b, umb_header *h, const umb_sweep *sw, void *ctx)
{
    if (b->rank == 0) {
        umb_header_str(h, "loop", "Loop", "%s", umb_bench_handshake(b) ? sw->loop_handshake : sw->loop_classic);
        umb_header_str(h, "units", "Units", "%s", sw->units);
    }
    observers_header(b, h, UMB_HDR_END);
    umb_bench_header_print(b, h);
    umb_bench_sweep(b, sw, ctx);
}

#ifdef UMB_TEST_HOOKS
/* Test builds only (tests/tools/hooked/, and ReFrame's build with
   -DUMB_TEST_HOOKS; never installed), the one -c hook, UMB_TEST_CORRUPT:
   RANK:MESSAGE:OFFSET flips one byte of that message, on that rank (a host
   buffer), just before -c checks it; MESSAGE is the check's iteration: a
   window's message, or a collective's call (tests/mpi/validate_hook.sh).
   size:N fails every check at size N instead, on every rank, whatever the
   buffer's kind, without touching the buffer. Returns 1 for that. */
static int corrupt(const umb_bench *b, umb_buffer *buf, size_t at, size_t size, long message)
{
    const char *e = getenv("UMB_TEST_CORRUPT");
    int rank;
    long m;
    size_t off;
    if (e && sscanf(e, "size:%zu", &off) == 1) return off == size;
    if (buf->kind == UMB_H && e && sscanf(e, "%d:%ld:%zu", &rank, &m, &off) == 3 && rank == b->rank && m == message && off < size)
        buf->ptr[at + off] ^= 0xff;
    return 0;
}
#else
#define corrupt(b, buf, at, size, message) 0
#endif

int umb_bench_check(umb_bench *b, umb_buffer *buf, size_t offset, size_t size, long iteration, int key)
{
    unsigned got, want;
    int fail = corrupt(b, buf, offset, size, iteration);
    long at = umb_buffer_check(buf, offset, size, umb_pattern_seed(iteration, size, key), &got, &want);
    if (at < 0 && fail) {
        fprintf(stderr, "%s: rank %d on %s: size %zu, message %ld: failed on purpose (UMB_TEST_CORRUPT=size:%zu)\n",
                b->cli->program, b->rank, b->host, size, iteration, size);
        return 0;
    }
    if (at < 0) return 1;
    fprintf(stderr, "%s: rank %d on %s: size %zu, message %ld (key %d) at offset %zu: byte %ld is 0x%02x, expected 0x%02x\n",
            b->cli->program, b->rank, b->host, size, iteration, key, offset, at, got, want);
    return 0;
}

int umb_bench_all_valid(umb_bench *b, int my_valid)
{
    int all;
    UMB_MPI_CHECK(MPI_Allreduce(&my_valid, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    if (!all) b->exit_code = UMB_EXIT_INVALID;
    return all;
}

int umb_bench_finish(umb_bench *b)
{
    b->exit_code = umb_output_end(b->cli->program, b->opt.format, b->rank == 0, b->exit_code);
    MPI_Finalize();
    return b->exit_code;
}
