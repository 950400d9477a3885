/* Findings, an observer of the sweep: it keeps what every row's observers
   learnt (umb_row_facts) and, after the last size, prints the rules of
   util/core/findings.c that hold (text: "# Finding" lines; CSV and JSON: a
   record each). docs/output.md lists them. */
#include "observer.h"

#include "error.h"
#include "sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    umb_row_facts *rows;
    int n, cap, rate;  /* rate: the rows' metric is a rate (bandwidth) */
} F;

static int row_columns(umb_bench *b, umb_row *row, umb_col *cols)
{
    (void)cols;
    if (F.n == F.cap) {
        F.cap = F.cap ? 2 * F.cap : 64;
        F.rows = realloc(F.rows, sizeof *F.rows * (size_t)F.cap);
        if (!F.rows) umb_fatal("realloc", __FILE__, __LINE__, "out of memory for the findings");
    }
    umb_row_facts *f = &F.rows[F.n++];
    *f = row->facts;
    f->size = row->size;
    f->typical = row->stats.p50;
    f->typical_lo = row->stats.p50_lo;
    f->typical_hi = row->stats.p50_hi;
    f->best = row->metric->rate ? row->stats.max : row->stats.min;
    f->iters = row->stats.n;
    F.rate = row->metric->rate;
    (void)b;
    return 0;
}

/* The driver's throttle, for the "throttled" rule. */
static void thrashing(umb_run_facts *run)
{
    char v[32];
    run->thrash_nap_us = NAN;
    run->thrash_enabled = -1;
    if (umb_uvm_param("uvm_perf_thrashing_nap", v, sizeof v) == 0) run->thrash_nap_us = 1000.0 * atof(v);  /* ms */
    if (umb_uvm_param("uvm_perf_thrashing_enable", v, sizeof v) == 0) run->thrash_enabled = atoi(v) != 0;
}

static void print(const umb_bench *b, const umb_finding *f, int n)
{
    if (b->opt.format == UMB_FMT_TABLE) {
        if (n) printf("# Findings: %d (docs/output.md, \"Findings\")\n", n);
        else printf("# Findings: none\n");
        for (int i = 0; i < n; i++) {
            printf("# Finding %s [%s]: %s\n", f[i].id, f[i].rows, f[i].what);
            if (f[i].advice[0]) printf("#   try: %s\n", f[i].advice);
        }
        return;
    }
    if (b->opt.format == UMB_FMT_CSV) printf("# findings\nfinding,rows,what,try\n");
    for (int i = 0; i < n; i++) {
        umb_strbuf s = {0};
        if (b->opt.format == UMB_FMT_CSV) {
            umb_sb_printf(&s, "%s,\"%s\",\"%s\",\"%s\"", f[i].id, f[i].rows, f[i].what, f[i].advice);
        } else {
            umb_sb_printf(&s, "{\"type\":\"finding\",\"program\":");
            umb_sb_json_string(&s, b->cli->program);
            umb_sb_json_field(&s, "buffers", b->buffers);
            umb_sb_json_field(&s, "finding", f[i].id);
            umb_sb_json_field(&s, "rows", f[i].rows);
            umb_sb_json_field(&s, "what", f[i].what);
            umb_sb_json_field(&s, "try", f[i].advice);
            umb_sb_printf(&s, "}");
        }
        printf("%s\n", s.s);
        umb_sb_free(&s);
    }
}

static void report(umb_bench *b)
{
    if (b->rank != 0) return;
    umb_run_facts run = {
        .nranks = b->nranks, .ranks = b->ranks, .lower_is_better = !F.rate, .bandwidth = F.rate,
        .ucx = b->facts.ucx_loaded, .path_asked = b->opt.path,
    };
    thrashing(&run);
    umb_finding found[16];
    int n = umb_findings(&run, F.rows, F.n, found, 16);
    print(b, found, n);
    fflush(stdout);
    free(F.rows);
    F.rows = NULL;
    F.n = F.cap = 0;
}

const umb_observer umb_findings_observer = {
    .name = "findings",
    .columns = row_columns,
    .report = report,
};
