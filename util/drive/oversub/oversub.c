/* The oversub family (oversub.h): access pattern x memory mode x
   oversubscription factor. One managed allocation of factor x free GPU
   memory per factor; for each pattern and mode the pages start on the
   host, the mode's hints and prefetch are applied, then one timed pass
   (docs/method.md). */
#include "oversub.h"
#include "access.h"
#include "error.h"
#include "figures.h"
#include "gpu.h"
#include "memkind.h"
#include "parse.h"
#include "output.h"
#include "clock.h"
#include "counters.h"
#include "drive.h"
#include "oversub_rule.h"
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FACTORS 16
#define GIB UMB_GIB

typedef enum { M_DEMAND, M_ZEROCOPY, M_PREFETCH, M_STRIPE_4K, M_STRIPE_64K, M_STRIPE_2M, NMODES } mode;
static const char *mode_names[NMODES] = {"demand", "zerocopy", "prefetch", "stripe-4K", "stripe-64K", "stripe-2M"};
static const size_t stripe_page[NMODES] = {0, 0, 0, 4096, 65536, 2097152};

typedef struct {
    double factors[MAX_FACTORS];
    int nfactors;
    int patterns[UMB_NPATTERNS], npatterns;
    int modes[NMODES], nmodes;
    unsigned long steps;
} config;

_Static_assert(UMB_NPATTERNS == 3 && NMODES == 6, "cfg's defaults list every pattern and mode");
static config cfg = {.factors = {0.5}, .nfactors = 1, .patterns = {0, 1, 2}, .npatterns = UMB_NPATTERNS,
                     .modes = {0, 1, 2, 3, 4, 5}, .nmodes = NMODES, .steps = 64};
static umb_drive drv;        /* --device, --op, --grid, --block, --format, -U, ... */
static umb_fold_check check; /* every read pass's sum against what was written (fold.h) */
#define FILL 3               /* every byte of the buffer, written once per factor */

/* A comma-separated list of names, each once (the value named twice is
   said, as umb_list_repeat says it for the MPI programs' lists): 0, else 1
   with the line in err. */
static int parse_names(const char *opt, const char *list, const char *const *names, int nnames, int *out, int *n,
                       char *err, size_t errn)
{
    char copy[256], *items[32], accepted[160] = "";
    int count, again;
    for (int i = 0; i < nnames; i++)
        snprintf(accepted + strlen(accepted), sizeof accepted - strlen(accepted), "%s%s", i ? ", " : "", names[i]);
    *n = 0;
    if (umb_list_items(list, copy, sizeof copy, items, 32, &count))  /* "grid,,block" too */
        return umb_errf(err, errn, "%s %s: expected %s, comma-separated (no empty item), each once", opt, list, accepted);
    if ((again = umb_list_repeat(items, count)) >= 0)
        return umb_errf(err, errn, "%s %s: '%s' named twice; each once", opt, list, items[again]);
    for (int i = 0; i < count; i++) {
        int k = -1;
        for (int j = 0; j < nnames; j++)
            if (!strcmp(items[i], names[j])) k = j;
        if (k < 0) return umb_errf(err, errn, "%s %s: unknown '%s'; accepted: %s (comma-separated, each once)", opt, list, items[i], accepted);
        out[(*n)++] = k;
    }
    return 0;
}

enum { O_FACTOR = 1000, O_PATTERN, O_MODE, O_STEPS };

static int own_parse(void *ctx, int val, const char *name, const char *a, char *err, size_t n)
{
    static const char *const pattern_names[] = {"grid", "block", "random"};
    config *c = ctx;
    char badv[64];
    long v;
    (void)name;
    switch (val) {
    case O_FACTOR:
        c->nfactors = umb_oversub_parse_factors(a, c->factors, MAX_FACTORS, badv, sizeof badv);
        if (c->nfactors < 0)
            return umb_errf(err, n, "--factor %s: '%s' is not a factor; expected up to %d numbers above 0 and at most 64, comma-separated, e.g. 0.1,0.5,0.9",
                            a, badv, MAX_FACTORS);
        for (int i = 1; i < c->nfactors; i++)  /* 0.5,0.50: one factor's rows twice */
            for (int j = 0; j < i; j++)
                if (c->factors[i] == c->factors[j])
                    return umb_errf(err, n, "--factor %s: the factor %g is given twice; each once", a, c->factors[i]);
        return 0;
    case O_PATTERN:
        return parse_names("--pattern", a, pattern_names, UMB_NPATTERNS, c->patterns, &c->npatterns, err, n);
    case O_MODE:
        return parse_names("--mode", a, mode_names, NMODES, c->modes, &c->nmodes, err, n);
    case O_STEPS:
        if (umb_parse_long(a, 1, 1L << 20, &v)) return umb_errf(err, n, "--steps %s: expected a whole number from 1 to 1048576", a);
        c->steps = (unsigned long)v;
        return 0;
    }
    return 1;
}

/* A factor above 1 without --allow-oversubscription is refused with the
   other bad input, before any GPU is looked for (without a GPU it gave 77). */
static int own_check(void *ctx, char *err, size_t n)
{
    const config *c = ctx;
    for (int i = 0; i < c->nfactors && !drv.allow_oversub; i++)
        if (c->factors[i] > 1)
            return umb_errf(err, n, "--factor %g: above 1 oversubscribes the GPU's memory; refused unless "
                            "--allow-oversubscription (never on a shared GPU)", c->factors[i]);
    return 0;
}

static const struct option own_options[] = {
    {"factor", required_argument, 0, O_FACTOR}, {"pattern", required_argument, 0, O_PATTERN},
    {"mode", required_argument, 0, O_MODE}, {"steps", required_argument, 0, O_STEPS}, {0, 0, 0, 0}};

/* The program's name and summary come from its descriptor. */
static umb_drive_cli cli = {
    .common = UMB_DRIVE_KERNEL,
    .own = own_options,
    .own_parse = own_parse,
    .own_check = own_check,
    .ctx = &cfg,
    .exit_usage = "Exit status: 0 ok, 1 bad input or error, 2 the read check failed, 77 no GPU.",
    .own_usage =
        "What to run:\n"
        "      --factor LIST             factors of free GPU memory, comma-separated (default 0.5); above 1\n"
        "                                is refused unless --allow-oversubscription (never on a shared GPU)\n"
        "      --pattern LIST            grid (grid-stride), block (a contiguous range per block), random\n"
        "                                (each warp 128 B of a random 4 KiB page per step); default all\n"
        "      --mode LIST               demand (on-demand migration), zerocopy (preferred CPU + accessed-by),\n"
        "                                prefetch (accessed-by + one prefetch to the GPU), stripe-4K,\n"
        "                                stripe-64K, stripe-2M (pages round-robin between CPU and GPU,\n"
        "                                the CPU's share (factor - 1) / factor); default all\n"
        "      --steps N                 random: steps per warp (default 64)\n",
};

/* Striping: CPU pages preferred on the CPU and mapped for the GPU, the
   rest preferred on the GPU and prefetched there; runs of GPU pages in
   one call each. */
static void stripe(char *p, size_t bytes, size_t page, double share)
{
    size_t pages = bytes / page, run_start = 0, i;
    for (i = 0; i < pages; i++) {
        if (!umb_oversub_stripe_cpu(share, i)) continue;
        if (i > run_start) {
            umb_gpu_advise(p + run_start * page, (i - run_start) * page, UMB_ADV_PREFERRED_GPU);
            umb_access_prefetch(p + run_start * page, (i - run_start) * page, 0, 1);
        }
        umb_gpu_advise(p + i * page, page, UMB_ADV_PREFERRED_CPU | UMB_ADV_ACCESSED_BY_GPU);
        run_start = i + 1;
    }
    if (pages > run_start) {
        umb_gpu_advise(p + run_start * page, (pages - run_start) * page, UMB_ADV_PREFERRED_GPU);
        umb_access_prefetch(p + run_start * page, (pages - run_start) * page, 0, 1);
    }
}

typedef struct {
    double factor, gibs;
    int pattern, mode;
} result;

static void header(const size_t *bytes, size_t free_b, double peak)
{
    umb_header h;
    char s[512];
    umb_drive_header(&h, &drv, &cli);
    umb_header_num(&h, "hbm_peak_gibs", "Memory peak (GiB/s)", peak / GIB);
    umb_header_num(&h, "free_gib", "Free GPU memory (GiB)", (double)free_b / GIB);
    size_t used = 0;
    for (int i = 0; i < cfg.nfactors; i++)
        used += (size_t)snprintf(s + used, used < sizeof s ? sizeof s - used : 0, "%s%g x free = %zu",
                                 i ? ", " : "", cfg.factors[i], bytes[i]);
    umb_header_str(&h, "sizes", "Sizes (bytes)", "%s", s);
    umb_header_str(&h, "op", "Operation", "%s; grid and block: every byte once; random: %lu steps per warp, 128 B each",
                   drv.op == UMB_OP_READ ? "read" : "write", cfg.steps);
    umb_header_str(&h, "placement", "Placement", "before each pass: all hints cleared, every page prefetched to the host, then the mode's hints and prefetch (Setup column); none of it timed");
    umb_header_str(&h, "timing", "Timing", "CUDA events around the kernel only; GiB/s = bytes the kernel reads or writes / time / 2^30");
    umb_counters_header(&h, "per pass: the kernel's, and the setup's as Place", drv.counters_note);
    size_t most = 0;
    for (int i = 0; i < cfg.nfactors; i++) most = bytes[i] > most ? bytes[i] : most;
    umb_counters_burst_warning(&h, most);
    umb_header_print(&h, drv.format, stdout);
    umb_header_free(&h);
}

/* Every factor's size, checked before anything runs (exit 1). */
static void factor_bytes(size_t free_b, size_t *bytes)
{
    char why[512];
    size_t avail = umb_host_available();
    for (int i = 0; i < cfg.nfactors; i++) {
        bytes[i] = umb_oversub_bytes(cfg.factors[i], free_b);
        if (!bytes[i]) {
            fprintf(stderr, "%s: --factor %g: less than one 2 MiB page of the GPU's %zu free bytes\n", cli.program,
                    cfg.factors[i], free_b);
            exit(UMB_EXIT_USAGE);
        }
        if (umb_oversub_check(bytes[i], free_b, drv.allow_oversub, why, sizeof why) ||
            umb_oversub_host_check(bytes[i], avail, why, sizeof why)) {
            fprintf(stderr, "%s: --factor %g refused: %s\n", cli.program, cfg.factors[i], why);
            exit(UMB_EXIT_USAGE);
        }
    }
}

/* The mode's placement, from pages all on the host; returns its seconds. */
static double place(char *p, size_t size, int m, double factor)
{
    umb_gpu_unadvise(p, size);
    umb_access_prefetch(p, size, 0, 0);   /* every pass starts on the host */
    double t0 = umb_now();
    switch (m) {
    case M_ZEROCOPY:
        umb_gpu_advise(p, size, UMB_ADV_PREFERRED_CPU | UMB_ADV_ACCESSED_BY_GPU);
        break;
    case M_PREFETCH:
        umb_gpu_advise(p, size, UMB_ADV_ACCESSED_BY_GPU);
        umb_access_prefetch(p, size, 0, 1);
        break;
    case M_STRIPE_4K: case M_STRIPE_64K: case M_STRIPE_2M:
        stripe(p, size, stripe_page[m], umb_oversub_cpu_share(factor));
        break;
    default: break;
    }
    return umb_now() - t0;
}

/* One timed pass of pattern x mode over the factor's buffer: its row. */
static result pass(char *p, size_t size, double factor, int pattern, int m, int nres, const umb_output *out)
{
    umb_counters_size_begin(0);  /* --counters: this pass's own counts */
    umb_phase was = umb_counters_enter(UMB_PH_PLACE);
    double setup = place(p, size, m, factor);
    umb_counters_leave(was);
    umb_access a = {.pattern = (umb_pattern)pattern, .op = drv.op, .p = p, .bytes = size, .grid = drv.grid,
                    .block = drv.block, .steps = cfg.steps, .seed = 11 + (unsigned long)nres};
    umb_counters_iteration(0);  /* the pass: measured */
    double t = umb_access_run(&a), moved = umb_access_bytes(&a);
    umb_counts ph[UMB_NPHASES];
    umb_counters_size_end(ph);
    if (a.op == UMB_OP_READ) {
        char what[128];
        snprintf(what, sizeof what, "factor %g, pattern %s, mode %s", factor, umb_pattern_name((umb_pattern)pattern), mode_names[m]);
        umb_fold_compare(&check, what, umb_access_sum(), umb_fold_uniform(umb_access_words(&a), FILL));
    }
    result r = {.factor = factor, .gibs = umb_figures_rate(moved, t, GIB), .pattern = pattern, .mode = m};
    umb_col cols[16];
    int n = 0;
    umb_num_col(&cols[n++], "Factor", "factor", factor, 2);
    umb_text_col(&cols[n++], "Pattern", "pattern", umb_pattern_name((umb_pattern)pattern));
    umb_text_col(&cols[n++], "Mode", "mode", mode_names[m]);
    umb_num_col(&cols[n++], "Bandwidth (GiB/s)", "gibs", r.gibs, 2);
    umb_num_col(&cols[n++], "Kernel (ms)", "kernel_ms", t * 1e3, 3);
    umb_num_col(&cols[n++], "Accessed (bytes)", "accessed_bytes", moved, 0);
    umb_num_col(&cols[n++], "Setup (ms)", "setup_ms", setup * 1e3, 3);
    if (drv.counters) n += umb_counter_cols(cols + n, "", "", "", "", &ph[UMB_PH_MEASURED], &ph[UMB_PH_PLACE], 1.0);
    if (nres == 0) umb_out_columns(out, cols, n);
    umb_out_row(out, size, cols, n, 1);
    return r;
}

/* The sweep: a row per pattern and mode, a column per factor (table and CSV). */
static void sweep(const result *res, int nres)
{
    if (cfg.nfactors < 2 || drv.format == UMB_FMT_JSON) return;
    printf("# Sweep, GiB/s by factor of free GPU memory:\n# %-8s %-11s", "pattern", "mode");
    for (int fi = 0; fi < cfg.nfactors; fi++) printf(" %9g", cfg.factors[fi]);
    printf("\n");
    for (int pi = 0; pi < cfg.npatterns; pi++)
        for (int mi = 0; mi < cfg.nmodes; mi++) {
            printf("# %-8s %-11s", umb_pattern_name((umb_pattern)cfg.patterns[pi]), mode_names[cfg.modes[mi]]);
            for (int k = 0; k < nres; k++)
                if (res[k].pattern == cfg.patterns[pi] && res[k].mode == cfg.modes[mi]) printf(" %9.2f", res[k].gibs);
            printf("\n");
        }
}

int umb_oversub_main(const umb_oversub *d, int argc, char **argv)
{
    char why[512];
    size_t bytes[MAX_FACTORS];
    cli.program = d->program;
    cli.summary = d->summary;
    umb_drive_start(&drv, &cli, argc, argv);  /* exits on -h, -v, bad input, no GPU; GPU chosen */
    size_t free_b = umb_gpu_free_memory();
    factor_bytes(free_b, bytes);
    header(bytes, free_b, umb_access_hbm_peak());

    umb_output out = {.format = drv.format, .program = cli.program, .buffers = "managed", .out = stdout};
    result *res = umb_xmalloc(sizeof *res * (size_t)(cfg.nfactors * cfg.npatterns * cfg.nmodes), "results");
    int nres = 0;
    for (int fi = 0; fi < cfg.nfactors; fi++) {
        size_t size = bytes[fi];
        char *p = umb_gpu_alloc(UMB_MD, size, why, sizeof why);
        if (!p) umb_fatal("cudaMallocManaged", __FILE__, __LINE__, why);
        umb_access_fill(p, size, FILL);   /* populate every page (on the GPU: it fits) */
        umb_drive_corrupt(p, size);       /* the tests' broken word, when asked for */
        for (int pi = 0; pi < cfg.npatterns; pi++)
            for (int mi = 0; mi < cfg.nmodes; mi++, nres++)
                res[nres] = pass(p, size, cfg.factors[fi], cfg.patterns[pi], cfg.modes[mi], nres, &out);
        umb_gpu_free(UMB_MD, p);
    }
    sweep(res, nres);
    int status = umb_drive_end(&drv, &cli, &check);
    free(res);
    return status;
}
