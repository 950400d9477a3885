/* --counters in the MPI benchmarks, an observer of the sweep: it runs the
   counting (util/gpu/counters.c) whenever it is on (--counters or --path),
   and with --counters adds per size rank 0's columns (summed over ranks,
   per timed iteration) and at the end the per-rank table. */
#include "observer.h"

#include "counters.h"
#include "cupti_um.h"
#include "error.h"
#include "gpu.h"
#include "ranklog.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Table columns; the rest only with -f (and always in CSV/JSON). */
static const int shown[UMB_NCTRS] = {
    [UMB_CTR_GPU_FAULTS] = 1, [UMB_CTR_CPU_FAULTS] = 1, [UMB_CTR_HTOD] = 1, [UMB_CTR_DTOH] = 1,
    [UMB_CTR_MINFLT] = 1, [UMB_CTR_MAJFLT] = 1,
};

/* What each rank sends rank 0 per size: measured, then placement. */
typedef struct {
    umb_counts measured, place;
} rank_counts;

/* Rank 0's log of every size, for the per-rank table: rank_counts records. */
static umb_ranklog logbook;

static int columns(const umb_bench *b, long iters, const rank_counts *sum, umb_col *cols)
{
    int k = 0, light = b->opt.counters == UMB_COUNTERS_LIGHT;
    /* Without pagemap, what placement moved is the evidence the table shows. */
    int show_place = b->pagemap_all != 1 && umb_options_checks_placement(&b->opt);
    double per = iters > 0 ? 1.0 / (double)iters : 0;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < UMB_NCTRS; c++) {
            umb_col *col = &cols[k++];
            memset(col, 0, sizeof *col);
            snprintf(col->title, sizeof col->title, "%s%s/it", pass ? "Place " : "", umb_counter_title(c));
            snprintf(col->key, sizeof col->key, "%s%s_per_iter", pass ? "place_" : "", umb_counter_key(c));
            col->value = (pass ? sum->place.v[c] : sum->measured.v[c]) * per;
            if (!umb_counters_cupti() && c < UMB_CTR_MINFLT) col->value = NAN;  /* not measured */
            col->decimals = 1;
            col->full_only = pass ? !(show_place && (c == UMB_CTR_HTOD || c == UMB_CTR_DTOH)) : !shown[c];
            if (light && c < UMB_CTR_MINFLT) col->full_only = 1;  /* no CUPTI: nothing to show */
        }
    return k;
}

/* Before any CUDA context, so CUPTI sees all of it: its unified-memory
   counters (--counters), the copies (--path), or getrusage alone (light). */
static void prepare(umb_bench *b)
{
    int um = b->opt.counters == UMB_COUNTERS_FULL && umb_cupti_built(), copies = b->opt.path;
    if (b->opt.counters == UMB_COUNTERS_LIGHT)
        snprintf(b->counters_note, sizeof b->counters_note, "light: getrusage faults and the placement check, no CUPTI");
    if (!b->opt.counters && !copies) return;
    char none[256] = "", note[256] = "";
    int with_gpu = (um || copies) && umb_gpu_count(none, sizeof none) > 0;
    if ((um || copies) && !with_gpu) snprintf(note, sizeof note, "no GPU here (%.200s)", none);
    if (copies && !umb_cupti_built()) snprintf(note, sizeof note, "this build has no CUPTI (configure --with-cupti)");
    umb_counters_start_with(um && with_gpu, copies && with_gpu, b->opt.counters != UMB_COUNTERS_OFF, note, sizeof note);
    if (um) snprintf(b->counters_note, sizeof b->counters_note, "%s", note);
    if (copies) snprintf(b->path_note, sizeof b->path_note, "%s", note[0] ? note : "CUPTI did not start");
}

static int titles(umb_bench *b, const umb_metric *m, umb_col *cols)
{
    (void)m;
    rank_counts none = {0};
    return b->opt.counters ? columns(b, 0, &none, cols) : 0;
}

static void begin(umb_bench *b, umb_row *row)
{
    (void)b;
    umb_counters_size_begin(row->skip);
}

static void stop(umb_bench *b, umb_row *row)
{
    (void)b;
    umb_counters_size_end(row->phases);
}

static rank_counts row_sum;  /* rank 0: the size's counts, summed over ranks */

/* Collective: every rank's counts to rank 0's log. */
static void end(umb_bench *b, umb_row *row)
{
    if (!b->opt.counters) return;
    rank_counts mine = {row->phases[UMB_PH_MEASURED], row->phases[UMB_PH_PLACE]};
    const rank_counts *all = umb_ranklog_gather(&logbook, b->rank, b->nranks, row->size, row->iters, &mine, sizeof mine);
    if (b->rank != 0) return;
    memset(&row_sum, 0, sizeof row_sum);
    for (int r = 0; r < b->nranks; r++)
        for (int c = 0; c < UMB_NCTRS; c++) {
            row_sum.measured.v[c] += all[r].measured.v[c];
            row_sum.place.v[c] += all[r].place.v[c];
        }
}

static int row_columns(umb_bench *b, umb_row *row, umb_col *cols)
{
    if (!b->opt.counters) return 0;
    return columns(b, row->iters, &row_sum, cols);
}

static void header(umb_bench *b, umb_header *h, umb_header_part part)
{
    if (part == UMB_HDR_END && b->opt.counters)
        umb_counters_header(h, "per timed iteration, summed over ranks", b->counters_note);
}

typedef struct {
    char host[64];
    int gpu, cupti;
    double dropped;
} who;

static void print_table(const who *w, int nranks, FILE *out)
{
    fprintf(out, "# Counters per rank: totals over the timed iterations of every size; placement after the bar\n");
    fprintf(out, "# %-5s %-16s %4s", "Rank", "Host", "GPU");
    for (int c = 0; c < UMB_NCTRS; c++) fprintf(out, " %12s", umb_counter_title(c));
    fprintf(out, " | %12s %12s %12s\n", "Place HtoD B", "Place DtoH B", "Place GPU flt");
    for (int r = 0; r < nranks; r++) {
        rank_counts t = {0};
        for (int i = 0; i < logbook.n; i++)
            for (int c = 0; c < UMB_NCTRS; c++) {
                t.measured.v[c] += ((const rank_counts *)umb_ranklog_at(&logbook, i, r))->measured.v[c];
                t.place.v[c] += ((const rank_counts *)umb_ranklog_at(&logbook, i, r))->place.v[c];
            }
        fprintf(out, "# %-5d %-16.16s %4d", r, UMB_SHOWN(w[r].host), w[r].gpu);
        for (int c = 0; c < UMB_NCTRS; c++)
            if (!w[r].cupti && c < UMB_CTR_MINFLT) fprintf(out, " %12s", "n/a");
            else fprintf(out, " %12.0f", t.measured.v[c]);
        if (!w[r].cupti) fprintf(out, " | %12s %12s %12s\n", "n/a", "n/a", "n/a");
        else fprintf(out, " | %12.0f %12.0f %12.0f%s\n", t.place.v[UMB_CTR_HTOD], t.place.v[UMB_CTR_DTOH],
                     t.place.v[UMB_CTR_GPU_FAULTS], w[r].dropped > 0 ? "  (CUPTI dropped records: low)" : "");
    }
}

static void print_rows(umb_bench *b, const who *w, int nranks, FILE *out)
{
    int csv = b->opt.format == UMB_FMT_CSV;
    if (csv) {
        fprintf(out, "# per-rank counters\nrank,host,gpu,cupti,size,iterations");
        for (int pass = 0; pass < 2; pass++)
            for (int c = 0; c < UMB_NCTRS; c++) fprintf(out, ",%s%s", pass ? "place_" : "", umb_counter_key(c));
        fprintf(out, "\n");
    }
    for (int i = 0; i < logbook.n; i++)
        for (int r = 0; r < nranks; r++) {
            const rank_counts *rc = umb_ranklog_at(&logbook, i, r);
            umb_strbuf s = {0};
            if (csv) {
                umb_sb_printf(&s, "%d,%s,%d,%d,%zu,%ld", r, UMB_SHOWN(w[r].host), w[r].gpu, w[r].cupti, logbook.sizes[i], logbook.iters[i]);
            } else {
                umb_sb_printf(&s, "{\"type\":\"rank_counters\",\"program\":");
                umb_sb_json_string(&s, b->cli->program);
                umb_sb_printf(&s, ",\"rank\":%d,\"host\":", r);
                umb_sb_json_string(&s, w[r].host);
                umb_sb_printf(&s, ",\"gpu\":%d,\"cupti\":%s,\"dropped_records\":%.0f,\"size\":%zu,\"iterations\":%ld",
                              w[r].gpu, w[r].cupti ? "true" : "false", w[r].dropped, logbook.sizes[i], logbook.iters[i]);
            }
            for (int pass = 0; pass < 2; pass++)
                for (int c = 0; c < UMB_NCTRS; c++) {
                    const umb_counts *v = pass ? &rc->place : &rc->measured;
                    int none = !w[r].cupti && c < UMB_CTR_MINFLT;
                    if (csv) umb_sb_printf(&s, none ? "," : ",%.0f", v->v[c]);
                    else if (none) umb_sb_printf(&s, ",\"%s%s\":null", pass ? "place_" : "", umb_counter_key(c));
                    else umb_sb_printf(&s, ",\"%s%s\":%.0f", pass ? "place_" : "", umb_counter_key(c), v->v[c]);
                }
            fprintf(out, "%s%s\n", s.s, csv ? "" : "}");
            umb_sb_free(&s);
        }
}

static void report(umb_bench *b)
{
    if (!b->opt.counters) return;
    who mine = {.gpu = b->gpu, .cupti = umb_counters_cupti(), .dropped = (double)umb_counters_dropped()}, *all = NULL;
    snprintf(mine.host, sizeof mine.host, "%.63s", b->host);
    if (b->rank == 0) all = umb_xmalloc(sizeof *all * (size_t)b->nranks, "counters");
    UMB_MPI_CHECK(MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD));
    if (b->rank != 0) return;
    if (b->opt.format == UMB_FMT_TABLE) print_table(all, b->nranks, stdout);
    else print_rows(b, all, b->nranks, stdout);
    fflush(stdout);
    free(all);
}

const umb_observer umb_counters_observer = {
    .name = "counters",
    .prepare = prepare,
    .header = header,
    .titles = titles,
    .begin = begin,
    .stop = stop,
    .end = end,
    .columns = row_columns,
    .report = report,
};
