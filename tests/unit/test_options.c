/* The option parser: defaults, every option, and bad values naming themselves. */
#include "options.h"
#include "watchdog.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

static const umb_cli cli = {
    .program = "umb_test", .summary = "test", .nbuffers = 2,
    .iters = 10000, .skip = 100, .iters_large = 1000, .skip_large = 10, .large_size = 8192,
    .max_size = 1 << 22, .buffers_per_rank = 2,
};
static const umb_cli bw_cli = {
    .program = "umb_bwtest", .summary = "test", .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = 1 << 22, .buffers_per_rank = 1, .window = 64,
};

static char err[512];

/* A program's own options (umb_cli.own_*): -q N and --quota N, as a family declares them. */
static long quota;
static int own_parse(int val, const char *a, char *err_, size_t n)
{
    if (val != 'q' || (strcmp(a, "1") && strcmp(a, "2"))) return umb_errf(err_, n, "-q %s: accepted: 1, 2", a);
    quota = atol(a);
    return 0;
}
static const struct option own_options[] = {{"quota", required_argument, 0, 'q'}, {0, 0, 0, 0}};
static const umb_cli own_cli = {
    .program = "umb_owntest", .summary = "test", .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = 1 << 22, .buffers_per_rank = 1,
    .own_options = own_options, .own_short = "q:", .own_parse = own_parse, .own_usage = "  -q N  a quota\n",
};

static int parse_with(const umb_cli *c, umb_options *o, const char *line)
{
    char copy[512], *argv[32];
    int argc = check_argv(line, copy, sizeof copy, argv);
    return umb_options_parse(o, c, argc, argv, err, sizeof err);
}

static int parse(umb_options *o, const char *line)
{
    char copy[512], *argv[32];
    int argc = check_argv(line, copy, sizeof copy, argv);
    return umb_options_parse(o, &cli, argc, argv, err, sizeof err);
}

/* A bad command line: rejected, and the message names the bad value. */
static void bad(const char *line, const char *names)
{
    umb_options o;
    int rc = parse(&o, line);
    CHECK(rc == 1 || (rc == 2 && strstr(err, "unknown option")));
    CHECK_CONTAINS(err, names);
    CHECK(strchr(err, '\n') == NULL);
}

/* The sizes umb_size_next gives from min to max are want[0..n-1]. */
static int sizes_are(size_t min, size_t max, const size_t *want, int n)
{
    size_t size = min;
    int i = 0;
    do {
        if (i >= n || size != want[i++]) return 0;
    } while (umb_size_next(&size, max) == 0);
    return i == n;
}

int main(void)
{
    umb_options o;

    CHECK(parse(&o, "") == 0);
    CHECK(o.min_size == 1 && o.max_size == (1 << 22));
    CHECK(o.iters == 10000 && o.skip == 100 && o.iters_large == 1000 && o.skip_large == 10);
    CHECK(o.nkinds == 2 && o.kinds[0] == UMB_H && o.kinds[1] == UMB_H);
    CHECK(o.format == UMB_FMT_TABLE && o.place_with == UMB_PLACE_KERNEL && o.place_when == UMB_PLACE_EACH);
    CHECK(o.device == -1 && o.timeout == 0 && o.advise == 0 && !o.validate && !o.full);
    CHECK(o.place_check == UMB_CHECK_ENFORCE && o.counters == UMB_COUNTERS_OFF);
    CHECK(parse(&o, "--place-check observe") == 0 && o.place_check == UMB_CHECK_OBSERVE);
    CHECK(parse(&o, "--place-check=off") == 0 && o.place_check == UMB_CHECK_OFF);
    CHECK(parse(&o, "--place-check enforce") == 0 && o.place_check == UMB_CHECK_ENFORCE);
    CHECK(o.loop == UMB_LOOP_AUTO);
    CHECK(parse(&o, "--loop handshake") == 0 && o.loop == UMB_LOOP_HANDSHAKE);
    CHECK(parse(&o, "--loop classic --place once MD MD") == 0 && o.loop == UMB_LOOP_CLASSIC);
    CHECK(parse(&o, "--loop classic MD MD") == 1 && strstr(err, "--loop classic") && strstr(err, "--place once"));
    CHECK(parse(&o, "--loop classic -c") == 1 && strstr(err, "-c"));
    CHECK(parse(&o, "--loop sometimes") == 1 && strstr(err, "auto, handshake, classic"));
    CHECK(parse(&o, "-U") == 0 && o.counters == UMB_COUNTERS_FULL);
    CHECK(parse(&o, "--counters") == 0 && o.counters == UMB_COUNTERS_FULL);
    CHECK(parse(&o, "--counters=full") == 0 && o.counters == UMB_COUNTERS_FULL);
    CHECK(parse(&o, "--counters=light MD MD") == 0 && o.counters == UMB_COUNTERS_LIGHT && o.kinds[1] == UMB_MD);

    CHECK(parse(&o, "MD MH") == 0);
    CHECK(o.kinds[0] == UMB_MD && o.kinds[1] == UMB_MH && !o.m_given);
    CHECK(parse(&o, "-f MD -c D") == 0);  /* options after positionals, as GNU getopt allows */
    CHECK(o.full && o.validate && o.kinds[0] == UMB_MD && o.kinds[1] == UMB_D);
    CHECK(parse(&o, "M P") == 0);
    CHECK(o.kinds[0] == UMB_MH && o.kinds[1] == UMB_P && o.m_given);
    CHECK(parse(&o, "H H M H MD MD") == 0 && o.m_given == 2u);  /* the M note is the second pair's alone */

    CHECK(parse(&o, "-m 64") == 0 && o.min_size == 1 && o.max_size == 64);
    CHECK(parse(&o, "-m 8:4K") == 0 && o.min_size == 8 && o.max_size == 4096);
    CHECK(parse(&o, "-m 1M:") == 0 && o.min_size == (1 << 20) && o.max_size == (1 << 22));
    CHECK(parse(&o, "-m 0:0") == 0 && o.min_size == 0 && o.max_size == 0);
    CHECK(parse(&o, "--message-size 2:2M") == 0 && o.min_size == 2 && o.max_size == (2 << 20));
    /* Precision: placed managed buffers without -i get the default; -i,
       --precision off, --place once and host buffers keep fixed counts. */
    long first, warm;
    CHECK(parse(&o, "MD MD") == 0 && umb_options_precision(&o) == UMB_DEFAULT_MANAGED_PRECISION);
    umb_iterations(&o, &cli, 1, &first, &warm);
    CHECK(first == UMB_PRECISION_FIRST_ITERS && warm == cli.skip);
    CHECK(parse(&o, "H MH") == 0 && umb_options_precision(&o) == UMB_DEFAULT_MANAGED_PRECISION);
    CHECK(parse(&o, "-i 50 MD MD") == 0 && umb_options_precision(&o) == 0);
    CHECK(parse(&o, "--precision off MD MD") == 0 && umb_options_precision(&o) == 0);
    umb_iterations(&o, &cli, 1, &first, &warm);
    CHECK(first == cli.iters);
    CHECK(parse(&o, "--place once MD MD") == 0 && umb_options_precision(&o) == 0);
    CHECK(parse(&o, "H H") == 0 && umb_options_precision(&o) == 0);
    CHECK(parse(&o, "--precision 5% H H") == 0 && umb_options_precision(&o) == 0.05 && o.size_budget == UMB_DEFAULT_SIZE_BUDGET);
    CHECK(parse(&o, "--precision 0.5 --size-budget 1.5 -i 7 H H") == 0 && umb_options_precision(&o) == 0.005 && o.size_budget == 1.5);
    umb_iterations(&o, &cli, 1, &first, &warm);
    CHECK(first == 7);  /* -i: the first attempt */
    /* --launch-budget: none unless given; given, it leaves --size-budget as it was. */
    CHECK(parse(&o, "--precision 5% H H") == 0 && o.launch_budget == 0);
    CHECK(parse(&o, "--precision 5% --launch-budget 12.5 H H") == 0 && o.launch_budget == 12.5 && o.size_budget == UMB_DEFAULT_SIZE_BUDGET);
    CHECK(parse(&o, "--precision 101%") == 1 && strstr(err, "--precision 101%") && strstr(err, "off"));
    CHECK(parse(&o, "-i 5 -x 0") == 0 && o.iters == 5 && o.iters_large == 5 && o.skip == 0 && o.skip_large == 0);
    CHECK(parse(&o, "--iterations=7 --warmup=3") == 0 && o.iters == 7 && o.skip == 3);
    CHECK(parse(&o, "--full --validation") == 0 && o.full && o.validate);
    CHECK(parse(&o, "--format json --place-with prefetch --place once") == 0);
    CHECK(o.format == UMB_FMT_JSON && o.place_with == UMB_PLACE_PREFETCH && o.place_when == UMB_PLACE_ONCE);
    /* The last one wins: umb-run's sets give --place-with prefetch, and the
       user's options come after them ("umb-run --set full -- --place-with kernel"). */
    CHECK(parse(&o, "--place-with prefetch --place-with kernel") == 0 && o.place_with == UMB_PLACE_KERNEL);
    CHECK(parse(&o, "--format csv") == 0 && o.format == UMB_FMT_CSV);
    CHECK(parse(&o, "--advise preferred=gpu,accessed-by=cpu,read-mostly") == 0);
    CHECK(o.advise == (UMB_ADV_PREFERRED_GPU | UMB_ADV_ACCESSED_BY_CPU | UMB_ADV_READ_MOSTLY));
    CHECK(parse(&o, "--advise none") == 0 && o.advise == 0);
    CHECK(parse(&o, "--device 3 --timeout 2.5") == 0 && o.device == 3 && o.timeout == 2.5);
    CHECK(parse(&o, "--assume-cuda-aware --allow-oversubscription") == 0);
    CHECK(o.assume_cuda_aware && o.allow_oversubscription);
    CHECK(parse(&o, "-M 1G -m 256M") == 0 && o.mem_limit == ((size_t)1 << 30));
    CHECK(parse(&o, "-h") == 0 && o.help);
    CHECK(parse(&o, "--version") == 0 && o.version);

    char adv[128];
    umb_advise_string(UMB_ADV_PREFERRED_CPU | UMB_ADV_ACCESSED_BY_GPU, adv, sizeof adv);
    CHECK(strcmp(adv, "preferred=cpu,accessed-by=gpu") == 0);
    umb_advise_string(0, adv, sizeof adv);
    CHECK(strcmp(adv, "none") == 0);

    bad("MX MD", "'MX'");
    bad("H md", "'md'");
    bad("H H H", "'H'");
    bad("-m 10:1", "-m 10:1");
    bad("-m abc", "-m abc");
    bad("-m 4X", "-m 4X");
    bad("-m :", "-m :");
    bad("-m 99999999999999999999", "-m 99999999999999999999");
    bad("-i -5", "-i -5");
    bad("-i 0", "-i 0");
    bad("-i 12abc", "-i 12abc");
    bad("-x -1", "-x -1");
    bad("--format xml", "--format xml");
    bad("--place-with magic", "--place-with magic");
    bad("--place sometimes", "--place sometimes");
    bad("--place-check always", "--place-check always");
    bad("--counters=heavy", "--counters=heavy");
    bad("--counters light", "--counters=light");  /* the mode must be attached */
    bad("--advise preferred=tpu", "preferred=tpu");
    bad("--advise preferred=cpu,preferred=gpu", "exclude");
    bad("--device -1", "--device -1");
    bad("--device x", "--device x");
    bad("--timeout -3", "--timeout -3");
    bad("--timeout soon", "--timeout soon");
    /* Below what the watchdog honours (it looks every 0.1 s; a start makes
       no marks for longer): refused with the range, as is above 1e6. */
    bad("--timeout 0.000001", "--timeout 0.000001: expected 0 (off) or seconds from 1 to 1000000");
    bad("--timeout 0.99", "--timeout 0.99: expected 0 (off) or seconds from 1 to 1000000");
    bad("--timeout 2e6", "--timeout 2e6");
    CHECK(parse(&o, "--timeout 1") == 0 && o.timeout == 1);
    CHECK(parse(&o, "--timeout 0") == 0 && o.timeout == 0);
    /* Its line: no rank -1 before MPI_Init, the limit as given (not 0 s). */
    char line[512];
    umb_watchdog_line(line, sizeof line, 1.5);
    CHECK_CONTAINS(line, "a rank before MPI_Init (no rank number yet): no progress for 1.5 s (--timeout) in setup");
    CHECK(!strstr(line, "rank -1") && !strstr(line, " 0 s"));
    umb_watchdog_where(3, "nodeA");
    umb_watchdog_line(line, sizeof line, 3);
    CHECK_CONTAINS(line, "rank 3 on nodeA: no progress for 3 s (--timeout)");
    /* Each numeric option's message names the range its check accepts. */
    bad("-i 0", "-i 0: iterations must be an integer from 1 to 100000000");
    bad("-x -1", "-x -1: warm-up iterations must be an integer from 0 to 100000000");
    bad("-M 0", "-M 0: memory limit per process must be a byte count from 1 to 1099511627776");
    bad("--size-budget 2e6", "--size-budget 2e6: expected seconds above 0 and at most 1000000");
    bad("--launch-budget 0", "--launch-budget 0: expected seconds above 0 and at most 1000000");
    bad("-m 99999999999999999999", "in bytes from 0 to 2147483647");
    /* Refusals name what was given (pass 13, kind 9): a MIN above the
       limit names the limit, not the default MAX it also passes; a bound
       not given is named as the default it is; an exponent is
       the form refused, not the range (1e-3 is above 0). */
    bad("-m 4294967296:", "-m 4294967296:: sizes above 2147483647 bytes are not supported by umb_test");
    bad("-m 2147483648:4G", "sizes above 2147483647 bytes");
    bad("-m 0", "-m 0: MAX (0) is below 1, the first size when MIN is not given");
    CHECK(parse(&o, "-m 0") == 1 && !strstr(err, "MIN ("));
    bad("-m 8M:", "-m 8M:: MIN (8388608) is above the default MAX (4194304)");
    bad("-m 8:4", "-m 8:4: MIN (8) is larger than MAX (4)");
    bad("--precision 1e-3%", "--precision 1e-3%: expected a percentage above 0 and at most 100 in plain digits");
    CHECK(parse(&o, "--precision 1e-3%") == 1 && strstr(err, "no sign, exponent or hex"));
    bad("--precision 0%", "--precision 0%: expected a percentage above 0 and at most 100");
    bad("-M 0", "-M 0");
    bad("-m 1G", "memory limit");
    bad("--bogus", "--bogus");
    bad("-q", "-q");
    bad("-i", "-i");

    /* -W: only where the program has a window; one buffer per slot when a
       buffer is managed or -c checks every message. */
    char *bw_argv[] = {"umb_bwtest", "-W", "8", "MD", "H", NULL};
    CHECK(umb_options_parse(&o, &bw_cli, 5, bw_argv, err, sizeof err) == 0 && o.window == 8);
    CHECK(umb_window_buffers(&o) == 8);
    char *bw_argv2[] = {"umb_bwtest", "H", "P", NULL};
    CHECK(umb_options_parse(&o, &bw_cli, 3, bw_argv2, err, sizeof err) == 0 && o.window == 64);
    CHECK(umb_window_buffers(&o) == 1);
    char *bw_argv3[] = {"umb_bwtest", "-c", NULL};
    CHECK(umb_options_parse(&o, &bw_cli, 2, bw_argv3, err, sizeof err) == 0 && umb_window_buffers(&o) == 64);
    char *bw_argv4[] = {"umb_bwtest", "-W", "0", NULL};
    CHECK(umb_options_parse(&o, &bw_cli, 3, bw_argv4, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "-W 0");
    /* 200 managed 4 MiB slots and their records fit 1G; with MD's host copies they do not. */
    char *bw_argv5[] = {"umb_bwtest", "-W", "200", "-M", "1G", "MH", "MD", NULL};
    char *bw_argv6[] = {"umb_bwtest", "-W", "200", "-M", "1G", "MH", "MH", NULL};
    CHECK(umb_options_parse(&o, &bw_cli, 7, bw_argv5, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "a rank needs 1677");
    CHECK_CONTAINS(err, "above the memory limit -M 1073741824");
    CHECK(umb_options_parse(&o, &bw_cli, 7, bw_argv6, err, sizeof err) == 0);
    bad("-W 4", "-W");  /* no window in umb_test */

    /* Collectives: per-rank kinds, OMB's -d, the root. */
    static const umb_cli coll_cli = {.program = "umb_colltest", .summary = "test", .iters = 1000, .skip = 200,
                                     .iters_large = 100, .skip_large = 10, .large_size = 8192, .max_size = 1 << 20,
                                     .buffers_per_rank = 2, .collective = 1, .min_size = 4};
    char *c1[] = {"umb_colltest", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 1, c1, err, sizeof err) == 0);
    CHECK(o.min_size == 4 && o.root == 0 && !o.root_rotate && o.root_kind == UMB_H && o.other_kind == UMB_H);
    CHECK(o.used_kinds == 1u << UMB_H);
    char *c2[] = {"umb_colltest", "-d", "managed", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 3, c2, err, sizeof err) == 0);
    CHECK(o.root_kind == UMB_MH && o.other_kind == UMB_MH && o.used_kinds == 1u << UMB_MH);
    char *c3[] = {"umb_colltest", "--root-buffer", "MD", "--buffer", "MH", "-k", "rotate", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 7, c3, err, sizeof err) == 0);
    CHECK(o.root_kind == UMB_MD && o.other_kind == UMB_MH && o.root_rotate);
    CHECK(o.used_kinds == (1u << UMB_MD | 1u << UMB_MH));
    char *c4[] = {"umb_colltest", "--buffers", "MD,H,M,P", "-k", "fixed:3", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 5, c4, err, sizeof err) == 0);
    CHECK(o.root == 3 && umb_list_length(o.buffer_list) == 4);
    umb_kind lk;
    CHECK(umb_list_kind(o.buffer_list, 2, &lk) == 0 && lk == UMB_MH);
    CHECK(umb_list_kind(o.buffer_list, 4, &lk) == -1);
    CHECK(o.used_kinds == (1u << UMB_MD | 1u << UMB_H | 1u << UMB_MH | 1u << UMB_P));
    char *c5[] = {"umb_colltest", "-m", "2:8", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 3, c5, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "multiple of 4");
    char *c6[] = {"umb_colltest", "--buffers", "MD,,H", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 3, c6, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "item 2");
    bad("--buffer MD", "--buffer");  /* not for point-to-point */

    /* Sizes: MIN, every power of two above MIN and below MAX, then MAX. */
    CHECK(sizes_are(3, 100, (size_t[]){3, 4, 8, 16, 32, 64, 100}, 7));
    CHECK(sizes_are(0, 4, (size_t[]){0, 1, 2, 4}, 4));
    CHECK(sizes_are(1, 1, (size_t[]){1}, 1));
    CHECK(sizes_are(4096, 4096, (size_t[]){4096}, 1));
    CHECK(sizes_are(5, 7, (size_t[]){5, 7}, 2));
    CHECK(sizes_are(1024, 8192, (size_t[]){1024, 2048, 4096, 8192}, 4));
    CHECK(sizes_are(((size_t)1 << 63) + 1, SIZE_MAX, (size_t[]){((size_t)1 << 63) + 1, SIZE_MAX}, 2));
    CHECK(sizes_are(SIZE_MAX - 1, SIZE_MAX, (size_t[]){SIZE_MAX - 1, SIZE_MAX}, 2));
    size_t last = 1;
    int count = 1;
    while (umb_size_next(&last, SIZE_MAX) == 0 && count < 100) count++;  /* 1, 2, ... 2^63, SIZE_MAX: no wrap */
    CHECK(count == 65 && last == SIZE_MAX);
    /* A reduction's MAX is measured, so it is a whole number of elements too. */
    char *c7[] = {"umb_colltest", "-m", "4:102", NULL};
    CHECK(umb_options_parse(&o, &coll_cli, 3, c7, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "MAX (102) must be a multiple of 4");
    CHECK(parse(&o, "-i 50 -x 5") == 0);
    long it, sk;
    umb_iterations(&o, &cli, 8192, &it, &sk);
    CHECK(it == 50 && sk == 5);
    CHECK(parse(&o, "") == 0);
    umb_iterations(&o, &cli, 8192, &it, &sk);
    CHECK(it == 10000 && sk == 100);
    umb_iterations(&o, &cli, 8193, &it, &sk);
    CHECK(it == 1000 && sk == 10);

    size_t v;
    CHECK(umb_parse_bytes("16K", &v) == 0 && v == 16384);
    CHECK(umb_parse_bytes("3G", &v) == 0 && v == ((size_t)3 << 30));
    CHECK(umb_parse_bytes("-1", &v) == -1);
    CHECK(umb_parse_bytes("", &v) == -1);

    /* One decimal reader for every number option (an adversarial pass,
       2026-11-28): plain digits and a point, an exponent where asked; none
       of strtod's other forms. */
    double d;
    CHECK(umb_parse_decimal("1.5", 0, &d) == 0 && d == 1.5 && umb_parse_decimal(".5", 0, &d) == 0 && d == 0.5);
    CHECK(umb_parse_decimal("2.", 0, &d) == 0 && d == 2 && umb_parse_decimal("1e3", 1, &d) == 0 && d == 1000);
    const char *not_decimal[] = {"0x10", "+3", " 3", "3 ", "-1", "inf", "nan", "1e3", "", ".", "1e", "0x0.8p0", "\xd9\xa3"};
    for (size_t i = 0; i < sizeof not_decimal / sizeof *not_decimal; i++)
        CHECK(umb_parse_decimal(not_decimal[i], 0, &d) == -1);
    CHECK(umb_parse_decimal("1e400", 1, &d) == -1 && umb_parse_decimal("1e+", 1, &d) == -1);
    /* Lists: an empty item is refused wherever it stands, where strtok dropped it. */
    char copy[64], *items[8];
    int nitems;
    CHECK(umb_list_items("a,b,c", copy, sizeof copy, items, 8, &nitems) == 0 && nitems == 3 && !strcmp(items[2], "c"));
    const char *holes[] = {"", ",a", "a,", "a,,b", ","};
    for (size_t i = 0; i < sizeof holes / sizeof *holes; i++)
        CHECK(umb_list_items(holes[i], copy, sizeof copy, items, 8, &nitems) == -1);
    /* More items than max, or more bytes than the copy holds: -2, a message of its own. */
    CHECK(umb_list_items("a,b,c", copy, sizeof copy, items, 2, &nitems) == -2);
    CHECK(umb_list_items("a,b,c", copy, 5, items, 8, &nitems) == -2 && umb_list_items("a,,cd", copy, 5, items, 8, &nitems) == -2);
    bad("--advise none,none,none,none,none,none,none,none,none,none,none,none,none,none,none,none,none",
        "--advise none,none,none,none,none,none,no...,none,none,none: more than 16 hints; each hint once");
    /* A value shown: a long one cut in its middle, so the reason stays in the
       line; control characters escaped (umb_shown, adversarial pass 12). */
    char shown[96];
    umb_shown("-m 12345678901234567890123456789012345678901234567890123456789012345: expected MAX", shown, sizeof shown);
    CHECK(!strcmp(shown, "-m 12345678901234567890123456789012...123456789012345: expected MAX"));
    umb_shown("--memory 1\n2\x1b[31m: unknown", shown, sizeof shown);
    CHECK(!strcmp(shown, "--memory 1\\x0a2\\x1b[31m: unknown"));
    umb_shown("0123456789", shown, 6);
    CHECK(!strcmp(shown, "01234"));
    CHECK(umb_list_items("a,b,a", copy, sizeof copy, items, 8, &nitems) == 0 && umb_list_repeat(items, nitems) == 2);
    CHECK(umb_list_items("a,b", copy, sizeof copy, items, 8, &nitems) == 0 && umb_list_repeat(items, nitems) == -1);

    umb_kind k;
    int was_m;
    for (int i = 0; i <= UMB_MD; i++) {  /* the MPI kinds, by either name */
        CHECK(umb_buffer_kind_parse(umb_kind_name((umb_kind)i), &k, &was_m) == 0 && k == (umb_kind)i && !was_m);
        CHECK(umb_buffer_kind_parse(umb_kind_long((umb_kind)i), &k, &was_m) == 0 && k == (umb_kind)i && !was_m);
    }
    CHECK(umb_buffer_kind_parse("M", &k, &was_m) == 0 && k == UMB_MH && was_m);
    CHECK(umb_buffer_kind_parse("WC", &k, &was_m) == -1 && umb_buffer_kind_parse("numa-host", &k, &was_m) == -1);
    CHECK(umb_kind_parse("write", UMB_KIND_BIT(UMB_WC), &k) == -1 && umb_kind_parse("wc", UMB_KIND_BIT(UMB_WC), &k) == 0);
    unsigned hints = 0;
    CHECK(umb_advise_parse("accessed-by,read-mostly", &hints, err, sizeof err) == 0
          && hints == (UMB_ADV_ACCESSED_BY_GPU | UMB_ADV_READ_MOSTLY));
    CHECK(umb_advise_parse("preferred=tpu", &hints, err, sizeof err) == 1 && strstr(err, "preferred=tpu"));
    CHECK(umb_advise_parse(",none", &hints, err, sizeof err) == 1 && strstr(err, "empty hint"));
    CHECK(umb_advise_parse("read-mostly,read-mostly", &hints, err, sizeof err) == 1 && strstr(err, "named twice"));
    CHECK(umb_advise_parse("none,read-mostly", &hints, err, sizeof err) == 1 && strstr(err, "none excludes"));
    /* Both buffer kinds or none (OMB): one alone ran as SRC H. */
    CHECK(parse(&o, "MD") == 1);
    CHECK_CONTAINS(err, "buffer 'MD' alone");
    CHECK(parse(&o, "--timeout 0x10") == 1 && parse(&o, "--timeout +3") == 1 && parse(&o, "--timeout 1e3") == 0);
    CHECK(parse(&o, "--precision 5") == 0 && parse(&o, "--precision 0x5%") == 1 && parse(&o, "--precision 1e1%") == 1);
    /* 1e-3% lies within the range: the refusal names the form (pass 13). */
    CHECK(parse(&o, "--precision 1e-3%") == 1 && strstr(err, "in plain digits"));
    CHECK(umb_kind_is_managed(UMB_MH) && umb_kind_is_managed(UMB_MD) && !umb_kind_is_managed(UMB_P));
    CHECK(!umb_kind_needs_gpu(UMB_H) && umb_kind_needs_gpu(UMB_P) && umb_kind_needs_gpu(UMB_D));
    /* Own options: parsed by the program's hook, beside the shared ones; unknown elsewhere. */
    CHECK(parse_with(&own_cli, &o, "-q 2 -m 8:16 MD H") == 0 && quota == 2 && o.max_size == 16 && o.kinds[0] == UMB_MD);
    CHECK(parse_with(&own_cli, &o, "--quota=1 -c") == 0 && quota == 1 && o.validate);
    CHECK(parse_with(&own_cli, &o, "-q 3") == 1);
    CHECK_CONTAINS(err, "-q 3: accepted: 1, 2");
    CHECK(parse_with(&own_cli, &o, "-q") == 1);
    CHECK_CONTAINS(err, "needs a value");
    CHECK(parse_with(&cli, &o, "-q 1") == 2);
    CHECK_CONTAINS(err, "unknown option -q");
    CHECK(parse_with(&cli, &o, "--quota 1") == 2);
    return check_done("test_options");
}
