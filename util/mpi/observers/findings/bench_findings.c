/* Findings, an observer of the sweep: it keeps what every row's observers
   learnt (umb_row_facts) and, after the last size, prints the rules of
   util/core/findings.c that hold (text: "# Finding" lines, and "# Seen
   once" for a step one run cannot say repeats, with the command that
   would confirm it; CSV and JSON: a record each). docs/output.md lists them. */
#include "observer.h"

#include "error.h"
#include "precision.h"
#include "strbuf.h"
#include "sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    umb_row_facts *rows;
    int n, cap, rate;  /* rate: the rows' metric is a rate (bandwidth) */
    char **argv;       /* the program's own, for the command that confirms a finding seen once */
} F;

static void environment(umb_bench *b, char **argv)
{
    (void)b;
    F.argv = argv;
}

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
    f->quartile_lo = row->stats.p25;
    f->quartile_hi = row->stats.p75;
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

/* An argument as a shell reads it back. */
static void shell_word(umb_strbuf *s, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,:%=+/-") == strlen(w)) {
        umb_sb_printf(s, " %s", w);
        return;
    }
    umb_sb_printf(s, " '");
    for (; *w; w++) {
        if (*w == '\'') umb_sb_printf(s, "'\\''");
        else umb_sb_printf(s, "%c", *w);
    }
    umb_sb_printf(s, "'");
}

/* How many of the arguments at a are umb-run's own: a buffer kind, or the
   format or buffer options with their value (umb-run's sets give those). */
static int theirs(char **a)
{
    static const char *const kinds[] = {"H", "P", "D", "MH", "MD", "M", NULL};
    static const char *const options[] = {"--format", "--buffer", "--root-buffer", "--buffers", NULL};
    for (const char *const *k = kinds; *k; k++)
        if (!strcmp(*a, *k)) return 1;
    for (const char *const *o = options; *o; o++) {
        size_t n = strlen(*o);
        if (!strncmp(*a, *o, n) && (*a)[n] == '=') return 1;
        if (!strcmp(*a, *o)) return a[1] ? 2 : 1;
    }
    return 0;
}

/* The program's options as umb-run passes them on after "--". */
static void own_options(umb_strbuf *s)
{
    for (char **a = F.argv ? F.argv + 1 : NULL; a && *a;) {
        int skip = theirs(a);
        if (!skip) shell_word(s, *a);
        a += skip ? skip : 1;
    }
}

/* Whether umb-run's full set runs these buffers: every kind but P, one
   kind per side (a collective: one kind for every rank). */
static int in_full_set(const umb_options *o, int collective)
{
    if (collective) return !o->buffer_list && o->root_kind == o->other_kind && o->other_kind != UMB_P;
    for (int i = 0; i < o->nkinds; i++)
        if (o->kinds[i] == UMB_P) return 0;
    return 1;
}

/* The rounds that confirm or not a finding seen once: umb-run runs this
   program and pair that often, and umb-findings judges the step on the
   pooled rows (an interval across rounds needs this many). */
static void confirm(const umb_bench *b, umb_strbuf *s)
{
    long rounds = 1;
    while (!umb_median_interval_rank(rounds, UMB_PRECISION_LEVEL)) rounds++;
    const umb_options *o = &b->opt;
    if (!in_full_set(o, b->cli->collective)) {
        umb_sb_printf(s, "%ld runs pooled by umb-findings DIR (umb-run --rounds %ld; its sets do not hold buffers %s)",
                      rounds, rounds, b->buffers);
        return;
    }
    const char *pair = b->cli->collective ? umb_kind_name(o->other_kind) : b->buffers;
    umb_sb_printf(s, "umb-run --set full --match '^%s %s$' --rounds %ld --within off --out DIR --", b->cli->program, pair, rounds);
    own_options(s);
    umb_sb_printf(s, "; then umb-findings DIR judges it over the %ld runs", rounds);
}

static void print_text(const umb_bench *b, const umb_finding *f, int n)
{
    int once = 0;
    for (int i = 0; i < n; i++) once += f[i].confidence == UMB_SEEN_ONCE;
    if (n > once) printf("# Findings: %d", n - once);
    else printf("# Findings: none");
    if (once) printf("; seen once: %d", once);
    printf(n ? " (docs/output.md, \"Findings\")\n" : "\n");
    for (int seen_once = 0; seen_once < 2; seen_once++)  /* the findings, then those seen once */
        for (int i = 0; i < n; i++) {
            if ((f[i].confidence == UMB_SEEN_ONCE) != seen_once) continue;
            /* A finding names hosts and the program's options: shown (strbuf.h). */
            printf("# %s %s [%s]: %s\n", seen_once ? "Seen once" : "Finding", f[i].id, UMB_SHOWN(f[i].rows),
                   UMB_SHOWN(f[i].what));
            if (seen_once) {
                umb_strbuf s = {0}, shown = {0};
                confirm(b, &s);
                umb_sb_shown(&shown, s.s);
                printf("#   confirm: %s\n", shown.s);
                umb_sb_free(&s);
                umb_sb_free(&shown);
            }
            if (f[i].advice[0]) printf("#   try: %s\n", UMB_SHOWN(f[i].advice));
        }
}

static void print(const umb_bench *b, const umb_finding *f, int n)
{
    if (b->opt.format == UMB_FMT_TABLE) {
        print_text(b, f, n);
        return;
    }
    if (b->opt.format == UMB_FMT_CSV) printf("# findings\nfinding,rows,what,try,confidence,confirm\n");
    for (int i = 0; i < n; i++) {
        umb_strbuf s = {0}, how = {0}, how_shown = {0};
        if (f[i].confidence == UMB_SEEN_ONCE) confirm(b, &how);
        if (b->opt.format == UMB_FMT_CSV) {
            umb_sb_shown(&how_shown, how.s);
            umb_sb_printf(&s, "%s,\"%s\",\"%s\",\"%s\",%s,\"%s\"", f[i].id, UMB_SHOWN(f[i].rows), UMB_SHOWN(f[i].what),
                          UMB_SHOWN(f[i].advice), umb_confidence_name(f[i].confidence), how_shown.s ? how_shown.s : "");
        } else {
            umb_sb_printf(&s, "{\"type\":\"finding\",\"program\":");
            umb_sb_json_string(&s, b->cli->program);
            umb_sb_json_field(&s, "buffers", b->buffers);
            umb_sb_json_field(&s, "finding", f[i].id);
            umb_sb_json_field(&s, "rows", f[i].rows);
            umb_sb_json_field(&s, "confidence", umb_confidence_name(f[i].confidence));
            umb_sb_json_field(&s, "what", f[i].what);
            umb_sb_json_field(&s, "try", f[i].advice);
            umb_sb_json_field(&s, "confirm", how.s ? how.s : "");
            umb_sb_printf(&s, "}");
        }
        printf("%s\n", s.s);
        umb_sb_free(&s);
        umb_sb_free(&how);
        umb_sb_free(&how_shown);
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
    .environment = environment,
    .columns = row_columns,
    .report = report,
};
