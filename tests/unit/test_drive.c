/* The single-node drivers' command line: sizes (list, quick, ranges),
   --device, --numa-node, --units, --repeat, the program's own options,
   bad values naming themselves; a kernel driver's groups (umb_um's and
   umb_oversub's: --op, --grid, --block, one GPU, its own --size and -f);
   the usage of each; host memory and the NUMA seam. */
#include "drive.h"
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

enum { OPT_COLOR = 1000 };
static int color;
static int own(void *ctx, int val, const char *name, const char *arg, char *err, size_t n)
{
    (void)ctx;
    if (val == OPT_COLOR && (!strcmp(arg, "red") || !strcmp(arg, "blue"))) {
        color = arg[0];
        return 0;
    }
    snprintf(err, n, "%s %s: accepted: red, blue", name, arg);
    return 1;
}
static const struct option own_opts[] = {{"color", required_argument, 0, OPT_COLOR}, {0, 0, 0, 0}};
static const umb_drive_cli cli = {
    .program = "umb_test", .summary = "test", .quick = "4K,1M,256M", .repeat = 7,
    .own = own_opts, .own_parse = own,
};

/* A kernel driver: repeat and kernel groups, its own --size and -f. */
enum { OPT_KSIZE = 1000 };
static size_t ksize;
static int full;
static int kown(void *ctx, int val, const char *name, const char *arg, char *err, size_t n)
{
    (void)ctx;
    if (val == 'f') return full = 1, 0;
    if (val == OPT_KSIZE && !umb_parse_bytes(arg, &ksize)) return 0;
    snprintf(err, n, "%s %s: expected bytes", name, arg);
    return 1;
}
static const struct option kown_opts[] = {{"size", required_argument, 0, OPT_KSIZE}, {"full", no_argument, 0, 'f'}, {0, 0, 0, 0}};
static const umb_drive_cli kcli = {
    .program = "umb_ktest", .summary = "kernel test", .repeat = 3, .repeat_max = 32,
    .common = UMB_DRIVE_REPEAT | UMB_DRIVE_KERNEL, .own = kown_opts, .own_short = "f", .own_parse = kown,
    .exit_usage = "Exit status: 0 ok.",
};

static char err[512];
static umb_drive d;
static const umb_drive_cli *in = &cli;

static int parse(const char *line)
{
    char copy[512], *argv[32];
    int argc = check_argv(line, copy, sizeof copy, argv);
    return umb_drive_parse(&d, in, argc, argv, err, sizeof err);
}

static void bad(const char *line, const char *names)
{
    int rc = parse(line);
    CHECK(rc == 1 || (rc == 2 && strstr(err, "unknown option")));
    CHECK_CONTAINS(err, names);
    CHECK(strchr(err, '\n') == NULL);
}

/* Every range, accepted or not: a refusal names the options it read and
   what is accepted, as every other refusal does ("too many sizes" named
   neither). */
static void ranges(void)
{
    static const char *const ends[] = {"4K", "4097", "8191", "1M", "64M", "1G", "1048576G"};
    static const char *const bys[] = {"--step 1", "--step 3", "--step 1K", "--grow 1.0001", "--grow 1.001", "--grow 1.5"};
    for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++)
        for (size_t b = 0; b < sizeof bys / sizeof bys[0]; b++) {
            char line[128];
            snprintf(line, sizeof line, "--start 1 --end %s %s", ends[e], bys[b]);
            if (parse(line) == 0) continue;
            CHECK_CONTAINS(err, "--start 1 --end ");
            CHECK_CONTAINS(err, bys[b][2] == 's' ? "--step" : "--grow");
            CHECK_CONTAINS(err, "accepted: at most 4096 sizes");
        }
}

static void usage_of(const umb_drive_cli *c, char *buf, size_t n)
{
    FILE *f = fmemopen(buf, n, "w");
    umb_drive_usage(c, f);
    fclose(f);
}

/* umb_um's and umb_oversub's command line: what they take, what not. */
static void kernel_driver(void)
{
    char u[8192];
    in = &kcli;
    CHECK(parse("") == 0 && d.repeat == 3 && d.nsizes == 0 && d.op == UMB_OP_READ && !d.grid && !d.block);
    CHECK(parse("--size 1G -f --op write --grid 64 --block 128 --allow-oversubscription -r 32 --device 2 -U") == 0);
    CHECK(ksize == (size_t)1 << 30 && full && d.op == UMB_OP_WRITE && d.grid == 64 && d.block == 128);
    CHECK(d.allow_oversub && d.repeat == 32 && d.device == 2 && d.counters && d.nsizes == 0);
    CHECK(parse("--repeat 1 --format json") == 0 && d.repeat == 1 && d.format == UMB_FMT_JSON);
    bad("--repeat 33", "--repeat 33: repetitions must be an integer from 1 to 32");
    bad("--repeat 0", "--repeat 0");
    bad("--device all", "--device all");
    CHECK(!strstr(err, "or all"));
    bad("--op copy", "--op copy");
    bad("--grid 0", "--grid 0");
    bad("--block 100", "--block 100");
    bad("--size lots", "--size lots");
    bad("--units GiB", "unknown option --units");
    bad("--numa-node 0", "unknown option --numa-node");
    bad("--flush", "unknown option --flush");
    bad("--start 1K", "unknown option --start");
    bad("-m 1K:8K", "unknown option -m");
    bad("--matrix=1", "unknown option --matrix=1");
    bad("--allow-oversubscription=1", "--allow-oversubscription=1: takes no value");
    bad("--full=1", "--full=1: takes no value");
    in = &cli;
    bad("--op read", "unknown option --op");
    bad("--grid 4", "unknown option --grid");
    bad("-f", "unknown option -f");
    bad("--flush=1", "--flush=1: takes no value");
    bad("--help=1", "--help=1: takes no value");
    bad("-x", "unknown option -x");

    usage_of(&kcli, u, sizeof u);
    CHECK_CONTAINS(u, "Usage: umb_ktest [options]\nkernel test\n");
    CHECK_CONTAINS(u, "-r, --repeat N                timed repetitions, 1 to 32 (default 3)");
    CHECK_CONTAINS(u, "--op read|write");
    CHECK_CONTAINS(u, "--allow-oversubscription");
    CHECK_CONTAINS(u, "--device N                GPU N (default 0)");
    CHECK_CONTAINS(u, "Exit status: 0 ok.\n");
    CHECK(!strstr(u, "--units") && !strstr(u, "--size LIST") && !strstr(u, "--numa-node") && !strstr(u, "--flush"));
    usage_of(&cli, u, sizeof u);
    CHECK_CONTAINS(u, "--size LIST|quick         sizes, comma-separated (default quick: 4K,1M,256M)");
    CHECK_CONTAINS(u, "--device N|all");
    CHECK_CONTAINS(u, "-r, --repeat N                timed repetitions per size (default 7)");
    CHECK_CONTAINS(u, "--units GB|GiB");
    CHECK_CONTAINS(u, "Exit status: 0 ok, 1 bad input, error or a figure above the link limit");
    CHECK(!strstr(u, "--op") && !strstr(u, "--grid"));
}

/* Host memory and the NUMA seam: libnuma's answers, or the stand-in's. */
static void numa(void)
{
    char why[256];
    void *p = umb_host_alloc(5000, -1);
    CHECK(p && (uintptr_t)p % 4096 == 0);
    memset(p, 1, 5000);
    umb_host_free(p, 5000, -1);
    CHECK(umb_numa_check(100000, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "--numa-node 100000: ");
    CHECK(strchr(err, '\n') == NULL);
    int max = umb_numa_max_node();
    if (!umb_numa_built()) {
        CHECK(max == -1 && umb_numa_node_of_cpu(0) == -1);
        CHECK(umb_numa_node_check(0, why, sizeof why) == 1);
        CHECK_CONTAINS(why, "no libnuma");
        CHECK(umb_numa_alloc(4096, 0) == NULL && umb_numa_run_on(0) == -1);
        return;
    }
    if (max < 0) {  /* libnuma, but no NUMA here (a container, say) */
        CHECK(umb_numa_node_check(0, why, sizeof why) == 1);
        CHECK_CONTAINS(why, "NUMA is not available");
        return;
    }
    CHECK(umb_numa_node_check(max + 1, why, sizeof why) == 1);
    CHECK_CONTAINS(why, "no such NUMA node with memory");
    int node = umb_numa_node_of_cpu(0);
    CHECK(node >= 0 && node <= max);
    if (node >= 0 && umb_numa_node_check(node, why, sizeof why) == 0) {
        p = umb_host_alloc(5000, node);
        CHECK(p && (uintptr_t)p % 4096 == 0);
        if (p) memset(p, 1, 5000);
        umb_host_free(p, 5000, node);
    }
}

static int sizes_are(const size_t *want, int n)
{
    if (d.nsizes != n) return 0;
    for (int i = 0; i < n; i++)
        if (d.sizes[i] != want[i]) return 0;
    return 1;
}

int main(void)
{
    /* Defaults: quick sizes, GPU 0, no NUMA binding, GB/s, table. */
    CHECK(parse("") == 0);
    CHECK(sizes_are((size_t[]){4096, 1 << 20, 256 << 20}, 3));
    CHECK(d.device == 0 && !d.all_devices && d.numa_node == -1 && !d.gib && d.format == UMB_FMT_TABLE);
    CHECK(d.repeat == 7 && !d.flush && !d.cputiming);
    CHECK_CONTAINS(d.sizes_given, "quick");

    CHECK(parse("--size quick") == 0 && d.nsizes == 3);
    CHECK(parse("--size 1G") == 0 && sizes_are((size_t[]){(size_t)1 << 30}, 1));
    CHECK(parse("--size 8,4K,2M") == 0 && sizes_are((size_t[]){8, 4096, 2 << 20}, 3));

    /* Ranges: grow (default 2: start, the powers of two between, end), step, a
       non-integer growth; the end is measured also where no step lands on it. */
    CHECK(parse("--start 1K --end 8K") == 0 && sizes_are((size_t[]){1024, 2048, 4096, 8192}, 4));
    CHECK(parse("--start 1K --end 5K --grow 2") == 0 && sizes_are((size_t[]){1024, 2048, 4096, 5120}, 4));
    CHECK(parse("--start 3 --end 100") == 0 && sizes_are((size_t[]){3, 4, 8, 16, 32, 64, 100}, 7));
    CHECK(parse("--start 5 --end 7") == 0 && sizes_are((size_t[]){5, 7}, 2));
    CHECK(parse("--start 1M --end 4M --step 1M") == 0 &&
          sizes_are((size_t[]){1 << 20, 2 << 20, 3 << 20, 4 << 20}, 4));
    CHECK(parse("--start 1K --end 8K --step 3K") == 0 && sizes_are((size_t[]){1024, 4096, 7168, 8192}, 4));
    CHECK(parse("--start 100 --end 300 --grow 1.5") == 0 && sizes_are((size_t[]){100, 150, 225, 300}, 4));
    /* Up to the most a driver takes (2^50), and the end is the last size;
       past it, refused before the sizes are listed (issue 66). */
    CHECK(parse("--start 1 --end 1125899906842624") == 0 && d.nsizes == 51 && d.sizes[50] == (size_t)1 << 50);
    CHECK(parse("--start 1125899906842000 --end 1125899906842624 --step 512") == 0 &&
          sizes_are((size_t[]){1125899906842000, 1125899906842512, 1125899906842624}, 3));
    CHECK(parse("--start 1 --end 18446744073709551615") == 1);
    CHECK_CONTAINS(err, "size 18446744073709551615 bytes (1 to 18446744073709551615, grow 2): above the most a driver takes; accepted: 1 to 1125899906842624");
    CHECK(parse("--start 1 --end 1125899906842625") == 1 && parse("--size 4K,1125899906842625") == 1);
    CHECK(parse("-m 1:1125899906842625") == 1 && parse("-m 1125899906842624") == 0);
    /* The rule of the sizes between, near SIZE_MAX: no size wraps. */
    CHECK(umb_size_after(SIZE_MAX - 615, SIZE_MAX, 512, 0) == SIZE_MAX - 103 && umb_size_after(SIZE_MAX - 103, SIZE_MAX, 512, 0) == SIZE_MAX);
    CHECK(umb_size_after(((size_t)1 << 63) + 1, SIZE_MAX, 0, 3) == SIZE_MAX && umb_size_after((size_t)1 << 63, SIZE_MAX, 0, 2) == SIZE_MAX);
    CHECK(parse("--start 1 --end 3 --grow 1.01") == 0 && sizes_are((size_t[]){1, 2, 3}, 3));
    CHECK(parse("--start 4K --end 4K") == 0 && sizes_are((size_t[]){4096}, 1));
    CHECK(parse("--start 1G --end 1G") == 0 && d.sizes[0] == (size_t)1 << 30);
    CHECK(parse("--start 1 --end 64G") == 0 && d.nsizes == 37);
    CHECK_CONTAINS(d.sizes_given, "1 to 64G");
    /* -m as the MPI programs take it: MIN:MAX, MAX (from 1), MIN: (to the
       largest quick size, 256M here); the powers of two between. */
    CHECK(parse("-m 1K:8K") == 0 && sizes_are((size_t[]){1024, 2048, 4096, 8192}, 4));
    CHECK_CONTAINS(d.sizes_given, "-m 1K:8K (1024 to 8192");
    CHECK(parse("-m 3:100") == 0 && sizes_are((size_t[]){3, 4, 8, 16, 32, 64, 100}, 7));
    CHECK(parse("-m 4") == 0 && sizes_are((size_t[]){1, 2, 4}, 3));
    CHECK(parse("-m 64M:") == 0 && sizes_are((size_t[]){64 << 20, 128 << 20, 256 << 20}, 3));
    CHECK(parse("-m 4K:4K") == 0 && sizes_are((size_t[]){4096}, 1));

    CHECK(parse("--device all") == 0 && d.all_devices);
    CHECK(parse("--device 3") == 0 && d.device == 3 && !d.all_devices);
    CHECK(parse("--numa-node 1") == 0 && d.numa_node == 1);
    CHECK(parse("--units GiB --format json -r 3 --flush --cputiming") == 0);
    CHECK(d.gib && d.format == UMB_FMT_JSON && d.repeat == 3 && d.flush && d.cputiming);
    CHECK(!strcmp(umb_drive_unit(&d), "GiB/s") && umb_drive_unit_bytes(&d) == 1073741824.0);
    CHECK(parse("--units gb --repeat 100") == 0 && !d.gib && d.repeat == 100);
    CHECK(!strcmp(umb_drive_unit(&d), "GB/s") && umb_drive_unit_bytes(&d) == 1e9);  /* the rates' divisor (util/core/figures.h) */
    CHECK(parse("--color red") == 0 && color == 'r');
    CHECK(parse("-h") == 0 && d.help);
    CHECK(parse("--version") == 0 && d.version);

    bad("--size 0", "--size 0");
    bad("--size 4K,0", "--size 4K,0");
    bad("--size 4K,", "4K,");
    bad("--size lots", "--size lots");
    bad("--size 1X", "1X");
    bad("--size 4K --start 1K --end 2K", "not both");
    bad("-m 8K:1K", "-m 8K:1K: MIN (8192) is larger than MAX (1024)");
    /* A size twice, in any spelling, is refused where it is given (pass 13,
       kind 12: the readers refused the rows); -m's bounds as the MPI
       programs name them. */
    bad("--size 1G,1024M", "--size 1G,1024M: 1G and 1024M are the same size (1073741824 bytes)");
    bad("--size 4K,8K,4096", "4K and 4096 are the same size");
    CHECK(parse("--size 1G,1023M") == 0 && d.nsizes == 2);
    bad("-m 2000000000000000", "-m 2000000000000000: 2000000000000000 bytes is above 1125899906842624, the largest size accepted");
    bad("-m 2000000000000000:", "is above 1125899906842624, the largest");
    bad("-m 4G:", "-m 4G:: MIN (4294967296) is above the default MAX");
    bad("-m 0:1K", "-m 0:1K: expected MAX, MIN:MAX or MIN: in bytes from 1");
    bad("-m 0", "-m 0: expected");
    bad("-m :", "-m :: expected");
    bad("-m 1K:2X", "-m 1K:2X: expected");
    bad("-m 1K:8K --size 4K", "-m 1K:8K: give one of -m, --size or --start/--end");
    bad("-m 1K:8K --start 1K --end 2K", "give one of -m");
    bad("--start 1K", "--end");
    bad("--end 1K", "--start");
    bad("--start 0 --end 1K", "--start 0");
    bad("--start 8K --end 1K", "--end 1024");
    bad("--start 1K --end 8K --step 0", "--step 0");
    bad("--start 1K --end 8K --grow 1", "--grow 1");
    bad("--start 1K --end 8K --grow x", "--grow x");
    /* Each numeric option's message names the range its check accepts. */
    bad("--start 1K --end 8K --grow 1e10", "--grow 1e10: expected a number above 1 and at most 1000000");
    bad("--start 1K --end 99999999999999999999", "--end 99999999999999999999: expected bytes from 1 to 1125899906842624");
    bad("--start 1K --end 8K --step 99999999999999999999", "--step 99999999999999999999: expected bytes from 1 to 18446744073709551615");
    bad("--size 4K,99999999999999999999", "expected quick or bytes from 1 to 1125899906842624");
    bad("--start 1K --end 8K --step 1K --grow 2", "--step 1K --grow 2");
    bad("--start 1K --end 8K --factor 2", "--factor 2: a size range grows with --grow F");
    bad("--start 1 --end 100000 --step 1", "--start 1 --end 100000 --step 1: more than 4096 sizes; accepted: at most 4096");
    ranges();
    bad("--device gpu0", "--device gpu0");
    bad("--device -1", "--device -1");
    bad("--numa-node x", "--numa-node x");
    bad("--numa-node -2", "--numa-node -2");
    bad("--units MB", "--units MB");
    bad("--format xml", "--format xml");
    bad("--repeat 0", "--repeat 0");
    bad("-r 1000001", "-r 1000001");
    bad("--color green", "--color green");
    bad("--bogus", "unknown option --bogus");
    bad("stray", "stray");
    bad("--size", "needs a value");

    /* The PCIe limit itself: tests/unit/test_link.c. */

    kernel_driver();
    numa();
    return check_done("test_drive");
}
