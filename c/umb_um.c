/* umb_um: what hints, prefetch and first touch do to a GPU kernel reading
   or writing managed memory. One policy (--advise, --prefetch), or with
   --matrix every combination; each run reported on its own, because the
   first run and later ones differ by up to 100x (docs/method.md). */
#include "access.h"
#include "error.h"
#include "gpu.h"
#include "memkind.h"
#include "parse.h"
#include "output.h"
#include "residency.h"
#include "counters.h"
#include "drive.h"
#include "oversub.h"
#include "sysinfo.h"

#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_NUMA
#include <numa.h>
#endif

#define PROGRAM "umb_um"
#define MAX_RUNS 32
#define MAX_POLICIES 64
#define GIB 1073741824.0

typedef enum { MEM_MANAGED, MEM_NUMA_HOST, MEM_PINNED, MEM_DEVICE } memory;
static const char *memory_names[] = {"managed", "numa-host", "pinned", "device"};

typedef enum { PF_NONE, PF_WHOLE, PF_BLOCKS } prefetch_kind;

typedef struct {
    unsigned advise;
    prefetch_kind prefetch;
    size_t chunk;            /* PF_BLOCKS: bytes per prefetch call */
} policy;

typedef struct {
    size_t size;
    umb_op op;
    int runs;
    memory mem;
    int numa_node;           /* -1: the GPU's node */
    policy pol;
    int touch_on_host, matrix, full;
    umb_kernel_opts k;       /* --device, --grid, --block, --format, -U, ... */
    const char *prefetch_arg, *size_arg;  /* as given, for messages */
} config;

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: " PROGRAM " [options]\n"
        "A GPU kernel reads or writes one buffer --runs times; each run is reported on its own.\n"
        "  --size BYTES            buffer size, a multiple of 4K (K, M, G suffixes; default 1G)\n"
        "  --op read|write         what the kernel does to every byte (default read)\n"
        "  --runs N                kernel runs, each timed and reported (1-%d, default 3)\n"
        "  --memory KIND           managed (default), numa-host (numa_alloc_onnode, registered),\n"
        "                          pinned (cudaMallocHost), device (cudaMalloc)\n"
        "  --numa-node N           node of numa-host memory (default: the GPU's node)\n"
        "  --advise LIST           managed only: accessed-by, read-mostly, preferred=cpu|gpu, none,\n"
        "                          comma-separated, set right after allocation\n"
        "  --prefetch P            managed only: none (default), whole (one cudaMemPrefetchAsync),\n"
        "                          blocks:SIZE (SIZE chunks on two alternating streams); before\n"
        "                          every run, timed on its own, never inside the kernel's time\n"
        "  --touch-on-host         the CPU writes every byte before each run after the first\n"
        "  --matrix                every advice x prefetch combination (managed), a row each,\n"
        "                          then the fastest policy for one pass and for repeated passes\n"
        "  --device N              GPU N (default 0)\n"
        "  --grid N, --block N     kernel shape (default: full occupancy, 256 threads)\n"
        "  --format table|csv|json output format (default table)\n"
        "  -f, --full              add each run's prefetch time to the table\n"
        "  -U, --counters          per run: bytes migrated, GPU and CPU faults (CUPTI), prefetch apart\n"
        "  --allow-oversubscription  allow managed memory above the GPU's free memory\n"
        "  -h, --help / -v, --version\n", MAX_RUNS);
}

static int bad(char *err, size_t n, const char *fmt, const char *arg)
{
    snprintf(err, n, fmt, arg);
    return 1;
}

static int parse_advise(const char *arg, unsigned *out)
{
    char copy[256];
    unsigned a = 0;
    if (strlen(arg) >= sizeof copy || !*arg) return -1;
    strcpy(copy, arg);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "accessed-by") || !strcmp(t, "accessed-by=gpu")) a |= UMB_ADV_ACCESSED_BY_GPU;
        else if (!strcmp(t, "read-mostly")) a |= UMB_ADV_READ_MOSTLY;
        else if (!strcmp(t, "preferred=cpu")) a |= UMB_ADV_PREFERRED_CPU;
        else if (!strcmp(t, "preferred=gpu")) a |= UMB_ADV_PREFERRED_GPU;
        else if (strcmp(t, "none")) return -1;
    }
    if ((a & UMB_ADV_PREFERRED_CPU) && (a & UMB_ADV_PREFERRED_GPU)) return -1;
    *out = a;
    return 0;
}

static int parse_prefetch(const char *arg, policy *p)
{
    if (!strcmp(arg, "none")) p->prefetch = PF_NONE;
    else if (!strcmp(arg, "whole")) p->prefetch = PF_WHOLE;
    else if (!strncmp(arg, "blocks:", 7)) {
        if (umb_parse_bytes(arg + 7, &p->chunk) || p->chunk < 4096 || p->chunk % 4096) return -1;
        p->prefetch = PF_BLOCKS;
    } else return -1;
    return 0;
}

enum { O_SIZE = 1000, O_OP, O_RUNS, O_MEMORY, O_NUMA, O_ADVISE, O_PREFETCH, O_TOUCH, O_MATRIX,
       };

/* 0, 1 with one line in err, 2 for an unknown option. */
static int parse(config *c, int argc, char **argv, char *err, size_t n)
{
    static const struct option opts[] = {
        {"size", required_argument, 0, O_SIZE}, {"op", required_argument, 0, O_OP},
        {"runs", required_argument, 0, O_RUNS}, {"memory", required_argument, 0, O_MEMORY},
        {"numa-node", required_argument, 0, O_NUMA}, {"advise", required_argument, 0, O_ADVISE},
        {"prefetch", required_argument, 0, O_PREFETCH}, {"touch-on-host", no_argument, 0, O_TOUCH},
        {"matrix", no_argument, 0, O_MATRIX}, {"full", no_argument, 0, 'f'}, UMB_KERNEL_OPTIONS, {0, 0, 0, 0}};
    int ch, advise_given = 0, prefetch_given = 0;
    long v;
    memset(c, 0, sizeof *c);
    c->size = (size_t)1 << 30;
    c->runs = 3;
    c->numa_node = -1;
    opterr = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":fhvU", opts, NULL)) != -1) {
        const char *a = optarg;
        switch (ch) {
        case O_SIZE:
            if (umb_parse_bytes(a, &c->size) || c->size < 4096 || c->size % 4096)
                return bad(err, n, "--size %s: expected a multiple of 4K of at least 4K (K, M, G suffixes), e.g. 1G", a);
            c->size_arg = a;
            break;
        case O_OP:
            if (!strcmp(a, "read")) c->op = UMB_OP_READ;
            else if (!strcmp(a, "write")) c->op = UMB_OP_WRITE;
            else return bad(err, n, "--op %s: expected read or write", a);
            break;
        case O_RUNS:
            if (umb_parse_long(a, 1, MAX_RUNS, &v)) {
                snprintf(err, n, "--runs %s: expected a whole number from 1 to %d", a, MAX_RUNS);
                return 1;
            }
            c->runs = (int)v;
            break;
        case O_MEMORY: {
            int k = -1;
            for (int i = 0; i < 4; i++)
                if (!strcmp(a, memory_names[i])) k = i;
            if (k < 0) return bad(err, n, "--memory %s: expected managed, numa-host, pinned or device", a);
#ifndef HAVE_NUMA
            if (k == MEM_NUMA_HOST)
                return bad(err, n, "--memory %s: this build has no libnuma (configure --with-numa); use managed, pinned or device", a);
#endif
            c->mem = (memory)k;
            break;
        }
        case O_NUMA:
            if (umb_parse_long(a, 0, 4095, &v)) return bad(err, n, "--numa-node %s: expected a NUMA node number (0, 1, ...)", a);
            c->numa_node = (int)v;
            break;
        case O_ADVISE:
            if (parse_advise(a, &c->pol.advise))
                return bad(err, n, "--advise %s: expected accessed-by, read-mostly, preferred=cpu or preferred=gpu (one preferred), or none, comma-separated", a);
            advise_given = 1;
            break;
        case O_PREFETCH:
            if (parse_prefetch(a, &c->pol))
                return bad(err, n, "--prefetch %s: expected none, whole or blocks:SIZE (SIZE a multiple of 4K, e.g. blocks:64M)", a);
            prefetch_given = 1;
            c->prefetch_arg = a;
            break;
        case O_TOUCH: c->touch_on_host = 1; break;
        case O_MATRIX: c->matrix = 1; break;
        case 'f': c->full = 1; break;
        default: {
            int r = umb_kernel_opt(&c->k, ch, a, argv[optind - 1], err, n);
            if (r) return r;
        }
        }
    }
    if (optind < argc) return bad(err, n, "unexpected argument '%s': " PROGRAM " takes options only (see --help)", argv[optind]);
    if (c->mem != MEM_MANAGED && (advise_given || prefetch_given || c->matrix)) {
        snprintf(err, n, "--memory %s: --advise, --prefetch and --matrix need --memory managed",
                 memory_names[c->mem]);
        return 1;
    }
    if (c->matrix && (advise_given || prefetch_given)) {
        snprintf(err, n, "--matrix runs every --advise and --prefetch combination: give neither");
        return 1;
    }
    if (c->mem == MEM_DEVICE && c->touch_on_host) {
        snprintf(err, n, "--touch-on-host: --memory device cannot be written by the CPU; use managed, numa-host or pinned");
        return 1;
    }
    if (c->numa_node >= 0 && c->mem != MEM_NUMA_HOST) {
        snprintf(err, n, "--numa-node %d: only --memory numa-host is allocated on a chosen node", c->numa_node);
        return 1;
    }
    if (c->pol.prefetch == PF_BLOCKS && c->pol.chunk > c->size) {
        snprintf(err, n, "--prefetch %s: a block is larger than --size %s", c->prefetch_arg,
                 c->size_arg ? c->size_arg : "1G");
        return 1;
    }
    return 0;
}

/* Short names for the table: AB accessed-by, RM read-mostly, P=cpu/gpu preferred. */
static void advice_label(unsigned a, char *buf, size_t n)
{
    buf[0] = 0;
    if (!a) {
        snprintf(buf, n, "none");
        return;
    }
    snprintf(buf, n, "%s%s%s%s", a & UMB_ADV_ACCESSED_BY_GPU ? "+AB" : "", a & UMB_ADV_READ_MOSTLY ? "+RM" : "",
             a & UMB_ADV_PREFERRED_CPU ? "+P=cpu" : "", a & UMB_ADV_PREFERRED_GPU ? "+P=gpu" : "");
    memmove(buf, buf + 1, strlen(buf));  /* drop the leading + */
}

static void size_label(size_t b, char *buf, size_t n)
{
    if (b % (1u << 30) == 0) snprintf(buf, n, "%zuG", b >> 30);
    else if (b % (1u << 20) == 0) snprintf(buf, n, "%zuM", b >> 20);
    else snprintf(buf, n, "%zuK", b >> 10);
}

static void prefetch_label(const policy *p, char *buf, size_t n)
{
    char s[32];
    if (p->prefetch == PF_NONE) snprintf(buf, n, "none");
    else if (p->prefetch == PF_WHOLE) snprintf(buf, n, "whole");
    else {
        size_label(p->chunk, s, sizeof s);
        snprintf(buf, n, "blocks:%s", s);
    }
}

typedef struct {
    policy pol;
    double kernel_s[MAX_RUNS], prefetch_s[MAX_RUNS];
    umb_counts moved[MAX_RUNS], prefetched[MAX_RUNS];  /* --counters: the kernel, the prefetch */
    double host_pct[MAX_RUNS];  /* managed pages on the host as the kernel starts (pagemap; NaN: unknown) */
} result;

/* One policy: a fresh buffer, advice, first touch, then the runs. */
static void run_policy(const config *c, const policy *pol, int numa_node, result *r)
{
    char why[512];
    void *host = NULL, *p;
    size_t size = c->size;
    switch (c->mem) {
    case MEM_NUMA_HOST:
#ifdef HAVE_NUMA
        host = numa_alloc_onnode(size, numa_node);
        if (!host) {
            snprintf(why, sizeof why, "numa_alloc_onnode of %zu bytes on node %d failed", size, numa_node);
            umb_fatal("numa_alloc_onnode", __FILE__, __LINE__, why);
        }
        umb_host_write(host, size, 1);          /* first touch: the pages land on the node */
        p = umb_access_register(host, size);
#else
        (void)numa_node;
        p = NULL;
#endif
        break;
    case MEM_PINNED:
        p = umb_gpu_alloc(UMB_P, size, why, sizeof why);
        if (!p) umb_fatal("cudaMallocHost", __FILE__, __LINE__, why);
        umb_host_write(p, size, 1);
        break;
    case MEM_DEVICE:
        p = umb_gpu_alloc(UMB_D, size, why, sizeof why);
        if (!p) umb_fatal("cudaMalloc", __FILE__, __LINE__, why);
        umb_gpu_fill(p, size, 1);
        break;
    default:
        p = umb_gpu_alloc(UMB_MD, size, why, sizeof why);
        if (!p) umb_fatal("cudaMallocManaged", __FILE__, __LINE__, why);
        if (pol->advise) umb_gpu_advise(p, size, pol->advise);
        umb_host_write(p, size, 1);             /* first touch on the host */
        break;
    }
    umb_access a = {.pattern = UMB_PAT_GRID, .op = c->op, .p = p, .bytes = size,
                    .grid = c->k.grid, .block = c->k.block, .seed = 7};
    r->pol = *pol;
    for (int i = 0; i < c->runs; i++) {
        umb_counters_size_begin(0);  /* --counters: this run's own counts */
        umb_phase was = umb_counters_enter(UMB_PH_CHECK);  /* host writes: not reported */
        if (i > 0 && c->touch_on_host) umb_host_write(host ? host : p, size, 1 + i);
        umb_counters_leave(was);
        r->prefetch_s[i] = 0;
        was = umb_counters_enter(UMB_PH_PLACE);
        if (pol->prefetch != PF_NONE)
            r->prefetch_s[i] = umb_access_prefetch(p, size, pol->prefetch == PF_BLOCKS ? pol->chunk : 0, 1);
        umb_counters_leave(was);
        /* Where the policy left the pages, read without touching them. */
        long present = c->mem == MEM_MANAGED ? umb_host_pages(p, size) : -1;
        r->host_pct[i] = present < 0 ? NAN : 100.0 * (double)present / (double)umb_pages_spanned(p, size);
        a.seed = 7 + (unsigned long)i;
        umb_counters_iteration(0);  /* the kernel: measured */
        r->kernel_s[i] = umb_access_run(&a);
        umb_counts ph[UMB_NPHASES];
        umb_counters_size_end(ph);
        r->moved[i] = ph[UMB_PH_MEASURED];
        r->prefetched[i] = ph[UMB_PH_PLACE];
    }
    switch (c->mem) {
    case MEM_NUMA_HOST:
#ifdef HAVE_NUMA
        umb_access_unregister(host);
        numa_free(host, size);
#endif
        break;
    case MEM_PINNED: umb_gpu_free(UMB_P, p); break;
    case MEM_DEVICE: umb_gpu_free(UMB_D, p); break;
    default: umb_gpu_free(UMB_MD, p); break;
    }
}

/* show_pf: the prefetch-time columns (-f; "-" for a policy without prefetch). */
static int columns(const config *c, const result *r, umb_col *cols, int show_pf)
{
    char adv[32], pf[32];
    int n = 0;
    advice_label(r->pol.advise, adv, sizeof adv);
    prefetch_label(&r->pol, pf, sizeof pf);
    umb_text_col(&cols[n++], "Memory", "memory", memory_names[c->mem]);
    umb_text_col(&cols[n++], "Advice", "advice", c->mem == MEM_MANAGED ? adv : "-");
    umb_text_col(&cols[n++], "Prefetch", "prefetch", c->mem == MEM_MANAGED ? pf : "-");
    for (int i = 0; i < c->runs; i++) {
        umb_col *k = &cols[n++];
        memset(k, 0, sizeof *k);
        snprintf(k->title, sizeof k->title, "Run %d (GiB/s)", i + 1);
        snprintf(k->key, sizeof k->key, "run%d_gibs", i + 1);
        k->value = (double)c->size / r->kernel_s[i] / GIB;
        k->decimals = 2;
    }
    if (c->k.counters)
        for (int i = 0; i < c->runs; i++) {
            char t[16], k[16];
            snprintf(t, sizeof t, "R%d ", i + 1);
            snprintf(k, sizeof k, "run%d_", i + 1);
            int m = umb_counter_cols(cols + n, t, "", k, "", &r->moved[i], &r->prefetched[i], 1.0);
            for (int j = 2; j < m; j++) cols[n + j].full_only = 1;  /* the table: HtoD and DtoH; -f: all */
            n += m;
        }
    for (int i = 0; i < c->runs; i++) {
        char title[32], key[32];
        snprintf(title, sizeof title, "Host %% %d", i + 1);
        snprintf(key, sizeof key, "run%d_host_pct", i + 1);
        umb_num_col(&cols[n], title, key, r->host_pct[i], 1);
        cols[n++].full_only = 1;
    }
    if (show_pf)
        for (int i = 0; i < c->runs; i++) {
            umb_col *k = &cols[n++];
            char title[32], key[32];
            snprintf(title, sizeof title, "Prefetch %d (ms)", i + 1);
            snprintf(key, sizeof key, "prefetch%d_ms", i + 1);
            umb_text_col(k, title, key, "-");
            if (r->pol.prefetch != PF_NONE) {
                k->text[0] = 0;
                k->value = r->prefetch_s[i] * 1e3;
                k->decimals = 3;
            }
            k->full_only = 1;
        }
    return n;
}

/* A pass as the user pays for it: prefetch plus kernel. */
static double pass_rate(const config *c, const result *r, int i)
{
    return (double)c->size / (r->kernel_s[i] + r->prefetch_s[i]) / GIB;
}

static double repeated_rate(const config *c, const result *r)
{
    double t = 0;
    for (int i = 1; i < c->runs; i++) t += r->kernel_s[i] + r->prefetch_s[i];
    return (double)c->size * (c->runs - 1) / t / GIB;
}

static void summary(const config *c, const result *res, int n, FILE *out)
{
    const result *demand = &res[0];  /* the matrix starts with no advice, no prefetch */
    int best1 = 0, bestn = 0;
    for (int i = 1; i < n; i++) {
        if (pass_rate(c, &res[i], 0) > pass_rate(c, &res[best1], 0)) best1 = i;
        if (c->runs > 1 && repeated_rate(c, &res[i]) > repeated_rate(c, &res[bestn])) bestn = i;
    }
    for (int k = 0; k < (c->runs > 1 ? 2 : 1); k++) {
        const result *b = &res[k ? bestn : best1];
        char adv[32], pf[32];
        advice_label(b->pol.advise, adv, sizeof adv);
        prefetch_label(&b->pol, pf, sizeof pf);
        double rate = k ? repeated_rate(c, b) : pass_rate(c, b, 0);
        double base = k ? repeated_rate(c, demand) : pass_rate(c, demand, 0);
        const char *what = k ? "repeated passes" : "a single pass";
        if (c->k.format == UMB_FMT_JSON)
            fprintf(out, "{\"type\":\"summary\",\"program\":\"" PROGRAM "\",\"for\":\"%s\",\"advice\":\"%s\","
                    "\"prefetch\":\"%s\",\"gibs\":%.3f,\"demand_gibs\":%.3f,\"speedup\":%.3f}\n",
                    k ? "repeated" : "single", adv, pf, rate, base, rate / base);
        else
            fprintf(out, "# Fastest for %s: advice %s, prefetch %s: %.2f GiB/s, %.1fx plain demand paging (%.2f GiB/s)%s\n",
                    what, adv, pf, rate, rate / base, base,
                    k ? " (runs 2 to N, prefetch time included)" : " (run 1, prefetch time included)");
    }
}

static void header(const config *c, int numa_node, size_t free_b, double peak)
{
    umb_header h;
    char s[512], t[256];
    umb_drive_own_header(&h, PROGRAM, "a GPU kernel over one buffer, each run timed", c->k.device);
    umb_header_num(&h, "hbm_peak_gibs", "Memory peak (GiB/s)", peak / GIB);
    umb_header_num(&h, "free_gib", "Free GPU memory (GiB)", (double)free_b / GIB);
    if (c->mem == MEM_NUMA_HOST)
        umb_header_str(&h, "memory", "Memory", "numa-host: numa_alloc_onnode on node %d, registered with cudaHostRegister (mapped); the GPU reads it over PCIe", numa_node);
    else
        umb_header_str(&h, "memory", "Memory", "%s", memory_names[c->mem]);
    umb_header_str(&h, "size", "Size", "%zu bytes", c->size);
    umb_header_str(&h, "op", "Operation", "%s every byte: grid-stride, 16 B per thread per step", c->op == UMB_OP_READ ? "read" : "write");
    umb_header_num(&h, "runs", "Runs", c->runs);
    if (c->mem == MEM_MANAGED && !c->matrix) {
        umb_advise_string(c->pol.advise, s, sizeof s);
        prefetch_label(&c->pol, t, sizeof t);
        umb_header_str(&h, "policy", "Policy", "advice %s; prefetch %s", s, t);
    }
    if (c->matrix) umb_header_str(&h, "policy", "Policy", "--matrix: every advice (AB accessed-by GPU, RM read-mostly, P= preferred location) x prefetch (none, whole, blocks)");
    umb_header_str(&h, "touch", "Between runs", "%s", c->touch_on_host ? "the CPU writes every byte (device copies evicted)" : "nothing");
    umb_header_str(&h, "timing", "Timing", "CUDA events around each run's kernel only; allocation, advice, first touch, host writes and prefetch are outside it (prefetch timed on its own); GiB/s = bytes / time / 2^30");
    umb_counters_header(&h, "per run: the kernel's, and the prefetch's as Place", c->k.counters_note);
    umb_counters_burst_warning(&h, c->size);
    umb_header_print(&h, c->k.format, stdout);
    umb_header_free(&h);
}

int main(int argc, char **argv)
{
    config c;
    char err[512], why[512];
    int rc = parse(&c, argc, argv, err, sizeof err);
    umb_drive_own_start(PROGRAM, rc, err, usage, &c.k);
    umb_gpu_desc d;
    umb_gpu_describe(c.k.device, &d);
    int numa_node = c.numa_node;
    if (c.mem == MEM_NUMA_HOST) {
#ifdef HAVE_NUMA
        if (numa_available() < 0) {
            fprintf(stderr, PROGRAM ": --memory numa-host: libnuma says NUMA is not available here; use managed, pinned or device\n");
            return UMB_EXIT_USAGE;
        }
        if (numa_node < 0) numa_node = umb_pci_numa_node(d.pci_bus) >= 0 ? umb_pci_numa_node(d.pci_bus) : 0;
        if (numa_node > numa_max_node() || numa_node_size64(numa_node, NULL) <= 0) {
            fprintf(stderr, PROGRAM ": --numa-node %d: no such node with memory (nodes 0 to %d)\n", numa_node, numa_max_node());
            return UMB_EXIT_USAGE;
        }
#endif
    }
    size_t free_b = umb_gpu_free_memory();
    const char *size_arg = c.size_arg ? c.size_arg : "1G (default)";
    if (c.mem == MEM_MANAGED && umb_oversub_check(c.size, free_b, c.k.allow_oversub, why, sizeof why)) {
        fprintf(stderr, PROGRAM ": --size %s refused: %s\n", size_arg, why);
        return UMB_EXIT_USAGE;
    }
    if (c.mem == MEM_DEVICE && c.size > free_b) {
        fprintf(stderr, PROGRAM ": --size %s refused: --memory device needs %zu bytes of GPU memory, %zu are free\n", size_arg, c.size, free_b);
        return UMB_EXIT_USAGE;
    }
    if (c.mem != MEM_DEVICE && umb_oversub_host_check(c.size, umb_host_available(), why, sizeof why)) {
        fprintf(stderr, PROGRAM ": --size %s refused: %s\n", size_arg, why);
        return UMB_EXIT_USAGE;
    }
    double peak = umb_access_hbm_peak();
    header(&c, numa_node, free_b, peak);

    policy pols[MAX_POLICIES];
    int npol = 0;
    if (c.matrix) {
        /* block-wise prefetch: 16 blocks, whole 2 MiB pages */
        size_t chunk = c.size / 16 / UMB_OVERSUB_ALIGN * UMB_OVERSUB_ALIGN;
        if (!chunk) chunk = c.size;
        static const unsigned pref[] = {0, UMB_ADV_PREFERRED_CPU, UMB_ADV_PREFERRED_GPU};
        for (int pf = PF_NONE; pf <= PF_BLOCKS; pf++)
            for (int p = 0; p < 3; p++)
                for (int ab = 0; ab < 2; ab++)
                    for (int rm = 0; rm < 2; rm++) {
                        policy *q = &pols[npol++];
                        q->advise = pref[p] | (ab ? UMB_ADV_ACCESSED_BY_GPU : 0) | (rm ? UMB_ADV_READ_MOSTLY : 0);
                        q->prefetch = (prefetch_kind)pf;
                        q->chunk = chunk;
                    }
    } else {
        pols[npol++] = c.pol;
    }

    umb_output out = {.format = c.k.format, .full = c.full, .validate = 0, .program = PROGRAM,
                      .buffers = memory_names[c.mem], .out = stdout};
    result *res = umb_xmalloc(sizeof *res * (size_t)npol, "results");
    umb_col cols[3 + 11 * MAX_RUNS];  /* per run: rate, 8 counters, prefetch, host % */
    int show_pf = c.matrix || c.pol.prefetch != PF_NONE;
    for (int i = 0; i < npol; i++) {
        run_policy(&c, &pols[i], numa_node, &res[i]);
        int ncols = columns(&c, &res[i], cols, show_pf);
        if (i == 0) umb_out_columns(&out, cols, ncols);
        umb_out_row(&out, c.size, cols, ncols, 1);
    }
    if (c.matrix) summary(&c, res, npol, stdout);
    /* printed so that no read can be optimised away */
    if (c.k.format == UMB_FMT_JSON)
        printf("{\"type\":\"checksum\",\"program\":\"" PROGRAM "\",\"xor\":\"%016llx\"}\n", umb_access_checksum());
    else
        printf("# Checksum (XOR of every word read): %016llx\n", umb_access_checksum());
    umb_counters_footer(c.k.format, stdout);
    free(res);
    return 0;
}
