/* The placement check in the MPI benchmarks, an observer of the sweep
   (docs/method.md, "The placement check"): per size, agree over ranks
   which timed iterations had every buffer in place, keep only those
   (enforce) or show held and not-held apart (observe), and add the
   placement columns; at the end, a per-rank table. */
#include "observer.h"

#include "error.h"
#include "placement.h"
#include "ranklog.h"
#include "residency.h"
#include "sysinfo.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What each rank tells rank 0 per size. */
typedef struct {
    long n, held, not_placed, replaced;
    int any, checked;
    double place_p50_us;
} rank_place;

static umb_ranklog logbook;  /* rank_place records */

/* What end() agreed for the size, for rank 0's columns. */
static struct {
    double pct, replaced, place_p50, check_p50;
    long kept;
    int *split;  /* observe: the held flags */
    long split_cap;
} row_state;

static int tracks(const umb_bench *b) { return umb_options_checks_placement(&b->opt); }

static void col(umb_col *c, const char *title, const char *key, double v, int decimals, int full_only)
{
    umb_num_col(c, title, key, v, decimals);
    c->full_only = full_only;
}

/* Placed %, Re-placed, Place P50, Not placed; observe adds held and
   not-held statistics of the row's metric. */
static int columns(const umb_bench *b, const umb_metric *m, double placed_pct, double replaced, double place_p50,
                   double check_p50, double not_placed, const umb_stats *held, const umb_stats *unheld, umb_col *cols)
{
    char t[32], k[32];
    int n = 0;
    col(&cols[n++], "Placed %", "placed_pct", placed_pct, 1, 0);
    col(&cols[n++], "Re-placed", "replacements", replaced, 0, 0);
    col(&cols[n++], "Place P50(us)", "place_p50_us", place_p50, 2, 0);
    col(&cols[n++], "Check P50(us)", "check_p50_us", check_p50, 2, 1);
    col(&cols[n++], "Not placed", "not_placed", not_placed, 0, 1);
    if (b->opt.place_check != UMB_CHECK_OBSERVE) return n;
    const umb_stats *sets[2] = {held, unheld};
    const char *names[2] = {"Held", "Not-held"}, *keys[2] = {"held", "unheld"};
    for (int i = 0; i < 2; i++) {
        snprintf(t, sizeof t, "%s P50 %.18s", names[i], m->title);
        snprintf(k, sizeof k, "%s_p50_%.18s", keys[i], m->key);
        col(&cols[n++], t, k, sets[i]->p50, 2, 0);
        snprintf(t, sizeof t, "%s Avg %.18s", names[i], m->title);
        snprintf(k, sizeof k, "%s_avg_%.18s", keys[i], m->key);
        col(&cols[n++], t, k, sets[i]->avg, 2, 1);
        snprintf(t, sizeof t, "%s N", names[i]);
        snprintf(k, sizeof k, "%s_n", keys[i]);
        col(&cols[n++], t, k, (double)sets[i]->n, 0, 1);
    }
    return n;
}

static int titles(umb_bench *b, const umb_metric *m, umb_col *cols)
{
    umb_stats none = {0};
    if (!tracks(b)) return 0;
    return columns(b, m, 0, 0, 0, 0, 0, &none, &none, cols);
}

static double p50(double *v, long n)
{
    umb_stats s;
    if (n <= 0) return NAN;
    umb_stats_compute(v, n, &s);
    return s.p50;
}

/* This rank's records for the size: every timed iteration with --place
   each, the one placement before warm-up with --place once. */
static const umb_place_rec *records(const umb_bench *b, long iters, long *n)
{
    int each = umb_options_place_each(&b->opt);
    *n = each ? iters : 1;
    return each ? umb_placement_timed() : umb_placement_once();
}

static void log_rank(umb_bench *b, size_t size, const umb_place_rec *r, long n)
{
    rank_place mine = {0};
    double *secs = umb_xmalloc(sizeof(double) * (size_t)n, "placement times");
    long k = 0;
    mine.n = n;
    mine.checked = 1;
    for (long i = 0; i < n; i++) {
        if (!r[i].any) continue;
        mine.any = 1;
        mine.checked &= r[i].checked;
        mine.held += r[i].held;
        mine.not_placed += !r[i].placed;
        mine.replaced += r[i].replaced;
        secs[k++] = r[i].seconds * 1e6;
    }
    mine.place_p50_us = p50(secs, k);
    free(secs);
    umb_ranklog_gather(&logbook, b->rank, b->nranks, size, n, &mine, sizeof mine);
}

static void begin(umb_bench *b, umb_row *row)
{
    if (tracks(b)) umb_placement_size_begin(row->skip, row->iters);  /* a record per timed iteration */
}

/* Collective: agrees per timed iteration whether every rank's pages were
   in place; enforce keeps only those, observe keeps all and splits held
   from not-held. */
static void end(umb_bench *b, umb_row *row)
{
    if (!tracks(b)) return;
    long n, iters = row->iters;
    const umb_place_rec *r = records(b, iters, &n);
    log_rank(b, row->size, r, n);

    /* Per record, over ranks: checked, held, placed (MIN); a rank that
       placed nothing agrees with everything. Placement time: MAX, since
       the operation waits for the slowest rank. */
    int *flags = umb_xmalloc(sizeof(int) * 3 * (size_t)n, "placement flags");
    double *secs = umb_xmalloc(sizeof(double) * 2 * (size_t)n, "placement times"), *checks = secs + n;
    long replaced = 0, total_replaced = 0;
    int any = 0, any_all;
    for (long i = 0; i < n; i++) {
        flags[i] = r[i].any ? r[i].checked : 1;
        flags[n + i] = r[i].any ? r[i].held : 1;
        flags[2 * n + i] = r[i].any ? r[i].placed : 1;
        secs[i] = r[i].seconds;
        checks[i] = r[i].check_seconds;
        replaced += r[i].replaced;
        any |= r[i].any;
    }
    UMB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, flags, UMB_MPI_COUNT(3 * n), MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Allreduce(&any, &any_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Reduce(&replaced, &total_replaced, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, secs, UMB_MPI_COUNT(2 * n), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    const int *checked = flags, *held = flags + n, *placed = flags + 2 * n;
    long nchecked = 0, nheld = 0;
    for (long i = 0; i < n; i++) nchecked += checked[i], nheld += held[i];

    /* Per timed iteration (--place once: its one placement stands for all). */
    int observe = b->opt.place_check == UMB_CHECK_OBSERVE;
    if (observe && row_state.split_cap < iters) {
        free(row_state.split);
        row_state.split = umb_xmalloc(sizeof(int) * (size_t)(iters > 0 ? iters : 1), "placement flags");
        row_state.split_cap = iters;
    }
    row_state.kept = 0;
    for (long i = 0; i < iters; i++) {
        int ok = (observe ? held : placed)[n == iters ? i : 0];
        if (observe) row_state.split[i] = ok;
        else row->keep[i] = ok;
        row_state.kept += row->keep[i];
    }
    row->split = observe ? row_state.split : NULL;
    row_state.place_p50 = any_all ? p50(secs, n) * 1e6 : NAN;
    row_state.check_p50 = any_all ? p50(checks, n) * 1e6 : NAN;
    row_state.pct = any_all && nchecked == n ? 100.0 * (double)nheld / (double)n : NAN;
    row_state.replaced = (double)total_replaced;
    free(flags);
    free(secs);
}

/* Rank 0: the placement columns, and what the findings read. */
static int row_columns(umb_bench *b, umb_row *row, umb_col *cols)
{
    if (!tracks(b)) return 0;
    long iters = row->iters, kept = row_state.kept;
    if (kept < iters && b->opt.format == UMB_FMT_TABLE)
        fprintf(stdout, "# size %zu: %ld of %ld timed iterations not placed after %d re-placements; left out of the row\n",
                row->size, iters - kept, iters, UMB_REPLACE_TRIES);
    row->facts.placed_pct = row_state.pct;
    row->facts.replaced = iters > 0 ? row_state.replaced / (double)iters : NAN;
    row->facts.place_p50_us = row_state.place_p50;
    return columns(b, row->metric, row_state.pct, row_state.replaced, row_state.place_p50, row_state.check_p50,
                   (double)(iters - kept), &row->group[0], &row->group[1], cols);
}

static void print_table(umb_bench *b, const char (*hosts)[64], const int *kinds)
{
    printf("# Placement per rank, over the timed iterations of every size: Placed %% (first placement held), "
           "Re-placed, Not in place (when the operation started), Place P50(us) of its own placements\n");
    printf("# %-5s %-16s %6s %9s %10s %12s %14s\n", "Rank", "Host", "Buffer", "Placed %", "Re-placed", "Not in place",
           "Place P50(us)");
    for (int r = 0; r < b->nranks; r++) {
        long n = 0, held = 0, np = 0, rp = 0;
        int any = 0, checked = 1;
        double *p = umb_xmalloc(sizeof(double) * (size_t)(logbook.n ? logbook.n : 1), "placement p50s");
        long k = 0;
        for (int i = 0; i < logbook.n; i++) {
            const rank_place *x = umb_ranklog_at(&logbook, i, r);
            if (!x->any) continue;
            any = 1;
            checked &= x->checked;
            n += x->n, held += x->held, np += x->not_placed, rp += x->replaced;
            p[k++] = x->place_p50_us;
        }
        printf("# %-5d %-16.16s %6s", r, UMB_SHOWN(hosts[r]), umb_kind_name((umb_kind)kinds[r]));
        if (!any) printf(" %9s %10s %12s %14s\n", "-", "-", "-", "-");
        else if (!checked) printf(" %9s %10ld %12s %14.2f\n", "n/a", rp, "n/a", p50(p, k));
        else printf(" %9.1f %10ld %12ld %14.2f\n", 100.0 * (double)held / (double)n, rp, np, p50(p, k));
        free(p);
    }
}

static void print_rows(umb_bench *b, const char (*hosts)[64], const int *kinds)
{
    int csv = b->opt.format == UMB_FMT_CSV;
    if (csv) printf("# per-rank placement\nrank,host,buffer,size,records,placed_pct,replacements,not_in_place,place_p50_us\n");
    for (int i = 0; i < logbook.n; i++)
        for (int r = 0; r < b->nranks; r++) {
            const rank_place *x = umb_ranklog_at(&logbook, i, r);
            double pct = x->any && x->checked && x->n ? 100.0 * (double)x->held / (double)x->n : NAN;
            umb_strbuf s = {0};
            if (csv) {
                umb_sb_printf(&s, "%d,%s,%s,%zu,%ld,", r, UMB_SHOWN(hosts[r]), umb_kind_name((umb_kind)kinds[r]), logbook.sizes[i], x->n);
                if (isfinite(pct)) umb_sb_printf(&s, "%.1f", pct);
                umb_sb_printf(&s, ",%ld,%ld,", x->replaced, x->not_placed);
                if (isfinite(x->place_p50_us)) umb_sb_printf(&s, "%.3f", x->place_p50_us);
            } else {
                umb_sb_printf(&s, "{\"type\":\"rank_placement\",\"program\":");
                umb_sb_json_string(&s, b->cli->program);
                umb_sb_printf(&s, ",\"rank\":%d,\"host\":", r);
                umb_sb_json_string(&s, hosts[r]);
                umb_sb_printf(&s, ",\"buffer\":\"%s\",\"size\":%zu,\"records\":%ld,\"managed\":%s,\"placed_pct\":",
                              umb_kind_name((umb_kind)kinds[r]), logbook.sizes[i], x->n, x->any ? "true" : "false");
                umb_sb_json_number(&s, pct);
                umb_sb_printf(&s, ",\"replacements\":%ld,\"not_in_place\":%ld,\"place_p50_us\":", x->replaced, x->not_placed);
                umb_sb_json_number(&s, x->place_p50_us);
                umb_sb_printf(&s, "}");
            }
            printf("%s\n", s.s);
            umb_sb_free(&s);
        }
}

static void report(umb_bench *b)
{
    if (!tracks(b)) return;
    char host[64];
    int kind = b->kind;
    snprintf(host, sizeof host, "%.63s", b->host);
    char (*hosts)[64] = b->rank == 0 ? umb_xmalloc(sizeof *hosts * (size_t)b->nranks, "hosts") : NULL;
    int *kinds = b->rank == 0 ? umb_xmalloc(sizeof(int) * (size_t)b->nranks, "kinds") : NULL;
    UMB_MPI_CHECK(MPI_Gather(host, sizeof host, MPI_BYTE, hosts, sizeof host, MPI_BYTE, 0, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Gather(&kind, 1, MPI_INT, kinds, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (b->rank == 0) {
        if (b->opt.format == UMB_FMT_TABLE) print_table(b, (const char (*)[64])hosts, kinds);
        else print_rows(b, (const char (*)[64])hosts, kinds);
        fflush(stdout);
    }
    free(hosts);
    free(kinds);
}

/* The driver's thrashing parameters, where the module shows them. */
static void thrashing_params(char *buf, size_t n)
{
    static const char *const names[] = {"enable", "threshold", "pin_threshold", "lapse_usec", "nap", "epoch", "pin"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char name[64], v[32];
        snprintf(name, sizeof name, "uvm_perf_thrashing_%s", names[i]);
        if (umb_uvm_param(name, v, sizeof v) == 0 && used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", used ? " " : "", names[i], v);
    }
    if (!used) snprintf(buf, n, "not readable (/sys/module/nvidia_uvm/parameters/uvm_perf_thrashing_*)");
}

/* Collective: whether every rank can read pagemap. */
static void start(umb_bench *b)
{
    logbook.n = 0;  /* a pair's log starts empty: a launch may run several (pairs.c) */
    if (!umb_options_uses(&b->opt, umb_kind_is_managed)) return;  /* every rank has the same options: all return here */
    int ok = umb_residency_open(b->pagemap_why, sizeof b->pagemap_why) == 0;
    UMB_MPI_CHECK(MPI_Allreduce(&ok, &b->pagemap_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (!ok) b->pagemap_all = -1;  /* this rank's reason is its own */
}

static void header(umb_bench *b, umb_header *h, umb_header_part part)
{
    if (part != UMB_HDR_PLACEMENT || !umb_options_uses(&b->opt, umb_kind_is_managed) || b->rank != 0) return;
    const umb_options *o = &b->opt;
    char uvm[512], check[512];
    snprintf(check, sizeof check, "after placing, the present bit of every page in %.200s is read, outside the timer "
             "(MD: no page on the host, MH: every page)", umb_residency_file());
    if (o->place_check == UMB_CHECK_OFF)
        umb_header_str(h, "placement_check", "Placement check", "off: pages are not checked; a row's label is not verified");
    else if (b->pagemap_all != 1)
        umb_header_str(h, "placement_check", "Placement check", "unavailable (%s): placement is not verified%s",
                       b->pagemap_all < 0 ? b->pagemap_why : "another rank cannot read /proc/self/pagemap",
                       o->counters == UMB_COUNTERS_FULL ? "; the Place HtoD B/it and Place DtoH B/it columns show what placement moved"
                                                        : "; --counters shows what placement moved");
    else if (o->place_check == UMB_CHECK_ENFORCE)
        umb_header_str(h, "placement_check", "Placement check", "enforce: %s; where it fails, cudaMemPrefetchAsync "
                       "places again, up to %d times; iterations still not placed are left out of the row", check, UMB_REPLACE_TRIES);
    else
        umb_header_str(h, "placement_check", "Placement check", "observe: %s; nothing is placed again: rows hold every "
                       "iteration, what the driver left included, with held and not-held statistics apart", check);
    if (o->place_check != UMB_CHECK_OFF && (o->advise & UMB_ADV_READ_MOSTLY) && (o->used_kinds & 1u << UMB_MD))
        umb_header_str(h, "placement_check_note", "Placement check note",
                       "read-mostly keeps a host copy of MD pages, so the check cannot tell where they are (Placed %% n/a)");
    thrashing_params(uvm, sizeof uvm);
    umb_header_str(h, "uvm_thrashing", "UVM thrashing", "%s", uvm);
}

const umb_observer umb_place_observer = {
    .name = "placement",
    .start = start,
    .header = header,
    .titles = titles,
    .begin = begin,
    .end = end,
    .columns = row_columns,
    .report = report,
};
