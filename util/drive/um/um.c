/* The um family (um.h): what hints, prefetch and first touch do to a GPU
   kernel reading or writing managed memory. One policy (--advise,
   --prefetch), or with --matrix every combination; each run reported on
   its own, because the first run and later ones differ by up to 100x
   (docs/method.md). */
#include "um.h"
#include "drive.h"   /* access.h, counters.h, fold.h, memkind.h, output.h, parse.h, umb_numa.h */
#include "error.h"
#include "figures.h"
#include "gpu.h"
#include "oversub_rule.h"
#include "residency.h"
#include "sysinfo.h"
#include "um_policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 32
#define MAX_POLICIES 64
#define GIB UMB_GIB
/* --memory: managed (the default), numa-host, pinned, device; short or long names. */
#define KINDS (UMB_KIND_BIT(UMB_M) | UMB_KIND_BIT(UMB_NH) | UMB_KIND_BIT(UMB_P) | UMB_KIND_BIT(UMB_D))

typedef struct {
    size_t size;
    umb_kind mem;            /* UMB_M, UMB_NH, UMB_P or UMB_D */
    int numa_node;           /* -1: the GPU's node */
    policy pol;
    int touch_on_host, matrix, full, advise_given, prefetch_given;
    const char *prefetch_arg, *size_arg;  /* as given, for messages */
} config;

static config cfg = {.size = (size_t)1 << 30, .mem = UMB_M, .numa_node = -1};
static umb_drive drv;        /* --repeat (the runs), --device, --op, --grid, --block, --format, -U, ... */
static umb_fold_check check; /* every read run's sum against what was written (fold.h) */
#define FILL 1               /* the byte first written; --touch-on-host writes 1 + run before run 2, 3, ... */

enum { O_SIZE = 1000, O_RUNS, O_MEMORY, O_NUMA, O_ADVISE, O_PREFETCH, O_TOUCH, O_MATRIX };

static int own_parse(void *ctx, int val, const char *name, const char *a, char *err, size_t n)
{
    config *c = ctx;
    char kinds[160];
    long v;
    (void)name;
    switch (val) {
    case O_SIZE:
        c->size_arg = a;
        if (umb_parse_bytes(a, &c->size) || c->size < 4096 || c->size % 4096 || c->size > UMB_DRIVE_MAX_SIZE)
            return umb_errf(err, n, "--size %s: expected a multiple of 4K from 4K to %zu (1 PiB; K, M, G suffixes), e.g. 1G", a,
                            UMB_DRIVE_MAX_SIZE);
        return 0;
    case O_RUNS: return umb_errf(err, n, "--runs: renamed --repeat");
    case O_MEMORY:
        umb_kind_list(KINDS, kinds, sizeof kinds);
        if (umb_kind_parse(a, KINDS, &c->mem)) return umb_errf(err, n, "--memory %s: accepted: %s", a, kinds);
        if (c->mem == UMB_NH && !umb_numa_built())
            return umb_errf(err, n, "--memory %s: this build has no libnuma (configure --with-numa); use managed, pinned or device", a);
        return 0;
    case O_NUMA:
        if (umb_parse_long(a, 0, 4095, &v)) return umb_errf(err, n, "--numa-node %s: expected a NUMA node number from 0 to 4095", a);
        c->numa_node = (int)v;
        return 0;
    case O_ADVISE:
        c->advise_given = 1;
        return umb_advise_parse(a, &c->pol.advise, err, n);
    case O_PREFETCH:
        c->prefetch_given = 1;
        c->prefetch_arg = a;
        return um_prefetch_parse(a, &c->pol, err, n);
    case O_TOUCH: c->touch_on_host = 1; return 0;
    case O_MATRIX: c->matrix = 1; return 0;
    case 'f': c->full = 1; return 0;
    }
    return 1;
}

/* The options together, before any GPU is looked for. */
static int own_check(void *ctx, char *err, size_t n)
{
    const config *c = ctx;
    if (c->mem != UMB_M && (c->advise_given || c->prefetch_given || c->matrix))
        return umb_errf(err, n, "--memory %s: --advise, --prefetch and --matrix need --memory managed", umb_kind_long(c->mem));
    if (c->matrix && (c->advise_given || c->prefetch_given))
        return umb_errf(err, n, "--matrix runs every --advise and --prefetch combination: give neither");
    if (c->mem == UMB_D && c->touch_on_host)
        return umb_errf(err, n, "--touch-on-host: --memory device cannot be written by the CPU; use managed, numa-host or pinned");
    if (c->numa_node >= 0 && c->mem != UMB_NH)
        return umb_errf(err, n, "--numa-node %d: only --memory numa-host is allocated on a chosen node", c->numa_node);
    if (c->pol.prefetch == PF_BLOCKS && c->pol.chunk > c->size)
        return umb_errf(err, n, "--prefetch %s: a block is larger than --size %s", c->prefetch_arg,
                        c->size_arg ? c->size_arg : "1G");
    return 0;
}

static const struct option own_options[] = {
    {"size", required_argument, 0, O_SIZE}, {"runs", optional_argument, 0, O_RUNS},
    {"memory", required_argument, 0, O_MEMORY}, {"numa-node", required_argument, 0, O_NUMA},
    {"advise", required_argument, 0, O_ADVISE}, {"prefetch", required_argument, 0, O_PREFETCH},
    {"touch-on-host", no_argument, 0, O_TOUCH}, {"matrix", no_argument, 0, O_MATRIX},
    {"full", no_argument, 0, 'f'}, {0, 0, 0, 0}};

/* The program's name, summary and --repeat default come from its descriptor. */
static umb_drive_cli cli = {
    .common = UMB_DRIVE_REPEAT | UMB_DRIVE_KERNEL,
    .repeat_max = MAX_RUNS,
    .own = own_options, .own_short = "f", .own_parse = own_parse, .own_check = own_check, .ctx = &cfg,
    .exit_usage = "Exit status: 0 ok, 1 bad input or error, 2 the read check failed, 77 no GPU.",
    .own_usage =
        "What to run:\n"
        "      --size BYTES              buffer size, a multiple of 4K up to 2^50 (K, M, G; default 1G)\n"
        "      --memory KIND             M|managed (default), NH|numa-host (numa_alloc_onnode, registered),\n"
        "                                P|pinned (cudaMallocHost), D|device (cudaMalloc)\n"
        "      --numa-node N             node of numa-host memory (default: the GPU's node)\n"
        "      --advise LIST             managed only: accessed-by[=gpu|cpu] (alone: gpu), read-mostly,\n"
        "                                preferred=cpu|gpu, none, comma-separated, set right after allocation\n"
        "      --prefetch P              managed only: none (default), whole (one cudaMemPrefetchAsync),\n"
        "                                blocks:SIZE (SIZE chunks on two alternating streams); before\n"
        "                                every run, timed on its own, never inside the kernel's time\n"
        "      --touch-on-host           the CPU writes every byte before each run after the first\n"
        "      --matrix                  every advice x prefetch combination (managed), a row each,\n"
        "                                then the fastest policy for one pass and for repeated passes\n"
        "  -f, --full                    every column in the table: prefetch times, host shares, all counters\n",
};

typedef struct {
    policy pol;
    double kernel_s[MAX_RUNS], prefetch_s[MAX_RUNS];
    umb_counts moved[MAX_RUNS], prefetched[MAX_RUNS];  /* --counters: the kernel, the prefetch */
    double host_pct[MAX_RUNS];  /* managed pages on the host as the kernel starts (pagemap; NaN: unknown) */
} result;

/* A fresh buffer of the kind asked for, with the policy's advice and the
   first touch: the pointer the kernel uses. *host: numa-host's pages. */
static void *buffer_alloc(const policy *pol, int numa_node, void **host)
{
    char why[512] = "";
    size_t size = cfg.size;
    void *p = cfg.mem == UMB_NH ? umb_host_alloc(size, numa_node)  /* numa_alloc_onnode */
                                : umb_gpu_alloc(cfg.mem, size, why, sizeof why);
    if (!p && cfg.mem == UMB_NH) snprintf(why, sizeof why, "numa_alloc_onnode of %zu bytes on node %d failed", size, numa_node);
    if (!p) umb_fatal(cfg.mem == UMB_NH ? "umb_host_alloc" : "umb_gpu_alloc", __FILE__, __LINE__, why);
    if (cfg.mem == UMB_M && pol->advise) umb_gpu_advise(p, size, pol->advise);
    if (cfg.mem == UMB_D) umb_access_fill(p, size, FILL);
    else umb_host_write(p, size, FILL);  /* first touch on the host; numa-host: the pages land on the node */
    *host = cfg.mem == UMB_NH ? p : NULL;
    void *d = cfg.mem == UMB_NH ? umb_access_register(p, size) : p;
    umb_drive_corrupt(d, size);  /* the tests' broken word, when asked for */
    return d;
}

static void buffer_free(void *p, void *host, int numa_node)
{
    if (cfg.mem == UMB_NH) {
        umb_access_unregister(host);
        umb_host_free(host, cfg.size, numa_node);
    } else {
        umb_gpu_free(cfg.mem, p);
    }
}

/* One policy: a fresh buffer, advice, first touch, then the runs. */
static void run_policy(const policy *pol, int numa_node, result *r)
{
    void *host, *p = buffer_alloc(pol, numa_node, &host);
    size_t size = cfg.size;
    umb_access a = {.pattern = UMB_PAT_GRID, .op = drv.op, .p = p, .bytes = size,
                    .grid = drv.grid, .block = drv.block, .seed = 7};
    r->pol = *pol;
    for (int i = 0; i < drv.repeat; i++) {
        umb_counters_size_begin(0);  /* --counters: this run's own counts */
        umb_phase was = umb_counters_enter(UMB_PH_CHECK);  /* host writes: not reported */
        if (i > 0 && cfg.touch_on_host) umb_host_write(host ? host : p, size, 1 + i);
        umb_counters_leave(was);
        r->prefetch_s[i] = 0;
        was = umb_counters_enter(UMB_PH_PLACE);
        if (pol->prefetch != PF_NONE)
            r->prefetch_s[i] = umb_access_prefetch(p, size, pol->prefetch == PF_BLOCKS ? pol->chunk : 0, 1);
        umb_counters_leave(was);
        /* Where the policy left the pages, read without touching them. */
        long present = cfg.mem == UMB_M ? umb_host_pages(p, size) : -1;
        r->host_pct[i] = present < 0 ? NAN : 100.0 * (double)present / (double)umb_pages_spanned(p, size);
        a.seed = 7 + (unsigned long)i;
        umb_counters_iteration(0);  /* the kernel: measured */
        r->kernel_s[i] = umb_access_run(&a);
        umb_counts ph[UMB_NPHASES];
        umb_counters_size_end(ph);
        if (a.op == UMB_OP_READ) {
            char what[128], adv[32], pf[32];
            um_advice_label(pol->advise, adv, sizeof adv);
            um_prefetch_label(pol, pf, sizeof pf);
            snprintf(what, sizeof what, "run %d (advice %s, prefetch %s)", i + 1, adv, pf);
            int byte = i > 0 && cfg.touch_on_host ? FILL + i : FILL;
            umb_fold_compare(&check, what, umb_access_sum(), umb_fold_uniform(umb_access_words(&a), (uint8_t)byte));
        }
        r->moved[i] = ph[UMB_PH_MEASURED];
        r->prefetched[i] = ph[UMB_PH_PLACE];
    }
    buffer_free(p, host, numa_node);
}

/* show_pf: the prefetch-time columns ("-" for a policy without prefetch). */
static int columns(const result *r, umb_col *cols, int show_pf)
{
    char adv[32], pf[32], title[32], key[32];
    int n = 0, managed = cfg.mem == UMB_M;
    um_advice_label(r->pol.advise, adv, sizeof adv);
    um_prefetch_label(&r->pol, pf, sizeof pf);
    umb_text_col(&cols[n++], "Memory", "memory", umb_kind_long(cfg.mem));
    umb_text_col(&cols[n++], "Advice", "advice", managed ? adv : "-");
    umb_text_col(&cols[n++], "Prefetch", "prefetch", managed ? pf : "-");
    for (int i = 0; i < drv.repeat; i++) {
        snprintf(title, sizeof title, "Run %d (GiB/s)", i + 1);
        snprintf(key, sizeof key, "run%d_gibs", i + 1);
        umb_num_col(&cols[n++], title, key, umb_figures_rate((double)cfg.size, r->kernel_s[i], GIB), 2);
    }
    for (int i = 0; i < drv.repeat && drv.counters; i++) {
        snprintf(title, sizeof title, "R%d ", i + 1);
        snprintf(key, sizeof key, "run%d_", i + 1);
        int m = umb_counter_cols(cols + n, title, "", key, "", &r->moved[i], &r->prefetched[i], 1.0);
        for (int j = 2; j < m; j++) cols[n + j].full_only = 1;  /* the table: HtoD and DtoH; -f: all */
        n += m;
    }
    for (int i = 0; i < drv.repeat; i++) {
        snprintf(title, sizeof title, "Host %% %d", i + 1);
        snprintf(key, sizeof key, "run%d_host_pct", i + 1);
        umb_num_col(&cols[n], title, key, r->host_pct[i], 1);
        cols[n++].full_only = 1;
    }
    for (int i = 0; i < drv.repeat && show_pf; i++) {
        snprintf(title, sizeof title, "Prefetch %d (ms)", i + 1);
        snprintf(key, sizeof key, "prefetch%d_ms", i + 1);
        if (r->pol.prefetch == PF_NONE) umb_text_col(&cols[n], title, key, "-");
        else umb_num_col(&cols[n], title, key, r->prefetch_s[i] * 1e3, 3);
        cols[n++].full_only = 1;
    }
    return n;
}

/* A pass as the user pays for it: prefetch plus kernel. */
static double pass_rate(const result *r, int i)
{
    return umb_figures_rate((double)cfg.size, r->kernel_s[i] + r->prefetch_s[i], GIB);
}

static double repeated_rate(const result *r)
{
    double t = 0;
    for (int i = 1; i < drv.repeat; i++) t += r->kernel_s[i] + r->prefetch_s[i];
    return umb_figures_rate((double)cfg.size * (double)(drv.repeat - 1), t, GIB);
}

/* --matrix: the fastest policy for a single pass (run 1) and for repeated
   passes (runs 2 to N), each against plain demand paging (res[0]: no
   advice, no prefetch), as rows of their own. */
static void summary(const result *res, int n, const umb_output *out)
{
    int best[2] = {0, 0}, kinds = drv.repeat > 1 ? 2 : 1;
    for (int i = 1; i < n; i++) {
        if (pass_rate(&res[i], 0) > pass_rate(&res[best[0]], 0)) best[0] = i;
        if (drv.repeat > 1 && repeated_rate(&res[i]) > repeated_rate(&res[best[1]])) best[1] = i;
    }
    for (int k = 0; k < kinds; k++) {
        const result *b = &res[best[k]];
        char adv[32], pf[32];
        umb_col cols[6];
        um_advice_label(b->pol.advise, adv, sizeof adv);
        um_prefetch_label(&b->pol, pf, sizeof pf);
        double rate = k ? repeated_rate(b) : pass_rate(b, 0), base = k ? repeated_rate(&res[0]) : pass_rate(&res[0], 0);
        umb_text_col(&cols[0], "Fastest for", "fastest_for", k ? "repeated" : "single");
        umb_text_col(&cols[1], "Advice", "advice", adv);
        umb_text_col(&cols[2], "Prefetch", "prefetch", pf);
        umb_num_col(&cols[3], "Pass (GiB/s)", "gibs", rate, 2);
        umb_num_col(&cols[4], "Demand (GiB/s)", "demand_gibs", base, 2);
        umb_num_col(&cols[5], "Speedup", "speedup", rate / base, 2);
        if (k == 0) umb_out_columns(out, cols, 6);
        umb_out_row(out, cfg.size, cols, 6, 1);
    }
}

static void header(int numa_node, size_t free_b, double peak)
{
    umb_header h;
    char s[512], t[256];
    umb_drive_header(&h, &drv, &cli);
    umb_header_num(&h, "hbm_peak_gibs", "Memory peak (GiB/s)", peak / GIB);
    umb_header_num(&h, "free_gib", "Free GPU memory (GiB)", (double)free_b / GIB);
    if (cfg.mem == UMB_NH)
        umb_header_str(&h, "memory", "Memory", "numa-host: numa_alloc_onnode on node %d, registered with cudaHostRegister (mapped); the GPU reads it over PCIe", numa_node);
    else
        umb_header_str(&h, "memory", "Memory", "%s", umb_kind_long(cfg.mem));
    umb_header_str(&h, "size", "Size", "%zu bytes", cfg.size);
    umb_header_str(&h, "op", "Operation", "%s every byte: grid-stride, 16 B per thread per step", drv.op == UMB_OP_READ ? "read" : "write");
    if (cfg.mem == UMB_M && !cfg.matrix) {
        umb_advise_string(cfg.pol.advise, s, sizeof s);
        um_prefetch_label(&cfg.pol, t, sizeof t);
        umb_header_str(&h, "policy", "Policy", "advice %s; prefetch %s", s, t);
    }
    if (cfg.matrix) {
        umb_header_str(&h, "policy", "Policy", "--matrix: every advice (AB accessed-by GPU, RM read-mostly, P= preferred location) x prefetch (none, whole, blocks)");
        umb_header_str(&h, "summary", "Summary", "after the policies, two rows with fastest_for: the fastest policy for a single pass (run 1) and for repeated passes (runs 2 to N), prefetch time included, against plain demand paging (advice none, prefetch none)");
    }
    umb_header_str(&h, "touch", "Between runs", "%s", cfg.touch_on_host ? "the CPU writes every byte (device copies evicted)" : "nothing");
    umb_header_str(&h, "timing", "Timing", "CUDA events around each run's kernel only; allocation, advice, first touch, host writes and prefetch are outside it (prefetch timed on its own); GiB/s = bytes / time / 2^30");
    umb_counters_header(&h, "per run: the kernel's, and the prefetch's as Place", drv.counters_note);
    umb_counters_burst_warning(&h, cfg.size);
    umb_header_print(&h, drv.format, stdout);
    umb_header_free(&h);
}

/* Before anything runs (exit 1 when not): numa-host's node, the one asked
   for or the GPU's (else 0), exists; --size fits on the GPU (managed:
   unless --allow-oversubscription) and in host memory. Returns the node. */
static int check_run(size_t free_b)
{
    char why[512];
    umb_gpu_desc d;
    int node = cfg.numa_node, bad = 0;
    if (cfg.mem == UMB_NH && node < 0) {
        umb_gpu_describe(drv.device, &d);
        node = umb_pci_numa_node(d.pci_bus) >= 0 ? umb_pci_numa_node(d.pci_bus) : 0;
    }
    if (cfg.mem == UMB_NH && umb_numa_node_check(node, why, sizeof why)) {
        if (cfg.numa_node >= 0) fprintf(stderr, "%s: --numa-node %d: %s\n", cli.program, node, why);
        else fprintf(stderr, "%s: --memory numa-host (node %d, the GPU's): %s\n", cli.program, node, why);
        exit(UMB_EXIT_USAGE);
    }
    if (cfg.mem == UMB_M) {
        bad = umb_oversub_check(cfg.size, free_b, drv.allow_oversub, why, sizeof why) != 0;
    } else if (cfg.mem == UMB_D && cfg.size > free_b) {
        snprintf(why, sizeof why, "--memory device needs %zu bytes of GPU memory, %zu are free", cfg.size, free_b);
        bad = 1;
    }
    if (!bad && cfg.mem != UMB_D) bad = umb_oversub_host_check(cfg.size, umb_host_available(), why, sizeof why) != 0;
    if (bad) {
        fprintf(stderr, "%s: --size %s refused: %s\n", cli.program, cfg.size_arg ? cfg.size_arg : "1G (default)", why);
        exit(UMB_EXIT_USAGE);
    }
    return cfg.mem == UMB_NH ? node : -1;
}

/* The policy asked for, or --matrix's. */
static int policies(policy *pols)
{
    if (!cfg.matrix) {
        pols[0] = cfg.pol;
        return 1;
    }
    um_matrix(cfg.size, pols);
    return UM_MATRIX;
}

int umb_um_main(const umb_um *p, int argc, char **argv)
{
    cli.program = p->program;
    cli.summary = p->summary;
    cli.repeat = p->repeat;
    umb_drive_start(&drv, &cli, argc, argv);  /* exits on -h, -v, bad input, no GPU; GPU chosen */
    size_t free_b = umb_gpu_free_memory();
    int numa_node = check_run(free_b);
    header(numa_node, free_b, umb_access_hbm_peak());

    policy pols[MAX_POLICIES];
    int npol = policies(pols);
    umb_output out = {.format = drv.format, .full = cfg.full, .validate = 0, .program = cli.program,
                      .buffers = umb_kind_long(cfg.mem), .out = stdout};
    result *res = umb_xmalloc(sizeof *res * (size_t)npol, "results");
    umb_col cols[3 + 11 * MAX_RUNS];  /* per run: rate, 8 counters, prefetch, host % */
    int show_pf = cfg.matrix || cfg.pol.prefetch != PF_NONE;
    for (int i = 0; i < npol; i++) {
        run_policy(&pols[i], numa_node, &res[i]);
        int ncols = columns(&res[i], cols, show_pf);
        if (i == 0) umb_out_columns(&out, cols, ncols);
        umb_out_row(&out, cfg.size, cols, ncols, 1);
    }
    if (cfg.matrix) summary(res, npol, &out);
    int status = umb_drive_end(&drv, &cli, &check);
    free(res);
    return status;
}
