/* --precision, an observer of the sweep (docs/method.md, "Precision: when
   to stop"): after each attempt at a size it asks whether the 95% interval
   of the mean of the kept iterations is within the target on every rank;
   when not, and the size's budget allows a larger attempt, it sets the
   row's `again` and the sweep runs the size again, whole, with more
   iterations. Only the last attempt makes the row; its column says how
   close it got, and the end lists the sizes that did not get there. */
#include "observer.h"

#include "error.h"
#include "parse.h"
#include "precision.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOST_ITERS 1000000  /* per attempt: 20 MB of iteration records */
#define LISTED 64           /* sizes named in the closing report */

static struct {
    double size_start, attempt_start;
    double reached;                 /* the size's last attempt, over ranks (the widest) */
    double first_s;                 /* the size's first attempt, over ranks (the longest) */
    double budget;                  /* the size's seconds: --size-budget, or its share of --launch-budget */
    double least;                   /* the smallest of those (INFINITY: none yet) */
    double sizes_s, again_s;        /* all sizes, whole; of that, the attempts after each first */
    double per;                     /* seconds an iteration took at the size before (0: none yet), over ranks */
    size_t per_size;                /* that size */
    int missed, rows;               /* rank 0: sizes that did not get there, of how many */
    size_t missed_size[LISTED];
    double missed_pct[LISTED];
    int missed_unmeasured[LISTED];  /* 1: not measured, its share of --launch-budget spent (plan()) */
    umb_precision_stop why;         /* why the size's attempts stopped (umb_precision_step) */
    long most;                      /* the iterations an attempt may have: -M's or MOST_ITERS */
    umb_precision_stop missed_why[LISTED];
    long missed_most[LISTED];
} S;

/* The launch, over all its pairs (start() resets S for each pair, not
   this): --launch-budget's clock, from the first pair's start, and the
   sizes it has ended. Every rank holds the same values (end()). */
static struct {
    int started;
    double start, spent;  /* MPI_Wtime may read 0 at the start: `started` says */
    long sizes, sizes_done;  /* a pair's sweep (the same for every pair), and those ended */
} L;

static double target(const umb_bench *b) { return umb_options_precision(&b->opt); }

/* The seconds the size that starts now may take: --size-budget, or less
   where --launch-budget's share is less: what is left of it over the
   launch's sizes left, this one's included (docs/method.md, "The set's
   time shared out"). Fast sizes leave their share to the ones after. */
static double size_budget(const umb_bench *b)
{
    if (!(b->opt.launch_budget > 0)) return b->opt.size_budget;
    long left = b->opt.npairs * L.sizes - L.sizes_done;
    double share = (b->opt.launch_budget - L.spent) / (double)(left > 1 ? left : 1);
    return share < b->opt.size_budget ? (share > 0 ? share : 0) : b->opt.size_budget;
}

static void header(umb_bench *b, umb_header *h, umb_header_part part)
{
    if (part != UMB_HDR_PLACEMENT || !target(b)) return;
    char shared[160] = "";
    if (b->opt.launch_budget > 0)
        snprintf(shared, sizeof shared, ", or less: its share of the %g s that --launch-budget gives the launch's "
                 "sizes, of what the sizes before left", b->opt.launch_budget);
    umb_header_str(h, "precision", "Precision",
                   "+-%g%% (%s): a size runs again, with more iterations, until the 95%% interval of its mean "
                   "is that narrow on every rank or %g s (--size-budget%s) are spent",
                   100 * target(b), b->opt.precision_given ? "--precision"
                                    : "the default for managed buffers placed before each iteration; "
                                      "--precision off: OMB's fixed counts",
                   b->opt.size_budget, shared);
}

static int titles(umb_bench *b, const umb_metric *m, umb_col *cols)
{
    (void)m;
    if (!target(b)) return 0;
    umb_num_col(&cols[0], "+-% (95%)", "precision_pct", 0, 1);
    return 1;
}

/* The first attempt: enough iterations for an interval, within the
   budget at the pace of the size before, scaled by size (a bandwidth
   run's time grows with it; a latency run's far less, so this errs long). */
static void plan(umb_bench *b, umb_row *row)
{
    if (!target(b)) return;
    S.budget = size_budget(b);
    if (S.budget < S.least) S.least = S.budget;
    /* Under --launch-budget, a size whose share cannot hold its warm-up and
       one iteration at the pace of the size before (unscaled: a larger size
       is no faster, and scaling by size made latency-bound sizes look 1000
       times slower than they are) is not measured: its row has no figure
       (0 iterations) and the closing record lists it (docs/method.md, "The
       set's time shared out"). -c checks every byte: it skips none. Every
       rank plans alike (end()'s values). */
    if (b->opt.launch_budget > 0 && !b->opt.validate && S.per_size && S.per * (double)(row->skip + 1) > S.budget) {
        row->iters = row->skip = 0;
        return;
    }
    double per = S.per_size ? S.per * ((double)row->size > (double)S.per_size ? (double)row->size / (double)S.per_size : 1) : 0;
    if (!b->opt.iters_given) row->iters = umb_precision_first(row->iters, row->skip, per, S.budget);
}

/* Collective (before the header): a pair's run starts with nothing of the
   pair before it in the same launch (pairs.c). */
static void start(umb_bench *b)
{
    memset(&S, 0, sizeof S);
    S.least = INFINITY;
    if (!L.started) {
        L.start = MPI_Wtime();
        L.started = 1;
        L.sizes = 1;
        for (size_t s = b->opt.min_size; umb_size_next(&s, b->opt.max_size) == 0;) L.sizes++;
    }
}

static void begin(umb_bench *b, umb_row *row)
{
    if (!target(b)) return;
    S.attempt_start = MPI_Wtime();
    if (row->attempt == 0) S.size_start = S.attempt_start;
}

/* Collective: the widest interval of any rank's kept iterations, and
   whether to run the size again. */
static void end(umb_bench *b, umb_row *row)
{
    row->again = 0;
    if (!target(b)) return;
    double *kept = umb_xmalloc(sizeof(double) * (size_t)(row->iters > 0 ? row->iters : 1), "precision samples");
    long n = 0, timed = 0;
    for (long i = 0; i < row->iters; i++)
        if (row->keep[i]) timed += (kept[n++] = row->times[i]) != 0;
    double now = MPI_Wtime();
    /* A rank that timed none of its kept iterations (ping-pong's responder) has no say: -1. */
    double mine[4] = {n && !timed ? -1 : umb_precision_reached(kept, n, UMB_PRECISION_MEAN), now - S.attempt_start,
                      now - S.size_start, now - L.start}, all[4];
    free(kept);
    UMB_MPI_CHECK(MPI_Allreduce(mine, all, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    L.spent = all[3];
    S.reached = all[0] < 0 ? INFINITY : all[0];
    long most = umb_memory_iterations(&b->opt, b->cli, b->nranks);  /* -M bounds the records too */
    S.most = most < MOST_ITERS ? most : MOST_ITERS;
    long again;
    S.why = umb_precision_step(row->iters, row->skip, S.reached, target(b), all[1], S.budget - all[2], S.most, &again);
    row->again = again;
    if (row->attempt == 0) S.first_s = all[1];
    if (row->iters + row->skip > 0) {  /* a size not measured (plan()) leaves the pace as it was */
        S.per = all[1] / (double)(row->iters + row->skip);
        S.per_size = row->size;
    }
    if (!row->again) {  /* the size is done: what it cost, and what the loop added to its first attempt */
        S.sizes_s += all[2];
        S.again_s += all[2] - S.first_s;
        L.sizes_done++;
    }
}

static int row_columns(umb_bench *b, umb_row *row, umb_col *cols)
{
    if (!target(b)) return 0;
    S.rows++;
    if (!(S.reached <= target(b))) {
        if (S.missed < LISTED) {
            S.missed_size[S.missed] = row->size;
            S.missed_pct[S.missed] = 100 * S.reached;
            S.missed_unmeasured[S.missed] = row->iters == 0;
            S.missed_why[S.missed] = S.why;
            S.missed_most[S.missed] = S.most;
        }
        S.missed++;
    }
    umb_num_col(&cols[0], "+-% (95%)", "precision_pct", isfinite(S.reached) ? 100 * S.reached : NAN, 1);
    return 1;
}

/* The table's closing lines. Each size not reached names what stopped it:
   the budget (the lead clause), or the iterations an attempt may have,
   -M's where the memory limit is the lower. */
static void report_table(const umb_bench *b, int listed)
{
    printf("# Precision +-%g%%: reached at %d of %d sizes", 100 * target(b), S.rows - S.missed, S.rows);
    int timed_out = 0;
    for (int i = 0; i < listed; i++) timed_out |= S.missed_why[i] != UMB_PRECISION_AT_MOST;
    if (S.missed && timed_out) {
        printf("; not within %g s per size (--size-budget)", b->opt.size_budget);
        if (S.least < b->opt.size_budget)
            printf(" or its share of --launch-budget %g s (%.2f s at least)", b->opt.launch_budget, S.least);
    } else if (S.missed) {
        printf("; not reached");
    }
    if (S.missed) printf(" at:");
    for (int i = 0; i < listed; i++) {
        char at_most[160] = "";
        if (S.missed_why[i] == UMB_PRECISION_AT_MOST)
            snprintf(at_most, sizeof at_most, S.missed_most[i] < MOST_ITERS
                     ? ", at the %ld iterations the memory limit -M %zu holds" : ", at the %ld iterations an attempt may have",
                     S.missed_most[i], b->opt.mem_limit);
        if (S.missed_unmeasured[i]) printf(" %zu B (not measured)", S.missed_size[i]);
        else if (isfinite(S.missed_pct[i])) printf(" %zu B (+-%.1f%%%s)", S.missed_size[i], S.missed_pct[i], at_most);
        else printf(" %zu B (no interval%s)", S.missed_size[i], at_most);
    }
    printf("\n# Precision loop: the sizes took %.1f s, %.1f s of it in attempts after each size's first\n", S.sizes_s, S.again_s);
}

static void report(umb_bench *b)
{
    if (!target(b) || b->rank != 0) return;
    int listed = S.missed < LISTED ? S.missed : LISTED;
    if (b->opt.format == UMB_FMT_TABLE) {
        report_table(b, listed);
    } else if (b->opt.format == UMB_FMT_JSON) {
        umb_strbuf s = {0};
        umb_sb_printf(&s, "{\"type\":\"precision\",\"program\":");
        umb_sb_json_string(&s, b->cli->program);
        umb_sb_json_field(&s, "buffers", b->buffers);
        umb_sb_printf(&s, ",\"target_pct\":%g,\"size_budget_s\":%g,\"sizes\":%d,\"sizes_s\":%.3f,\"again_s\":%.3f,",
                      100 * target(b), b->opt.size_budget, S.rows, S.sizes_s, S.again_s);
        if (b->opt.launch_budget > 0)  /* the launch's budget, and the least a size of this pair had of it */
            umb_sb_printf(&s, "\"launch_budget_s\":%g,\"least_size_budget_s\":%.3f,", b->opt.launch_budget,
                          isfinite(S.least) ? S.least : b->opt.size_budget);
        umb_sb_printf(&s, "\"not_converged\":[");
        for (int i = 0; i < listed; i++)
            if (isfinite(S.missed_pct[i]))
                umb_sb_printf(&s, "%s{\"size\":%zu,\"reached_pct\":%.2f}", i ? "," : "", S.missed_size[i], S.missed_pct[i]);
            else
                umb_sb_printf(&s, "%s{\"size\":%zu,\"reached_pct\":null%s}", i ? "," : "", S.missed_size[i],
                              S.missed_unmeasured[i] ? ",\"measured\":false" : "");
        umb_sb_printf(&s, "]}");
        printf("%s\n", s.s);
        umb_sb_free(&s);
    } else {
        printf("# precision\ntarget_pct,size_budget_s,sizes,not_converged\n%g,%g,%d,%d\n", 100 * target(b),
               b->opt.size_budget, S.rows, S.missed);
    }
    fflush(stdout);
}

const umb_observer umb_precision_observer = {
    .name = "precision",
    .start = start,
    .header = header,
    .titles = titles,
    .plan = plan,
    .begin = begin,
    .end = end,
    .columns = row_columns,
    .report = report,
};
