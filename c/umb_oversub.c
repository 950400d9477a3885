/* umb_oversub: access pattern x memory mode x oversubscription factor.
   One managed allocation of factor x free GPU memory per factor; for each
   pattern and mode the pages start on the host, the mode's hints and
   prefetch are applied, then one timed pass (docs/method.md). */
#include "access.h"
#include "error.h"
#include "gpu.h"
#include "memkind.h"
#include "parse.h"
#include "output.h"
#include "clock.h"
#include "counters.h"
#include "drive.h"
#include "oversub.h"
#include "sysinfo.h"

#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM "umb_oversub"
#define MAX_FACTORS 16
#define GIB 1073741824.0

typedef enum { M_DEMAND, M_ZEROCOPY, M_PREFETCH, M_STRIPE_4K, M_STRIPE_64K, M_STRIPE_2M, NMODES } mode;
static const char *mode_names[NMODES] = {"demand", "zerocopy", "prefetch", "stripe-4K", "stripe-64K", "stripe-2M"};
static const size_t stripe_page[NMODES] = {0, 0, 0, 4096, 65536, 2097152};

typedef struct {
    double factors[MAX_FACTORS];
    int nfactors;
    int patterns[UMB_NPATTERNS], npatterns;
    int modes[NMODES], nmodes;
    umb_op op;
    unsigned long steps;
    umb_kernel_opts k;       /* --device, --grid, --block, --format, -U, ... */
} config;

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: " PROGRAM " [options]\n"
        "One GPU pass over managed memory of FACTOR x free GPU memory, per access pattern and memory mode.\n"
        "  --factor LIST           factors of free GPU memory, comma-separated (default 0.5); above 1\n"
        "                          is refused unless --allow-oversubscription (never on a shared GPU)\n"
        "  --pattern LIST          grid (grid-stride), block (a contiguous range per block), random\n"
        "                          (each warp 128 B of a random 4 KiB page per step); default all\n"
        "  --mode LIST             demand (on-demand migration), zerocopy (preferred CPU + accessed-by),\n"
        "                          prefetch (accessed-by + one prefetch to the GPU), stripe-4K,\n"
        "                          stripe-64K, stripe-2M (pages round-robin between CPU and GPU,\n"
        "                          the CPU's share (factor - 1) / factor); default all\n"
        "  --op read|write         what the kernel does (default read)\n"
        "  --steps N               random: steps per warp (default 64)\n"
        "  --device N              GPU N (default 0)\n"
        "  --grid N, --block N     kernel shape (default: full occupancy, 256 threads)\n"
        "  --format table|csv|json output format (default table)\n"
        "  -U, --counters          per pass: bytes migrated, GPU and CPU faults (CUPTI), setup apart\n"
        "  --allow-oversubscription  allow factors whose size exceeds free GPU memory\n"
        "  -h, --help / -v, --version\n");
}

/* A comma-separated list of names; each index at most once. */
static int parse_names(const char *list, const char *const *names, int nnames, int *out, int *n)
{
    char copy[256];
    unsigned seen = 0;
    *n = 0;
    if (!*list || strlen(list) >= sizeof copy) return -1;
    strcpy(copy, list);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = -1;
        for (int i = 0; i < nnames; i++)
            if (!strcmp(t, names[i])) k = i;
        if (k < 0 || (seen & (1u << k))) return -1;
        seen |= 1u << k;
        out[(*n)++] = k;
    }
    return *n ? 0 : -1;
}

enum { O_FACTOR = 1000, O_PATTERN, O_MODE, O_OP, O_STEPS };

static int parse(config *c, int argc, char **argv, char *err, size_t n)
{
    static const struct option opts[] = {
        {"factor", required_argument, 0, O_FACTOR}, {"pattern", required_argument, 0, O_PATTERN},
        {"mode", required_argument, 0, O_MODE}, {"op", required_argument, 0, O_OP},
        {"steps", required_argument, 0, O_STEPS}, UMB_KERNEL_OPTIONS, {0, 0, 0, 0}};
    static const char *const pattern_names[] = {"grid", "block", "random"};
    char badv[64];
    int ch;
    long v;
    memset(c, 0, sizeof *c);
    c->factors[0] = 0.5;
    c->nfactors = 1;
    for (int i = 0; i < UMB_NPATTERNS; i++) c->patterns[i] = i;
    c->npatterns = UMB_NPATTERNS;
    for (int i = 0; i < NMODES; i++) c->modes[i] = i;
    c->nmodes = NMODES;
    c->steps = 64;
    opterr = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":hvU", opts, NULL)) != -1) {
        const char *a = optarg;
        switch (ch) {
        case O_FACTOR:
            c->nfactors = umb_oversub_parse_factors(a, c->factors, MAX_FACTORS, badv, sizeof badv);
            if (c->nfactors < 0) {
                snprintf(err, n, "--factor %s: '%s' is not a factor; expected up to %d numbers above 0 and at most 64, comma-separated, e.g. 0.1,0.5,0.9",
                         a, badv, MAX_FACTORS);
                return 1;
            }
            break;
        case O_PATTERN:
            if (parse_names(a, pattern_names, UMB_NPATTERNS, c->patterns, &c->npatterns)) {
                snprintf(err, n, "--pattern %s: expected grid, block or random, comma-separated, each once", a);
                return 1;
            }
            break;
        case O_MODE:
            if (parse_names(a, mode_names, NMODES, c->modes, &c->nmodes)) {
                snprintf(err, n, "--mode %s: expected demand, zerocopy, prefetch, stripe-4K, stripe-64K or stripe-2M, comma-separated, each once", a);
                return 1;
            }
            break;
        case O_OP:
            if (!strcmp(a, "read")) c->op = UMB_OP_READ;
            else if (!strcmp(a, "write")) c->op = UMB_OP_WRITE;
            else {
                snprintf(err, n, "--op %s: expected read or write", a);
                return 1;
            }
            break;
        case O_STEPS:
            if (umb_parse_long(a, 1, 1L << 20, &v)) {
                snprintf(err, n, "--steps %s: expected a whole number from 1 to 1048576", a);
                return 1;
            }
            c->steps = (unsigned long)v;
            break;
        default: {
            int r = umb_kernel_opt(&c->k, ch, a, argv[optind - 1], err, n);
            if (r) return r;
        }
        }
    }
    if (optind < argc) {
        snprintf(err, n, "unexpected argument '%s': " PROGRAM " takes options only (see --help)", argv[optind]);
        return 1;
    }
    return 0;
}

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

static void header(const config *c, const size_t *bytes, size_t free_b, double peak)
{
    umb_header h;
    char s[512];
    umb_drive_own_header(&h, PROGRAM, "access pattern x memory mode x oversubscription factor", c->k.device);
    umb_header_num(&h, "hbm_peak_gibs", "Memory peak (GiB/s)", peak / GIB);
    umb_header_num(&h, "free_gib", "Free GPU memory (GiB)", (double)free_b / GIB);
    size_t used = 0;
    for (int i = 0; i < c->nfactors; i++)
        used += (size_t)snprintf(s + used, used < sizeof s ? sizeof s - used : 0, "%s%g x free = %zu",
                                 i ? ", " : "", c->factors[i], bytes[i]);
    umb_header_str(&h, "sizes", "Sizes (bytes)", "%s", s);
    umb_header_str(&h, "op", "Operation", "%s; grid and block: every byte once; random: %lu steps per warp, 128 B each",
                   c->op == UMB_OP_READ ? "read" : "write", c->steps);
    umb_header_str(&h, "placement", "Placement", "before each pass: all hints cleared, every page prefetched to the host, then the mode's hints and prefetch (Setup column); none of it timed");
    umb_header_str(&h, "timing", "Timing", "CUDA events around the kernel only; GiB/s = bytes the kernel reads or writes / time / 2^30");
    umb_counters_header(&h, "per pass: the kernel's, and the setup's as Place", c->k.counters_note);
    size_t most = 0;
    for (int i = 0; i < c->nfactors; i++) most = bytes[i] > most ? bytes[i] : most;
    umb_counters_burst_warning(&h, most);
    umb_header_print(&h, c->k.format, stdout);
    umb_header_free(&h);
}

int main(int argc, char **argv)
{
    config c;
    char err[512], why[512];
    int rc = parse(&c, argc, argv, err, sizeof err);
    umb_drive_own_start(PROGRAM, rc, err, usage, &c.k);

    /* Every factor is checked before anything runs. */
    size_t free_b = umb_gpu_free_memory(), avail = umb_host_available(), bytes[MAX_FACTORS];
    for (int i = 0; i < c.nfactors; i++) {
        bytes[i] = umb_oversub_bytes(c.factors[i], free_b);
        if (!bytes[i]) {
            fprintf(stderr, PROGRAM ": --factor %g: less than one 2 MiB page of the GPU's %zu free bytes\n",
                    c.factors[i], free_b);
            return UMB_EXIT_USAGE;
        }
        if (umb_oversub_check(bytes[i], free_b, c.k.allow_oversub, why, sizeof why) ||
            umb_oversub_host_check(bytes[i], avail, why, sizeof why)) {
            fprintf(stderr, PROGRAM ": --factor %g refused: %s\n", c.factors[i], why);
            return UMB_EXIT_USAGE;
        }
    }
    header(&c, bytes, free_b, umb_access_hbm_peak());

    umb_output out = {.format = c.k.format, .program = PROGRAM, .buffers = "managed", .out = stdout};
    result *res = umb_xmalloc(sizeof *res * (size_t)(c.nfactors * c.npatterns * c.nmodes), "results");
    int nres = 0;
    for (int fi = 0; fi < c.nfactors; fi++) {
        size_t size = bytes[fi];
        char *p = umb_gpu_alloc(UMB_MD, size, why, sizeof why);
        if (!p) umb_fatal("cudaMallocManaged", __FILE__, __LINE__, why);
        umb_gpu_fill(p, size, 3);   /* populate every page (on the GPU: it fits) */
        for (int pi = 0; pi < c.npatterns; pi++)
            for (int mi = 0; mi < c.nmodes; mi++) {
                int m = c.modes[mi];
                umb_counters_size_begin(0);  /* --counters: this pass's own counts */
                umb_phase was = umb_counters_enter(UMB_PH_PLACE);
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
                    stripe(p, size, stripe_page[m], umb_oversub_cpu_share(c.factors[fi]));
                    break;
                default: break;
                }
                double setup = umb_now() - t0;
                umb_counters_leave(was);
                umb_access a = {.pattern = (umb_pattern)c.patterns[pi], .op = c.op, .p = p, .bytes = size,
                                .grid = c.k.grid, .block = c.k.block, .steps = c.steps,
                                .seed = 11 + (unsigned long)nres};
                umb_counters_iteration(0);  /* the pass: measured */
                double t = umb_access_run(&a), moved = umb_access_bytes(&a);
                umb_counts ph[UMB_NPHASES];
                umb_counters_size_end(ph);
                result *r = &res[nres++];
                *r = (result){.factor = c.factors[fi], .gibs = moved / t / GIB, .pattern = c.patterns[pi], .mode = m};
                umb_col cols[16];
                int n = 0;
                umb_num_col(&cols[n++], "Factor", "factor", c.factors[fi], 2);
                umb_text_col(&cols[n++], "Pattern", "pattern", umb_pattern_name((umb_pattern)c.patterns[pi]));
                umb_text_col(&cols[n++], "Mode", "mode", mode_names[m]);
                umb_num_col(&cols[n++], "Bandwidth (GiB/s)", "gibs", r->gibs, 2);
                umb_num_col(&cols[n++], "Kernel (ms)", "kernel_ms", t * 1e3, 3);
                umb_num_col(&cols[n++], "Accessed (bytes)", "accessed_bytes", moved, 0);
                umb_num_col(&cols[n++], "Setup (ms)", "setup_ms", setup * 1e3, 3);
                if (c.k.counters) n += umb_counter_cols(cols + n, "", "", "", "", &ph[UMB_PH_MEASURED], &ph[UMB_PH_PLACE], 1.0);
                if (nres == 1) umb_out_columns(&out, cols, n);
                umb_out_row(&out, size, cols, n, 1);
            }
        umb_gpu_free(UMB_MD, p);
    }

    /* The sweep: a row per pattern and mode, a column per factor. */
    if (c.nfactors > 1 && c.k.format != UMB_FMT_JSON) {
        printf("# Sweep, GiB/s by factor of free GPU memory:\n# %-8s %-11s", "pattern", "mode");
        for (int fi = 0; fi < c.nfactors; fi++) printf(" %9g", c.factors[fi]);
        printf("\n");
        for (int pi = 0; pi < c.npatterns; pi++)
            for (int mi = 0; mi < c.nmodes; mi++) {
                printf("# %-8s %-11s", umb_pattern_name((umb_pattern)c.patterns[pi]), mode_names[c.modes[mi]]);
                for (int k = 0; k < nres; k++)
                    if (res[k].pattern == c.patterns[pi] && res[k].mode == c.modes[mi]) printf(" %9.2f", res[k].gibs);
                printf("\n");
            }
    }
    if (c.k.format == UMB_FMT_JSON)
        printf("{\"type\":\"checksum\",\"program\":\"" PROGRAM "\",\"xor\":\"%016llx\"}\n", umb_access_checksum());
    else
        printf("# Checksum (XOR of every word read): %016llx\n", umb_access_checksum());
    umb_counters_footer(c.k.format, stdout);
    free(res);
    return 0;
}
