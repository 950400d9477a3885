#define _GNU_SOURCE
#include "drive.h"

#include "config.h"
#include "error.h"
#include "figures.h"
#include "gpu.h"
#include "sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SIZE = 300, OPT_START, OPT_END, OPT_STEP, OPT_GROW, OPT_FACTOR_RENAMED, OPT_DEVICE, OPT_NUMA, OPT_FORMAT,
       OPT_UNITS, OPT_REPEAT, OPT_FLUSH, OPT_CPUTIMING, OPT_COUNTERS, OPT_OP, OPT_GRID, OPT_BLOCK, OPT_ALLOW,
       OPT_CHECK_OPTIONS };

/* Each with the group a driver takes it in (0: every driver). */
static const struct {
    struct option o;
    unsigned group;
} common[] = {
    {{"size", required_argument, 0, OPT_SIZE}, UMB_DRIVE_SIZES},
    {{"start", required_argument, 0, OPT_START}, UMB_DRIVE_SIZES},
    {{"end", required_argument, 0, OPT_END}, UMB_DRIVE_SIZES},
    {{"step", required_argument, 0, OPT_STEP}, UMB_DRIVE_SIZES},
    {{"grow", required_argument, 0, OPT_GROW}, UMB_DRIVE_SIZES},
    /* --factor is umb_oversub's factor of free GPU memory, one meaning only. */
    {{"factor", required_argument, 0, OPT_FACTOR_RENAMED}, UMB_DRIVE_SIZES},
    {{"device", required_argument, 0, OPT_DEVICE}, 0},
    {{"numa-node", required_argument, 0, OPT_NUMA}, UMB_DRIVE_HOST},
    {{"format", required_argument, 0, OPT_FORMAT}, 0},
    {{"units", required_argument, 0, OPT_UNITS}, UMB_DRIVE_UNITS},
    {{"repeat", required_argument, 0, OPT_REPEAT}, UMB_DRIVE_REPEAT},
    {{"flush", no_argument, 0, OPT_FLUSH}, UMB_DRIVE_HOST},
    {{"cputiming", no_argument, 0, OPT_CPUTIMING}, UMB_DRIVE_HOST},
    {{"counters", no_argument, 0, OPT_COUNTERS}, 0},
    {{"help", no_argument, 0, 'h'}, 0},
    {{"version", no_argument, 0, 'v'}, 0},
    {{"check-options", no_argument, 0, OPT_CHECK_OPTIONS}, 0},
    {{"op", required_argument, 0, OPT_OP}, UMB_DRIVE_KERNEL},
    {{"grid", required_argument, 0, OPT_GRID}, UMB_DRIVE_KERNEL},
    {{"block", required_argument, 0, OPT_BLOCK}, UMB_DRIVE_KERNEL},
    {{"allow-oversubscription", no_argument, 0, OPT_ALLOW}, UMB_DRIVE_KERNEL},
};
#define NCOMMON (sizeof common / sizeof common[0])

static unsigned groups(const umb_drive_cli *cli) { return cli->common ? cli->common : UMB_DRIVE_COPY; }

/* The getopt tables: the common options the driver takes, then its own. */
static void option_table(const umb_drive_cli *cli, struct option *opts, size_t max, char *shorts, size_t ns)
{
    unsigned g = groups(cli);
    size_t k = 0;
    for (size_t i = 0; i < NCOMMON; i++)
        if (!common[i].group || (g & common[i].group)) opts[k++] = common[i].o;
    for (const struct option *o = cli->own; o && o->name && k < max - 1; o++) opts[k++] = *o;
    memset(&opts[k], 0, sizeof opts[k]);
    snprintf(shorts, ns, ":hvU%s%s%s", g & UMB_DRIVE_REPEAT ? "r:" : "", g & UMB_DRIVE_SIZES ? "m:" : "",
             cli->own_short ? cli->own_short : "");
}

static int parse_device(umb_drive *d, const umb_drive_cli *cli, const char *a, char *err, size_t n)
{
    long v;
    int all = groups(cli) & UMB_DRIVE_ALL;
    if (all && !strcmp(a, "all")) d->all_devices = 1;
    else if (umb_parse_long(a, 0, 1023, &v))
        return umb_errf(err, n, "--device %s: expected a GPU index 0..1023%s", a, all ? " or all" : "");
    else d->device = (int)v, d->all_devices = 0;
    return 0;
}

/* A kernel: --op, --grid blocks, --block threads per block. */
static int parse_kernel(umb_drive *d, int c, const char *a, char *err, size_t n)
{
    long v;
    if (c == OPT_OP) {
        if (!strcmp(a, "read")) d->op = UMB_OP_READ;
        else if (!strcmp(a, "write")) d->op = UMB_OP_WRITE;
        else return umb_errf(err, n, "--op %s: expected read or write", a);
    } else if (c == OPT_GRID) {
        if (umb_parse_long(a, 1, 1L << 20, &v)) return umb_errf(err, n, "--grid %s: expected blocks from 1 to 1048576", a);
        d->grid = (unsigned)v;
    } else {
        if (umb_parse_long(a, 32, 1024, &v) || v % 32)
            return umb_errf(err, n, "--block %s: expected threads per block, a multiple of 32 from 32 to 1024", a);
        d->block = (unsigned)v;
    }
    return 0;
}

/* One common option: 0, 1 with the line in err, or -1 when c is none. */
static int common_opt(umb_drive *d, const umb_drive_cli *cli, int c, const char *name, const char *a,
                      umb_drive_size_args *sz, char *err, size_t n)
{
    long v, max = cli->repeat_max > 0 ? cli->repeat_max : 100000;
    switch (c) {
    case 'm': sz->m = a; return 0;
    case OPT_SIZE: sz->size = a; return 0;
    case OPT_START: sz->start = a; return 0;
    case OPT_END: sz->end = a; return 0;
    case OPT_STEP: sz->step = a; return 0;
    case OPT_GROW: sz->grow = a; return 0;
    case OPT_FACTOR_RENAMED:
        return umb_errf(err, n, "--factor %s: a size range grows with --grow F (--factor is only umb_oversub's factor of free GPU memory)", a);
    case OPT_DEVICE: return parse_device(d, cli, a, err, n);
    case OPT_NUMA:
        if (umb_parse_long(a, 0, 1023, &v)) return umb_errf(err, n, "--numa-node %s: expected a NUMA node number 0..1023", a);
        d->numa_node = (int)v;
        return 0;
    case OPT_FORMAT: return umb_format_parse(a, &d->format, err, n);
    case OPT_UNITS:
        if (!strcasecmp(a, "GB") || !strcasecmp(a, "GB/s")) d->gib = 0;
        else if (!strcasecmp(a, "GiB") || !strcasecmp(a, "GiB/s")) d->gib = 1;
        else return umb_errf(err, n, "--units %s: accepted: GB (10^9 bytes/s), GiB (2^30 bytes/s)", a);
        return 0;
    case 'r': case OPT_REPEAT:
        if (umb_parse_long(a, 1, max, &v)) return umb_errf(err, n, "%s %s: repetitions must be an integer from 1 to %ld", name, a, max);
        d->repeat = v;
        return 0;
    case OPT_FLUSH: d->flush = 1; return 0;
    case OPT_CPUTIMING: d->cputiming = 1; return 0;
    case OPT_OP: case OPT_GRID: case OPT_BLOCK: return parse_kernel(d, c, a, err, n);
    case OPT_ALLOW: d->allow_oversub = 1; return 0;
    case 'U': case OPT_COUNTERS: d->counters = 1; return 0;
    case 'h': d->help = 1; return 0;
    case 'v': d->version = 1; return 0;
    case OPT_CHECK_OPTIONS: d->check_only = 1; return 0;
    }
    return -1;
}

int umb_drive_parse(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv, char *err, size_t n)
{
    struct option opts[NCOMMON + 32];
    char shorts[64];
    umb_drive_size_args sz = {0};
    memset(d, 0, sizeof *d);
    d->numa_node = -1;
    d->repeat = cli->repeat > 0 ? cli->repeat : 10;
    err[0] = '\0';
    option_table(cli, opts, sizeof opts / sizeof opts[0], shorts, sizeof shorts);

    optind = 0;
    opterr = 0;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, shorts, opts, &li)) != -1) {
        char name[48];
        if (li >= 0) snprintf(name, sizeof name, "--%s", opts[li].name);
        else snprintf(name, sizeof name, "-%c", c);
        li = -1;
        if (c == ':') return umb_errf(err, n, "option %s needs a value; see %s -h", argv[optind - 1], cli->program);
        /* A long option given a value it does not take ("--flush=1"): getopt
           names it by its val, a known short letter or no letter at all. */
        if (c == '?' && umb_getopt_no_value(optopt, shorts + 1))
            return umb_errf(err, n, "%s: takes no value; see %s -h", argv[optind - 1], cli->program);
        if (c == '?' && optopt) return 1 + umb_errf(err, n, "unknown option -%c", optopt);
        if (c == '?') return 1 + umb_errf(err, n, "unknown option %s", argv[optind - 1]);
        int r = common_opt(d, cli, c, name, optarg, &sz, err, n);
        if (r > 0) return 1;
        if (r < 0 && (!cli->own_parse || cli->own_parse(cli->ctx, c, name, optarg, err, n))) {
            if (!err[0]) umb_errf(err, n, "unknown option %s", name);
            return 1;
        }
    }
    if (d->help || d->version) return 0;
    if (optind < argc) return umb_errf(err, n, "unexpected argument '%s'; see %s -h", argv[optind], cli->program);
    return groups(cli) & UMB_DRIVE_SIZES ? umb_drive_sizes(d, cli->quick, &sz, err, n) : 0;
}

void umb_drive_usage(const umb_drive_cli *cli, FILE *f)
{
    unsigned g = groups(cli);
    fprintf(f, "Usage: %s [options]\n%s\n\n%s", cli->program, cli->summary, cli->own_usage ? cli->own_usage : "");
    if (g & UMB_DRIVE_SIZES)
        fprintf(f,
            "Sizes (K, M, G = 2^10, 2^20, 2^30; each from 1 byte to 2^50, 1 PiB):\n"
            "  -m MIN:MAX                    as the MPI programs take it (also -m MAX, -m MIN:; MIN default 1,\n"
            "                                MAX the largest quick size): MIN, the powers of two between, MAX\n"
            "      --size LIST|quick         sizes, comma-separated (default quick: %s)\n"
            "      --start S --end E         a range from S to E, with\n"
            "      --step B | --grow F       B bytes apart, or each F times the last, then E\n"
            "                                (default: grow 2, the powers of two between)\n", cli->quick);
    fprintf(f, "Common options:\n%s", g & UMB_DRIVE_ALL ? "      --device N|all            GPU N (default 0) or every GPU\n"
                                                      : "      --device N                GPU N (default 0)\n");
    if (g & UMB_DRIVE_HOST)
        fprintf(f, "      --numa-node N             run on NUMA node N and allocate host memory there (libnuma)\n");
    if ((g & UMB_DRIVE_REPEAT) && cli->repeat_max > 0)
        fprintf(f, "  -r, --repeat N                timed repetitions, 1 to %ld (default %d)\n", cli->repeat_max,
                cli->repeat > 0 ? cli->repeat : 10);
    else if (g & UMB_DRIVE_REPEAT)
        fprintf(f, "  -r, --repeat N                timed repetitions per size (default %d)\n", cli->repeat > 0 ? cli->repeat : 10);
    if (g & UMB_DRIVE_HOST)
        fprintf(f, "      --flush                   evict the CPU caches between repetitions (untimed)\n"
                   "      --cputiming               also time each repetition with the host clock\n");
    if (g & UMB_DRIVE_KERNEL)
        fprintf(f, "      --op read|write           what the kernel does to every byte it touches (default read)\n"
                   "      --grid N, --block N       kernel shape (default: full occupancy, 256 threads)\n"
                   "      --allow-oversubscription  allow managed memory above the GPU's free memory (refused otherwise)\n");
    fprintf(f, "  -U, --counters                unified-memory counters per row (CUPTI): bytes migrated each way,\n"
               "                                GPU and CPU page faults, over the timed repetitions, placement apart\n");
    if (g & UMB_DRIVE_UNITS) fprintf(f, "      --units GB|GiB            GB/s = 10^9 bytes/s (default) or GiB/s = 2^30\n");
    fprintf(f, "      --format table|csv|json   output format (default table; json: one object per line)\n"
               "      --check-options           check the options and exit: 0, or 1 and the one line (no GPU)\n"
               "  -h, --help                    this text;  -v, --version  the version\n%s\n",
            cli->exit_usage ? cli->exit_usage
                            : "Exit status: 0 ok, 1 bad input, error or a figure above the link limit, 2 validation failed, 77 no GPU.");
}

int umb_numa_check(int node, char *err, size_t n)
{
    char why[256];
    if (!umb_numa_node_check(node, why, sizeof why)) return 0;
    return umb_errf(err, n, "--numa-node %d: %s", node, why);
}

void *umb_host_alloc(size_t bytes, int node)
{
    if (!bytes) bytes = 1;
    if (node >= 0) return umb_numa_alloc(bytes, node);  /* mmap: page aligned */
    size_t rounded = (bytes + 4095) / 4096 * 4096;
    return aligned_alloc(4096, rounded);
}

void umb_host_free(void *p, size_t bytes, int node)
{
    if (!p) return;
    if (node >= 0) umb_numa_free(p, bytes);
    else free(p);
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

const char *umb_drive_unit(const umb_drive *d) { return d->gib ? "GiB/s" : "GB/s"; }
double umb_drive_unit_bytes(const umb_drive *d) { return d->gib ? UMB_GIB : UMB_GB; }

/* One line, "PROGRAM: ...", and the exit. */
static void die(const umb_drive_cli *cli, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
static void die(const umb_drive_cli *cli, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", cli->program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

/* The GPUs in use; one made current where the driver takes only one. */
static void choose_gpus(umb_drive *d, const umb_drive_cli *cli, int gpus)
{
    if (!d->all_devices && d->device >= gpus)
        die(cli, UMB_EXIT_USAGE, "--device %d: this machine has %d GPU(s), numbered 0..%d", d->device, gpus, gpus - 1);
    d->ndevices = 0;
    for (int g = 0; g < gpus && g < UMB_DRIVE_MAX_GPUS; g++)
        if (d->all_devices || g == d->device) d->devices[d->ndevices++] = g;
    if (!(groups(cli) & UMB_DRIVE_ALL)) umb_gpu_use(d->device);
}

void umb_drive_start(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv)
{
    char err[512], why[512];
    umb_output_require(cli->program);
    umb_error_context(cli->program, -1, NULL);
    int bad = umb_drive_parse(d, cli, argc, argv, err, sizeof err);
    /* --check-options answers as the MPI programs do: -h and -v measure nothing. */
    if (!bad && d->check_only && (d->help || d->version))
        die(cli, UMB_EXIT_USAGE, "%s prints the %s and measures nothing", d->help ? "-h (--help)" : "-v (--version)",
            d->help ? "usage" : "version");
    if (!bad && d->help) {
        umb_drive_usage(cli, stdout);
        exit(umb_output_end(cli->program, UMB_FMT_TABLE, 0, 0));
    }
    if (!bad && d->version) {
        printf("%s (umbench) %s\n", cli->program, PACKAGE_VERSION);
        exit(umb_output_end(cli->program, UMB_FMT_TABLE, 0, 0));
    }
    if (!bad && cli->own_check) bad = cli->own_check(cli->ctx, err, sizeof err);
    if (bad == 2) {
        fprintf(stderr, "%s: %s\n", cli->program, err);
        umb_drive_usage(cli, stderr);
        exit(UMB_EXIT_USAGE);
    }
    if (bad) die(cli, UMB_EXIT_USAGE, "%s", err);
    if (d->numa_node >= 0 && umb_numa_check(d->numa_node, err, sizeof err)) die(cli, UMB_EXIT_USAGE, "%s", err);
    if (d->check_only) exit(umb_output_end(cli->program, UMB_FMT_TABLE, 0, 0));  /* the verdict, as the MPI programs' */
    int gpus = umb_gpu_count(why, sizeof why);
    if (d->counters) umb_drive_counters_start(cli->program, d->counters_note, sizeof d->counters_note);
    if (gpus <= 0) die(cli, UMB_EXIT_SKIP, "needs a CUDA GPU, but this machine has none: %s", why);
    choose_gpus(d, cli, gpus);
    /* CPUs of the node, and every later host allocation preferred there
       (cudaMallocHost and the driver's own pinned buffers included). */
    if (d->numa_node >= 0) {
        if (umb_numa_run_on(d->numa_node) != 0) {
            snprintf(why, sizeof why, "cannot run on NUMA node %d: %s", d->numa_node, strerror(errno));
            umb_fatal("numa_run_on_node", __FILE__, __LINE__, why);
        }
        umb_numa_prefer(d->numa_node);
    }
}
