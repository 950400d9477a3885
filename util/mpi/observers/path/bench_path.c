/* --path, an observer of the sweep (docs/method.md, "The path of a row"):
   per size, the CUDA copies every rank's process made during the timed
   iterations (CUPTI memcpy records, whatever library made them), by kind;
   the class of the path they show (staged through the host, direct GPU to
   GPU, none); the bound of that path and a bandwidth row's share of it;
   and, over UCX, at the end, UCX's own protocol tables for the memory
   types of the ranks (UCX_PROTO_INFO). */
#include "observer.h"

#include "error.h"
#include "bound.h"
#include "link.h"
#include "topo.h"
#include "memkind.h"
#include "path_ucx.h"
#include "ranklog.h"
#include "sysinfo.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_TEXT 8192  /* one rank's UCX tables, as text, for rank 0 */

/* What each rank sends rank 0 per size. */
typedef struct {
    double v[UMB_NALL - UMB_NCTRS];  /* UMB_CPY_* */
    double migrated;                 /* managed bytes the driver migrated (--counters), else NAN */
} rank_path;

static struct {
    char ucx_log[256];   /* the UCX log file we asked for, "" when none */
    double host_gbs;     /* bound of a staged path (lowest host link of the ranks' GPUs), GB/s */
    double direct_gbs;   /* bound of a direct path */
    char host_from[160], direct_from[200];
    umb_ranklog log;     /* rank 0: rank_path records of every size, for the per-rank table */
    int pairs, same;     /* rank 0: GPU pairs named in the header, and how many share one GPU */
    char *links_json, *links_text;
    umb_measured_bound measured;
    char measured_text[256];
    rank_path sum;       /* the size's copies, summed over ranks */
    double migrated;     /* and its migrations */
} P;

static int on(const umb_bench *b) { return b->opt.path; }

/* Asks UCX for its protocol tables (path_ucx.h). */
static void environment(umb_bench *b, char **argv)
{
    if (on(b)) umb_path_ucx_ask(argv, P.ucx_log, sizeof P.ucx_log);
}

/* UCX's memory type for a buffer kind: a UCX without its CUDA transports
   sees every buffer as host memory. */
static const char *memtype_of(const umb_bench *b)
{
    if (!b->facts.ucx_cuda) return "host";
    return umb_kind_is_managed(b->kind) ? "cuda-managed" : b->kind == UMB_D ? "cuda" : "host";
}

/* Rank 0: the link between rank 0's GPU and every other rank's on its
   host; the bound of a direct path is the narrowest (NAN on one GPU). */
static void gpu_links(const umb_bench *b)
{
    const umb_rank_facts *r0 = &b->ranks[0];
    umb_strbuf json = {0}, text = {0};
    umb_sb_printf(&json, "[");
    for (int r = 1; r < b->nranks; r++) {
        const umb_rank_facts *f = &b->ranks[r];
        if (r0->gpu < 0 || f->gpu < 0) continue;
        umb_gpu_link l;
        char line[320];
        umb_link_init(&l);
        if (strcmp(f->host, r0->host)) snprintf(l.why, sizeof l.why, "another host: the network, not a GPU link");
        else umb_topo_link(r0->gpu_bus, f->gpu_bus, &l);
        umb_link_format(&l, line, sizeof line);
        umb_sb_printf(&json, "%s{\"ranks\":[0,%d],\"kind\":\"%s\",\"nvlinks\":%d,\"nvlink_gen\":%d,\"level\":",
                      json.s[1] ? "," : "", r, umb_link_kind_name(l.kind), l.nvlinks, l.nvlink_gen);
        umb_sb_json_string(&json, umb_pcie_level_name(l.level));
        umb_sb_printf(&json, ",\"peer\":%d,\"bound_gbs\":", l.peer);
        umb_sb_json_number(&json, l.bound_gbs);
        umb_sb_json_field(&json, "text", line);
        umb_sb_printf(&json, "}");
        umb_sb_printf(&text, "# GPU link: rank 0 (%s) - rank %d (%s): %s\n", UMB_SHOWN(r0->gpu_bus), r,
                      UMB_SHOWN(f->gpu_bus), UMB_SHOWN(line));
        if (l.kind == UMB_LINK_SAME) P.same++;
        else if (!(l.bound_gbs >= P.direct_gbs)) P.direct_gbs = l.bound_gbs;
        if (!P.direct_from[0] || l.kind != UMB_LINK_SAME) snprintf(P.direct_from, sizeof P.direct_from, "%.199s", line);
        P.pairs++;
    }
    umb_sb_printf(&json, "]");
    if (P.pairs) {
        P.links_json = json.s, P.links_text = text.s;  /* for the header */
    } else {
        umb_sb_free(&json);
        umb_sb_free(&text);
    }
}

/* --measure-bound, collective: rank 0 copies while the others wait (one
   copy at a time on a shared link): pinned host memory each way on its
   GPU, and its GPU to rank 1's (or within its GPU when they share it). */
static void measure(umb_bench *b)
{
    umb_measured_init(&P.measured);
    if (b->rank == 0 && b->gpu >= 0) {
        int peer = b->nranks > 1 && !strcmp(b->ranks[1].host, b->ranks[0].host) ? b->ranks[1].gpu : -1;
        if (umb_bound_measure_host(b->gpu, &P.measured) == 0) {
            double host = fmin(P.measured.htod_gbs, P.measured.dtoh_gbs);
            if (host > 0) {
                P.host_gbs = host;
                snprintf(P.host_from, sizeof P.host_from, "measured on rank 0's GPU, pinned copies");
            }
        }
        if (peer >= 0 && umb_bound_measure_peer(b->gpu, peer, &P.measured) == 0 && P.measured.peer_gbs > 0) {
            P.direct_gbs = P.measured.peer_gbs;
            snprintf(P.direct_from, sizeof P.direct_from, "measured, GPU %d to GPU %d", b->gpu, peer);
        }
        umb_measured_format(&P.measured, P.measured_text, sizeof P.measured_text);
    }
    UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

/* The bounds: a staged path crosses each rank's GPU's host link; a direct
   one the link between the GPUs (nominal, or measured). */
static void start(umb_bench *b)
{
    P.host_gbs = P.direct_gbs = NAN;
    if (b->rank == 0 && b->ranks) {
        for (int r = 0; r < b->nranks; r++) {
            const umb_rank_facts *f = &b->ranks[r];
            double g = f->gpu >= 0 ? umb_pcie_gbs(f->pcie) : NAN;
            if (g > 0 && !(g >= P.host_gbs)) {
                P.host_gbs = g;
                snprintf(P.host_from, sizeof P.host_from, "rank %d's GPU link, PCIe %s, nominal", r, f->pcie);
            }
        }
        gpu_links(b);
    }
    if (b->opt.measure_bound) measure(b);
}

static void header(umb_bench *b, umb_header *h, umb_header_part part)
{
    if (part != UMB_HDR_END) return;
    if (P.links_json) {  /* with or without --path: the header names the GPUs' links */
        umb_header_json(h, "gpu_links", P.links_json, P.links_text);
        free(P.links_json);
        free(P.links_text);
        P.links_json = P.links_text = NULL;
    }
    if (b->opt.measure_bound)
        umb_header_str(h, "measured_bound", "Measured bound", "%s", P.measured_text[0] ? P.measured_text : "not measured: no GPU on rank 0");
    if (!on(b)) return;
    umb_header_str(h, "path", "Path", "%s; per timed iteration, summed over ranks; Path: staged (through host "
                   "memory), direct (GPU to GPU), none (no CUDA copies: the CPU moved the bytes), migrated (no "
                   "copies; the driver migrated managed pages, with --counters), mixed",
                   umb_counters_copies() ? "CUDA copies the process made (CUPTI memcpy records, any library)"
                                         : "not recorded");
    if (!umb_counters_copies()) umb_header_str(h, "path_note", "Path note", "%s", b->path_note);
    if (!b->facts.ucx_loaded)
        umb_header_str(h, "path_ucx", "UCX protocols", "UCX not loaded");
    else
        umb_header_str(h, "path_ucx", "UCX protocols", "%s",
                       P.ucx_log[0] ? "UCX's own tables for the ranks' sends, at the end (UCX_PROTO_INFO=y and "
                                      "UCX_LOG_FILE, set by --path)"
                                    : "not read: UCX_PROTO_INFO or UCX_LOG_FILE was set already");
    if (!P.direct_from[0]) snprintf(P.direct_from, sizeof P.direct_from, "no pair of GPUs");
    else if (P.pairs && P.same == P.pairs && !isfinite(P.direct_gbs))
        snprintf(P.direct_from, sizeof P.direct_from, "all ranks on one GPU: no nominal figure (--measure-bound measures one)");
    char staged[48] = "unknown";
    if (isfinite(P.host_gbs)) snprintf(staged, sizeof staged, "%.1f GB/s", P.host_gbs);
    umb_header_str(h, "path_bounds", "Path bounds", "staged: %s (%s); direct: %s", staged,
                   P.host_from[0] ? P.host_from : "no GPU link known", P.direct_from);
    if (isfinite(P.host_gbs)) {
        /* The figure itself, machine-readable. */
        umb_header_num(h, "path_bound_staged_gbs", "Path bound staged GB/s", P.host_gbs);
    }
}

static void col(umb_col *c, const char *title, const char *key, double v, int decimals, int full_only)
{
    umb_num_col(c, title, key, v, decimals);
    c->full_only = full_only;
}

/* Path, bytes of copies by kind, copies; bandwidth rows add the bound and the share. */
static int columns(const umb_metric *m, const char *path, const double *v, double per, double bound, double share,
                   umb_col *cols)
{
    int n = 0;
    umb_text_col(&cols[n++], "Path", "path", path);
    col(&cols[n++], "HtoD B/it", "copy_htod_bytes_per_iter", v[UMB_CPY_HTOD - UMB_NCTRS] * per, 0, 0);
    col(&cols[n++], "DtoH B/it", "copy_dtoh_bytes_per_iter", v[UMB_CPY_DTOH - UMB_NCTRS] * per, 0, 0);
    col(&cols[n++], "DtoD B/it", "copy_dtod_bytes_per_iter", v[UMB_CPY_DTOD - UMB_NCTRS] * per, 0, 0);
    col(&cols[n++], "PtoP B/it", "copy_ptop_bytes_per_iter", v[UMB_CPY_PTOP - UMB_NCTRS] * per, 0, 1);
    col(&cols[n++], "HtoH B/it", "copy_htoh_bytes_per_iter", v[UMB_CPY_HTOH - UMB_NCTRS] * per, 0, 1);
    col(&cols[n++], "Copies/it", "copies_per_iter", v[UMB_CPY_COUNT - UMB_NCTRS] * per, 1, 1);
    if (m->rate) {
        col(&cols[n++], "Bound GB/s", "path_bound_gbs", bound, 1, 0);
        col(&cols[n++], "% of bound", "path_bound_pct", 100 * share, 1, 0);
    }
    return n;
}

static int titles(umb_bench *b, const umb_metric *m, umb_col *cols)
{
    double zero[UMB_NALL - UMB_NCTRS] = {0};
    return on(b) ? columns(m, "", zero, 0, 0, 0, cols) : 0;
}

/* Collective: every rank's copies and UCX choice to rank 0. */
static void end(umb_bench *b, umb_row *row)
{
    if (!on(b)) return;
    rank_path mine;
    memset(&mine, 0, sizeof mine);
    for (int c = UMB_NCTRS; c < UMB_NALL; c++)
        mine.v[c - UMB_NCTRS] = umb_counters_copies() ? row->phases[UMB_PH_MEASURED].v[c] : NAN;
    mine.migrated = umb_counters_cupti() ? row->phases[UMB_PH_MEASURED].v[UMB_CTR_HTOD] +
                                               row->phases[UMB_PH_MEASURED].v[UMB_CTR_DTOH]
                                         : NAN;
    const rank_path *all = umb_ranklog_gather(&P.log, b->rank, b->nranks, row->size, row->iters, &mine, sizeof mine);
    if (b->rank != 0) return;
    memset(&P.sum, 0, sizeof P.sum);
    for (int r = 0; r < b->nranks; r++)
        for (int c = 0; c < UMB_NALL - UMB_NCTRS; c++) P.sum.v[c] += all[r].v[c];
    P.migrated = 0;
    for (int r = 0; r < b->nranks; r++) P.migrated += all[r].migrated;
}

static int row_columns(umb_bench *b, umb_row *row, umb_col *cols)
{
    if (!on(b)) return 0;
    double per = row->iters > 0 ? 1.0 / (double)row->iters : NAN;
    const double *v = P.sum.v;
    umb_copy_bytes c = {
        .htod = v[UMB_CPY_HTOD - UMB_NCTRS] * per, .dtoh = v[UMB_CPY_DTOH - UMB_NCTRS] * per,
        .dtod = v[UMB_CPY_DTOD - UMB_NCTRS] * per, .ptop = v[UMB_CPY_PTOP - UMB_NCTRS] * per,
        .htoh = v[UMB_CPY_HTOH - UMB_NCTRS] * per, .copies = v[UMB_CPY_COUNT - UMB_NCTRS] * per,
        .migrated = P.migrated * per,
    };
    umb_path_class path = umb_path_classify(&c, row->payload);
    double bound = path == UMB_PATH_STAGED ? P.host_gbs : path == UMB_PATH_DIRECT ? P.direct_gbs : NAN;
    double share = row->metric->rate && isfinite(bound) ? row->stats.avg / (bound * 1000) : NAN;
    row->facts.path = path;
    row->facts.copy = c;
    row->facts.payload = row->payload;
    row->facts.bound_gbs = bound;
    row->facts.share = share;
    return columns(row->metric, umb_path_name(path), v, per, bound, share, cols);
}

static void print_table(umb_bench *b)
{
    int recorded = 0;
    for (int i = 0; i < P.log.n; i++)
        for (int r = 0; r < b->nranks; r++)
            recorded |= isfinite(((const rank_path *)umb_ranklog_at(&P.log, i, r))->v[UMB_CPY_COUNT - UMB_NCTRS]);
    if (!recorded) {
        printf("# Path per rank: not recorded (%s)\n", b->path_note);
        return;
    }
    printf("# Path per rank: bytes of CUDA copies over the timed iterations of each size\n");
    printf("# %-5s %10s %14s %14s %14s %14s %10s\n", "Rank", "Size", "HtoD B", "DtoH B", "DtoD B", "PtoP B", "Copies");
    for (int i = 0; i < P.log.n; i++)
        for (int r = 0; r < b->nranks; r++) {
            const rank_path *x = umb_ranklog_at(&P.log, i, r);
            static const int shown[] = {UMB_CPY_HTOD, UMB_CPY_DTOH, UMB_CPY_DTOD, UMB_CPY_PTOP, UMB_CPY_COUNT};
            printf("# %-5d %10zu", r, P.log.sizes[i]);
            for (size_t c = 0; c < sizeof shown / sizeof *shown; c++) {
                double v = x->v[shown[c] - UMB_NCTRS];
                if (isfinite(v)) printf(" %*.0f", c + 1 < sizeof shown / sizeof *shown ? 14 : 10, v);
                else printf(" %*s", c + 1 < sizeof shown / sizeof *shown ? 14 : 10, "n/a");
            }
            printf("\n");
        }
}

static void print_rows(umb_bench *b)
{
    int csv = b->opt.format == UMB_FMT_CSV;
    if (csv) printf("# per-rank path\nrank,size,iterations,copy_htod_bytes,copy_dtoh_bytes,copy_dtod_bytes,copy_ptop_bytes,"
                    "copy_htoh_bytes,copies\n");
    for (int i = 0; i < P.log.n; i++)
        for (int r = 0; r < b->nranks; r++) {
            const rank_path *x = umb_ranklog_at(&P.log, i, r);
            umb_strbuf s = {0};
            if (csv) {
                umb_sb_printf(&s, "%d,%zu,%ld", r, P.log.sizes[i], P.log.iters[i]);
                for (int c = 0; c < UMB_NALL - UMB_NCTRS; c++) umb_sb_printf(&s, isfinite(x->v[c]) ? ",%.0f" : ",", x->v[c]);
            } else {
                static const char *const keys[] = {"copy_htod_bytes", "copy_dtoh_bytes", "copy_dtod_bytes",
                                                   "copy_ptop_bytes", "copy_htoh_bytes", "copies"};
                umb_sb_printf(&s, "{\"type\":\"rank_path\",\"program\":");
                umb_sb_json_string(&s, b->cli->program);
                umb_sb_printf(&s, ",\"rank\":%d,\"size\":%zu,\"iterations\":%ld", r, P.log.sizes[i], P.log.iters[i]);
                for (int c = 0; c < UMB_NALL - UMB_NCTRS; c++) {
                    umb_sb_printf(&s, ",\"%s\":", keys[c]);
                    umb_sb_json_number(&s, x->v[c]);
                }
                umb_sb_printf(&s, "}");
            }
            printf("%s\n", s.s);
            umb_sb_free(&s);
        }
}

/* Collective: the per-rank table and UCX's tables; UCX's other log lines
   go to stderr, and the file we asked for is removed. */
static void report(umb_bench *b)
{
    if (!on(b)) return;
    char *mine = umb_xmalloc(TABLE_TEXT, "UCX tables"), *all = NULL;
    umb_path_ucx_tables(P.ucx_log, memtype_of(b), mine, TABLE_TEXT);
    if (b->rank == 0) all = umb_xmalloc((size_t)TABLE_TEXT * (size_t)b->nranks, "UCX tables");
    UMB_MPI_CHECK(MPI_Gather(mine, TABLE_TEXT, MPI_CHAR, all, TABLE_TEXT, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (b->rank == 0) {
        if (b->opt.format == UMB_FMT_TABLE) print_table(b);
        else print_rows(b);
        umb_path_ucx_print(b, all, TABLE_TEXT, P.ucx_log);
        fflush(stdout);
    }
    free(mine);
    free(all);
    umb_path_ucx_done(P.ucx_log);
}

const umb_observer umb_path_observer = {
    .name = "path",
    .environment = environment,
    .start = start,
    .header = header,
    .titles = titles,
    .end = end,
    .columns = row_columns,
    .report = report,
};
