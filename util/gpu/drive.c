#define _GNU_SOURCE
#include "drive.h"

#include "counters.h"
#include "cupti_um.h"

#include "config.h"
#include "error.h"
#include "gpu.h"
#include "sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_NUMA
#include <numa.h>
#endif

static int add_size(umb_drive *d, size_t s, char *err, size_t n)
{
    if (d->nsizes >= UMB_DRIVE_MAX_SIZES)
        return umb_errf(err, n, "too many sizes: at most %d per run", UMB_DRIVE_MAX_SIZES);
    d->sizes[d->nsizes++] = s;
    return 0;
}

int umb_drive_size_list(umb_drive *d, const char *list, const char *quick, char *err, size_t n)
{
    char copy[1024];
    if (!strcmp(list, "quick")) list = quick;
    if (strlen(list) >= sizeof copy) return umb_errf(err, n, "--size: list too long");
    strcpy(copy, list);
    d->nsizes = 0;
    if (!copy[0] || copy[strlen(copy) - 1] == ',') goto bad;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t s;
        if (umb_parse_bytes(t, &s)) goto bad;
        if (s == 0) return umb_errf(err, n, "--size %s: sizes must be at least 1 byte", list);
        if (add_size(d, s, err, n)) return 1;
    }
    return 0;
bad:
    return umb_errf(err, n, "--size %s: expected quick or bytes, comma-separated (K, M, G suffixes), e.g. --size 4K,1M,1G", list);
}

int umb_drive_size_range(umb_drive *d, size_t start, size_t end, size_t step, double factor,
                         char *err, size_t n)
{
    d->nsizes = 0;
    if (start == 0) return umb_errf(err, n, "--start 0: sizes must be at least 1 byte");
    if (end < start) return umb_errf(err, n, "--end %zu is smaller than --start %zu", end, start);
    for (size_t s = start; s <= end;) {
        if (add_size(d, s, err, n)) return 1;
        size_t next = step ? s + step : (size_t)((double)s * factor);
        if (next <= s) next = s + 1;  /* a factor near 1 still moves on */
        if (next < s || next > end) break;
        s = next;
    }
    return 0;
}

enum { OPT_SIZE = 300, OPT_START, OPT_END, OPT_STEP, OPT_FACTOR, OPT_DEVICE, OPT_NUMA, OPT_FORMAT,
       OPT_UNITS, OPT_REPEAT, OPT_FLUSH, OPT_CPUTIMING, OPT_COUNTERS };

static const struct option common[] = {
    {"size", required_argument, 0, OPT_SIZE},
    {"start", required_argument, 0, OPT_START},
    {"end", required_argument, 0, OPT_END},
    {"step", required_argument, 0, OPT_STEP},
    {"factor", required_argument, 0, OPT_FACTOR},
    {"device", required_argument, 0, OPT_DEVICE},
    {"numa-node", required_argument, 0, OPT_NUMA},
    {"format", required_argument, 0, OPT_FORMAT},
    {"units", required_argument, 0, OPT_UNITS},
    {"repeat", required_argument, 0, OPT_REPEAT},
    {"flush", no_argument, 0, OPT_FLUSH},
    {"cputiming", no_argument, 0, OPT_CPUTIMING},
    {"counters", no_argument, 0, OPT_COUNTERS},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, 'v'},
};
#define NCOMMON (sizeof common / sizeof common[0])

int umb_drive_parse(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv, char *err, size_t n)
{
    struct option opts[NCOMMON + 32];
    size_t nopts = 0;
    const char *size_arg = NULL, *start_arg = NULL, *end_arg = NULL, *step_arg = NULL, *factor_arg = NULL;
    memset(d, 0, sizeof *d);
    d->numa_node = -1;
    d->repeat = cli->repeat > 0 ? cli->repeat : 10;
    err[0] = '\0';
    memcpy(opts, common, sizeof common);
    nopts = NCOMMON;
    for (const struct option *o = cli->own; o && o->name && nopts < NCOMMON + 31; o++) opts[nopts++] = *o;
    memset(&opts[nopts], 0, sizeof opts[nopts]);

    optind = 0;
    opterr = 0;
    int c, li = -1;
    long v;
    while ((c = getopt_long(argc, argv, ":hr:vU", opts, &li)) != -1) {
        const char *a = optarg;
        char name[48];
        if (li >= 0) snprintf(name, sizeof name, "--%s", opts[li].name);
        else snprintf(name, sizeof name, "-%c", c);
        li = -1;
        switch (c) {
        case OPT_SIZE: size_arg = a; break;
        case OPT_START: start_arg = a; break;
        case OPT_END: end_arg = a; break;
        case OPT_STEP: step_arg = a; break;
        case OPT_FACTOR: factor_arg = a; break;
        case OPT_DEVICE:
            if (!strcmp(a, "all")) d->all_devices = 1;
            else if (umb_parse_long(a, 0, 1023, &v)) return umb_errf(err, n, "--device %s: expected a GPU index 0..1023 or all", a);
            else d->device = (int)v, d->all_devices = 0;
            break;
        case OPT_NUMA:
            if (umb_parse_long(a, 0, 1023, &v)) return umb_errf(err, n, "--numa-node %s: expected a NUMA node number 0..1023", a);
            d->numa_node = (int)v;
            break;
        case OPT_FORMAT:
            if (umb_format_parse(a, &d->format, err, n)) return 1;
            break;
        case OPT_UNITS:
            if (!strcasecmp(a, "GB") || !strcasecmp(a, "GB/s")) d->gib = 0;
            else if (!strcasecmp(a, "GiB") || !strcasecmp(a, "GiB/s")) d->gib = 1;
            else return umb_errf(err, n, "--units %s: accepted: GB (10^9 bytes/s), GiB (2^30 bytes/s)", a);
            break;
        case 'r': case OPT_REPEAT:
            if (umb_parse_long(a, 1, 100000, &v)) return umb_errf(err, n, "%s %s: repetitions must be an integer from 1 to 100000", name, a);
            d->repeat = v;
            break;
        case OPT_FLUSH: d->flush = 1; break;
        case OPT_CPUTIMING: d->cputiming = 1; break;
        case 'U': case OPT_COUNTERS: d->counters = 1; break;
        case 'h': d->help = 1; break;
        case 'v': d->version = 1; break;
        case ':':
            return umb_errf(err, n, "option %s needs a value; see %s -h", argv[optind - 1], cli->program);
        case '?':
            if (optopt) return 1 + umb_errf(err, n, "unknown option -%c", optopt);
            return 1 + umb_errf(err, n, "unknown option %s", argv[optind - 1]);
        default:
            if (!cli->own_parse || cli->own_parse(cli->ctx, c, name, a, err, n)) {
                if (!err[0]) umb_errf(err, n, "unknown option %s", name);
                return 1;
            }
        }
    }
    if (d->help || d->version) return 0;
    if (optind < argc) return umb_errf(err, n, "unexpected argument '%s'; see %s -h", argv[optind], cli->program);

    int range = start_arg || end_arg || step_arg || factor_arg;
    if (size_arg && range) return umb_errf(err, n, "--size %s: give either --size or --start/--end, not both", size_arg);
    if (range) {
        size_t start = 0, end = 0, step = 0;
        double factor = 2;
        if (!start_arg || !end_arg) return umb_errf(err, n, "a size range needs both --start and --end (with --step or --factor)");
        if (step_arg && factor_arg) return umb_errf(err, n, "--step %s --factor %s: give one of them", step_arg, factor_arg);
        if (umb_parse_bytes(start_arg, &start)) return umb_errf(err, n, "--start %s: expected bytes (K, M, G suffixes)", start_arg);
        if (umb_parse_bytes(end_arg, &end)) return umb_errf(err, n, "--end %s: expected bytes (K, M, G suffixes)", end_arg);
        if (step_arg && (umb_parse_bytes(step_arg, &step) || step == 0))
            return umb_errf(err, n, "--step %s: expected bytes > 0 (K, M, G suffixes)", step_arg);
        if (factor_arg) {
            char *e;
            errno = 0;
            factor = strtod(factor_arg, &e);
            if (errno || *e || e == factor_arg || !(factor > 1) || factor > 1e6)
                return umb_errf(err, n, "--factor %s: expected a number greater than 1, e.g. 2", factor_arg);
        }
        snprintf(d->sizes_given, sizeof d->sizes_given, "%s to %s, %s %s", start_arg, end_arg,
                 step_arg ? "step" : "factor", step_arg ? step_arg : factor_arg ? factor_arg : "2");
        return umb_drive_size_range(d, start, end, step, factor, err, n);
    }
    if (!size_arg) size_arg = "quick";
    snprintf(d->sizes_given, sizeof d->sizes_given, "%s", !strcmp(size_arg, "quick") ? "quick" : size_arg);
    if (!strcmp(size_arg, "quick"))
        snprintf(d->sizes_given, sizeof d->sizes_given, "quick (%.140s)", cli->quick);
    return umb_drive_size_list(d, size_arg, cli->quick, err, n);
}

void umb_drive_usage(const umb_drive_cli *cli, FILE *f)
{
    fprintf(f, "Usage: %s [options]\n%s\n\n%s", cli->program, cli->summary, cli->own_usage ? cli->own_usage : "");
    fprintf(f,
        "Sizes (K, M, G = 2^10, 2^20, 2^30):\n"
        "      --size LIST|quick         sizes, comma-separated (default quick: %s)\n"
        "      --start S --end E         a range from S to E, with\n"
        "      --step B | --factor F     B bytes apart, or each F times the last (default factor 2)\n"
        "Common options:\n"
        "      --device N|all            GPU N (default 0) or every GPU\n"
        "      --numa-node N             run on NUMA node N and allocate host memory there (libnuma)\n"
        "  -r, --repeat N                timed repetitions per size (default %d)\n"
        "      --flush                   evict the CPU caches between repetitions (untimed)\n"
        "      --cputiming               also time each repetition with the host clock\n"
        "  -U, --counters                unified-memory counters per row (CUPTI): bytes migrated each way,\n"
        "                                GPU and CPU page faults, over the timed repetitions, placement apart\n"
        "      --units GB|GiB            GB/s = 10^9 bytes/s (default) or GiB/s = 2^30\n"
        "      --format table|csv|json   output format (default table; json: one object per line)\n"
        "  -h, --help                    this text;  -v, --version  the version\n"
        "Exit status: 0 ok, 1 bad input, error or a figure above the link limit, 2 validation failed, 77 no GPU.\n",
        cli->quick, cli->repeat > 0 ? cli->repeat : 10);
}

int umb_numa_check(int node, char *err, size_t n)
{
#ifdef HAVE_NUMA
    if (numa_available() < 0)
        return umb_errf(err, n, "--numa-node %d: NUMA is not available on this machine (numa_available() < 0)", node);
    int max = numa_max_node();
    long long free_b = 0;
    if (node > max || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)node) ||
        numa_node_size64(node, &free_b) <= 0)
        return umb_errf(err, n, "--numa-node %d: no such NUMA node with memory; this machine has nodes 0..%d", node, max);
    return 0;
#else
    return umb_errf(err, n, "--numa-node %d: this build has no libnuma (configure --with-numa; Debian: libnuma-dev)", node);
#endif
}

void *umb_host_alloc(size_t bytes, int node)
{
    if (!bytes) bytes = 1;
#ifdef HAVE_NUMA
    if (node >= 0) return numa_alloc_onnode(bytes, node);  /* mmap: page aligned */
#endif
    (void)node;
    size_t rounded = (bytes + 4095) / 4096 * 4096;
    return aligned_alloc(4096, rounded);
}

void umb_host_free(void *p, size_t bytes, int node)
{
    if (!p) return;
#ifdef HAVE_NUMA
    if (node >= 0) {
        numa_free(p, bytes ? bytes : 1);
        return;
    }
#endif
    (void)bytes;
    (void)node;
    free(p);
}

/* Twice the largest CPU cache sysfs names, at least 256 MiB. */
size_t umb_cache_flush(void)
{
    static unsigned char *buf;
    static size_t size;
    static unsigned char round;
    if (!buf) {
        size = (size_t)256 << 20;
        for (int i = 0; i < 8; i++) {
            char path[96], line[32];
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
            FILE *f = fopen(path, "r");
            if (!f) continue;
            if (fgets(line, sizeof line, f)) {
                char *e;
                size_t k = strtoull(line, &e, 10);
                k <<= *e == 'M' ? 20 : *e == 'K' ? 10 : 0;
                if (2 * k > size) size = 2 * k;
            }
            fclose(f);
        }
        buf = umb_xmalloc(size, "the cache-flush buffer");
    }
    memset(buf, ++round, size);
    __asm__ volatile("" ::"r"(buf) : "memory");  /* the writes must happen */
    return size;
}

double umb_pcie_limit_gbs(const char *link, char *desc, size_t n)
{
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    int gen = 0, width = 0;
    const char *m = link ? strstr(link, "max Gen") : NULL;
    if (desc && n) desc[0] = '\0';
    if (!m || sscanf(m, "max Gen%d x%d", &gen, &width) != 2 || gen < 1 || gen > 6 || width < 1 || width > 32) {
        if (desc && n) snprintf(desc, n, "unknown (PCIe link: %s)", link ? link : "unknown");
        return 0;
    }
    /* 8b/10b for Gen1-2, 128b/130b for Gen3-5, FLIT 242/256 for Gen6. */
    double num = gen <= 2 ? 8 : gen <= 5 ? 128 : 242, den = gen <= 2 ? 10 : gen <= 5 ? 130 : 256;
    double limit = gts[gen] * width * num / den / 8;
    if (desc && n)
        snprintf(desc, n, "%.1f GB/s per direction (PCIe Gen%d x%d: %g GT/s x %d lanes x %g/%g / 8)", limit, gen,
                 width, gts[gen], width, num, den);
    return limit;
}

const char *umb_drive_unit(const umb_drive *d) { return d->gib ? "GiB/s" : "GB/s"; }
double umb_drive_unit_bytes(const umb_drive *d) { return d->gib ? 1073741824.0 : 1e9; }

void umb_drive_start(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv)
{
    char err[512], why[512];
    umb_error_context(cli->program, -1, NULL);
    int bad = umb_drive_parse(d, cli, argc, argv, err, sizeof err);
    if (!bad && d->help) {
        umb_drive_usage(cli, stdout);
        exit(0);
    }
    if (!bad && d->version) {
        printf("%s (umbench) %s\n", cli->program, PACKAGE_VERSION);
        exit(0);
    }
    if (!bad && cli->own_check) bad = cli->own_check(cli->ctx, err, sizeof err);
    if (bad) {
        fprintf(stderr, "%s: %s\n", cli->program, err);
        if (bad == 2) umb_drive_usage(cli, stderr);
        exit(UMB_EXIT_USAGE);
    }
    if (d->numa_node >= 0 && umb_numa_check(d->numa_node, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", cli->program, err);
        exit(UMB_EXIT_USAGE);
    }
    int gpus = umb_gpu_count(why, sizeof why);
    if (d->counters) umb_drive_counters_start(cli->program, d->counters_note, sizeof d->counters_note);
    if (gpus <= 0) {
        fprintf(stderr, "%s: needs a CUDA GPU, but this machine has none: %s\n", cli->program, why);
        exit(UMB_EXIT_SKIP);
    }
    if (!d->all_devices && d->device >= gpus) {
        fprintf(stderr, "%s: --device %d: this machine has %d GPU(s), numbered 0..%d\n", cli->program, d->device,
                gpus, gpus - 1);
        exit(UMB_EXIT_USAGE);
    }
    d->ndevices = 0;
    for (int g = 0; g < gpus && g < UMB_DRIVE_MAX_GPUS; g++)
        if (d->all_devices || g == d->device) d->devices[d->ndevices++] = g;
#ifdef HAVE_NUMA
    /* CPUs of the node, and every later host allocation preferred there
       (cudaMallocHost and the driver's own pinned buffers included). */
    if (d->numa_node >= 0) {
        if (numa_run_on_node(d->numa_node) != 0) {
            snprintf(why, sizeof why, "cannot run on NUMA node %d: %s", d->numa_node, strerror(errno));
            umb_fatal("numa_run_on_node", __FILE__, __LINE__, why);
        }
        numa_set_preferred(d->numa_node);
    }
#endif
}

void umb_drive_header(umb_header *h, const umb_drive *d, const umb_drive_cli *cli)
{
    char host[256], cpus[256], numa[64], ver[256], drv[64], t[64];
    time_t now = time(NULL);
    memset(h, 0, sizeof *h);
    umb_hostname(host, sizeof host);
    umb_cpu_binding(cpus, sizeof cpus);
    umb_cpu_numa(numa, sizeof numa);
    umb_gpu_versions(ver, sizeof ver);
    umb_nvidia_driver(drv, sizeof drv);
    strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    umb_header_str(h, "program", "Program", "%s (umbench %s): %s", cli->program, PACKAGE_VERSION, cli->summary);
    umb_header_str(h, "date", "Date", "%s", t);
    umb_header_str(h, "host", "Host", "%s", host);
    umb_header_str(h, "cpus", "CPUs", "%s (NUMA %s)", cpus, numa);
    if (d->numa_node >= 0)
        umb_header_str(h, "numa_binding", "NUMA binding", "node %d: process runs there, host buffers allocated there (--numa-node)", d->numa_node);
    else
        umb_header_str(h, "numa_binding", "NUMA binding", "none (the kernel's default policy)");
    umb_header_str(h, "cuda", "CUDA", "%s, NVIDIA kernel driver %s", ver, drv);

    umb_strbuf json = {0}, text = {0};
    umb_sb_printf(&json, "[");
    for (int i = 0; i < d->ndevices; i++) {
        umb_gpu_desc g;
        char link[128], limit_desc[160];
        umb_gpu_describe(d->devices[i], &g);
        umb_pcie_link(g.pci_bus, link, sizeof link);
        double limit = umb_pcie_limit_gbs(link, limit_desc, sizeof limit_desc);
        int node = umb_pci_numa_node(g.pci_bus);
        umb_sb_printf(&json, "%s{\"gpu\":%d,\"name\":", i ? "," : "", d->devices[i]);
        umb_sb_json_string(&json, g.name);
        umb_sb_printf(&json, ",\"pci_bus\":");
        umb_sb_json_string(&json, g.pci_bus);
        umb_sb_printf(&json, ",\"pcie\":");
        umb_sb_json_string(&json, link);
        umb_sb_printf(&json, ",\"link_limit_gbs\":");
        umb_sb_json_number(&json, limit > 0 ? limit : NAN);
        umb_sb_printf(&json, ",\"numa\":%d,\"memory\":%zu,\"pageable_access\":%d}", node, g.total_memory,
                      g.pageable_access);
        umb_sb_printf(&text, "# GPU %d: %s (%s, PCIe %s, NUMA node %d, %.1f GiB)\n# Link limit GPU %d: %s\n",
                      d->devices[i], g.name, g.pci_bus, link, node, (double)g.total_memory / 1073741824.0,
                      d->devices[i], limit_desc);
    }
    umb_sb_printf(&json, "]");
    umb_header_json(h, "gpus", json.s, text.s ? text.s : "");
    umb_sb_free(&json);
    umb_sb_free(&text);
    umb_header_str(h, "sizes", "Sizes", "%s", d->sizes_given);
    umb_header_num(h, "repetitions", "Repetitions", (double)d->repeat);
    umb_header_str(h, "flush", "Cache flush", "%s", d->flush ? "on: a buffer larger than the last-level cache is written before every repetition" : "off");
}

int umb_drive_counter_cols(const umb_counts *moved, const umb_counts *placed, long reps, umb_col *cols)
{
    return umb_counter_cols(cols, "", "/rep", "", "_per_rep", moved, placed, reps > 0 ? 1.0 / (double)reps : NAN);
}


void umb_drive_counters_start(const char *program, char *note, size_t n)
{
    char why[256] = "";
    if (!umb_cupti_built()) {
        fprintf(stderr, "%s: --counters needs CUPTI, but this build has none (configure found no "
                "cupti.h/libcupti.so; --with-cupti=DIR names it)\n", program);
        exit(UMB_EXIT_USAGE);
    }
    /* Before any CUDA context, so CUPTI sees all of it. */
    if (umb_gpu_count(why, sizeof why) > 0 && !umb_counters_start(1, note, n))
        fprintf(stderr, "%s: note: --counters: %s; counting getrusage faults only\n", program, note);
}

int umb_drive_own_start(const char *program, int rc, const char *err, void (*usage)(FILE *), umb_kernel_opts *k)
{
    int help = k->help, version = k->version, device = k->device;
    char why[512];
    umb_error_context(program, -1, NULL);
    if (rc) {
        fprintf(stderr, "%s: %s\n", program, err);
        if (rc == 2) usage(stderr);
        exit(UMB_EXIT_USAGE);
    }
    if (help) {
        usage(stdout);
        exit(0);
    }
    if (version) {
        printf("%s (umbench) %s\n", program, PACKAGE_VERSION);
        exit(0);
    }
    int count = umb_gpu_count(why, sizeof why);
    if (count <= 0) {
        fprintf(stderr, "%s: needs a CUDA GPU, but this machine has none: %s\n", program, why);
        exit(UMB_EXIT_SKIP);
    }
    if (device >= count) {
        fprintf(stderr, "%s: --device %d: this machine has %d GPU(s), numbered 0..%d\n", program, device, count,
                count - 1);
        exit(UMB_EXIT_USAGE);
    }
    if (k->counters) umb_drive_counters_start(program, k->counters_note, sizeof k->counters_note);
    umb_gpu_use(device);
    return count;
}

void umb_drive_own_header(umb_header *h, const char *program, const char *summary, int device)
{
    umb_gpu_desc d;
    char s[512], t[256], host[256], cpus[256];
    time_t now = time(NULL);
    memset(h, 0, sizeof *h);
    umb_gpu_describe(device, &d);
    umb_header_str(h, "program", "Program", "%s (umbench %s): %s", program, PACKAGE_VERSION, summary);
    strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    umb_header_str(h, "date", "Date", "%s", t);
    umb_hostname(host, sizeof host);
    umb_cpu_binding(cpus, sizeof cpus);
    umb_header_str(h, "host", "Host", "%s, CPUs %s", host, cpus);
    umb_gpu_versions(s, sizeof s);
    umb_nvidia_driver(t, sizeof t);
    umb_header_str(h, "cuda", "CUDA", "%s; NVIDIA kernel driver %s", s, t);
    umb_pcie_link(d.pci_bus, s, sizeof s);
    umb_header_str(h, "gpu", "GPU", "%d %s (%s, PCIe %s, NUMA %d), HMM %s", device, d.name, d.pci_bus, s,
                   umb_pci_numa_node(d.pci_bus), d.pageable_access ? "yes" : "no");
}

int umb_kernel_opt(umb_kernel_opts *k, int ch, const char *arg, const char *given, char *err, size_t n)
{
    long v;
    switch (ch) {
    case UMB_KOPT_DEVICE:
        if (umb_parse_long(arg, 0, 1023, &v)) return umb_errf(err, n, "--device %s: expected a GPU number (0, 1, ...)", arg);
        k->device = (int)v;
        return 0;
    case UMB_KOPT_GRID:
        if (umb_parse_long(arg, 1, 1L << 20, &v)) return umb_errf(err, n, "--grid %s: expected blocks from 1 to 1048576", arg);
        k->grid = (unsigned)v;
        return 0;
    case UMB_KOPT_BLOCK:
        if (umb_parse_long(arg, 32, 1024, &v) || v % 32)
            return umb_errf(err, n, "--block %s: expected threads per block, a multiple of 32 from 32 to 1024", arg);
        k->block = (unsigned)v;
        return 0;
    case UMB_KOPT_FORMAT: return umb_format_parse(arg, &k->format, err, n);
    case UMB_KOPT_ALLOW: k->allow_oversub = 1; return 0;
    case 'U': k->counters = 1; return 0;
    case 'h': k->help = 1; return 0;
    case 'v': k->version = 1; return 0;
    case ':': return umb_errf(err, n, "%s: missing value", given);
    default: umb_errf(err, n, "unknown option %s", given); return 2;
    }
}
