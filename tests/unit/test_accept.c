/* Accepted means measurable (issue 66, class 1): for every MPI program's
   shape and every numeric option, edge values from 0 to past SIZE_MAX are
   either refused in one line naming the value, or give options the run can
   hold: MPI counts that fit an int, iteration arrays whose byte sizes and
   loop bounds do not overflow, buffers within the memory limit. */
#include "options.h"
#include "check.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>

/* The twelve programs' shapes (mpi/ * / *.c), with the layout their
   family's main sets (p2p.c, rma.c, coll.c): what the parser's rules read. */
#define P2P(name, per, w, gather) {.program = name, .summary = "t", .nbuffers = 2, .iters = 10000, .skip = 100, \
    .iters_large = 1000, .skip_large = 10, .large_size = 8192, .max_size = 1 << 22, .buffers_per_rank = per, .window = w, \
    .gathers = gather}
#define COLL(name, per, ranked, root, elem) {.program = name, .summary = "t", .iters = 1000, .skip = 200, \
    .iters_large = 100, .skip_large = 10, .large_size = 8192, .max_size = 1 << 20, .buffers_per_rank = per, \
    .rank_blocks = ranked, .rooted = root, .gathers = 1, .collective = 1, .min_size = elem}
static const umb_cli programs[] = {
    P2P("umb_latency", 2, 0, 0), P2P("umb_bw", 1, 64, 0), P2P("umb_bibw", 2, 64, 0), P2P("umb_mbw_mr", 1, 64, 1),
    P2P("umb_put_latency", 1, 0, 0), P2P("umb_get_latency", 1, 0, 0), P2P("umb_put_bw", 1, 64, 0),
    COLL("umb_bcast", 1, 0, 1, 0), COLL("umb_allreduce", 2, 0, 0, 4), COLL("umb_reduce", 2, 0, 1, 4),
    COLL("umb_allgather", 2, 1, 0, 0), COLL("umb_alltoall", 2, 2, 0, 0),
};
#define TOP "1024G"  /* -M's top */

static const char *const values[] = {
    "0", "1", "4", "65536", "65537", "100000000", "100000001", "715827882", "715827883",
    "2147483647", "2147483648", "2147483652", "4294967296", "4294967297", "8589934588", "8589934592",
    "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999999999999999999", "2G", "4G", "8G", "17179869184G",
};

/* Options that take a number, each as a program's command line has it. */
static const char *const options[] = {"-m", "-m 4:", "-i", "-x", "-W", "-k fixed:", "--device", "--timeout",
                                      "--size-budget", "--launch-budget", "--precision"};

/* The element size each program's MPI calls count: floats for the reductions. */
static size_t element_of(const umb_cli *c) { return strstr(c->program, "reduce") ? sizeof(float) : 1; }

static int device_copy(umb_kind k) { return k == UMB_D || k == UMB_MD; }

/* The least a rank of the fewest a launch has allocates, as the families
   and the harness do (p2p.c, rma.c, coll.c, buffer.c, bench.c), counted
   here on their own: whole pages per buffer, one per window slot where
   the slots have their own (-c or managed), a host copy of D and MD, 20
   bytes per timed iteration and rank 0's gather of every rank's times.
   In double: no sum wraps. */
static double least_held(const umb_cli *c, const umb_options *o)
{
    long most = o->iters > o->iters_large ? o->iters : o->iters_large;
    int nranks = c->collective ? 1 : 2, managed = umb_options_uses(o, umb_kind_is_managed);
    double page = 4096, buffer = ceil((double)(o->max_size ? o->max_size : 1) / page) * page;
    double slots = c->window > 0 && (o->validate || managed) ? o->window : 1;
    double blocks = (c->buffers_per_rank ? c->buffers_per_rank : 1) + c->rank_blocks * (nranks - 1);
    double held = buffer * slots * blocks * (umb_options_uses(o, device_copy) ? 2 : 1);
    return held + (20.0 + (c->gathers ? 8.0 * nranks : 0)) * (double)most;
}

/* What the run needs of parsed options (util/mpi/bench.c, p2p.c, coll.c,
   rma.c, observers): 0 when every need holds. */
static int unmeasurable(const umb_cli *c, const umb_options *o)
{
    size_t elem = element_of(c);
    long most_iters = o->iters > o->iters_large ? o->iters : o->iters_large;
    long most_skip = o->skip > o->skip_large ? o->skip : o->skip_large;
    if (o->max_size / elem > INT_MAX || o->min_size > o->max_size) return 1;  /* one MPI call's count */
    if (most_iters < 1 || most_skip < 0 || most_iters > INT_MAX / 3) return 2;  /* gathers of 1 and 3 ints per iteration */
    if (most_skip > LONG_MAX - most_iters) return 3;  /* the loops' skip + iters */
    long window = o->window > 0 ? o->window : 1;
    if (window > 65536 || (most_skip + most_iters) > LONG_MAX / window) return 4;  /* iteration * window + slot */
    if ((size_t)most_iters > SIZE_MAX / (64 * sizeof(double))) return 5;  /* the per-iteration arrays' bytes */
    if (o->mem_limit > ((size_t)1 << 40) || least_held(c, o) > o->mem_limit) return 6;
    if (!isfinite(o->timeout) || !isfinite(o->size_budget) || !isfinite(o->launch_budget) || o->root < 0) return 7;
    return 0;
}

static int parse_words(const umb_cli *c, umb_options *o, char **words, int n, char *err, size_t len)
{
    char *argv[16] = {(char *)"umb_test"};
    for (int i = 0; i < n; i++) argv[i + 1] = words[i];
    return umb_options_parse(o, c, n + 1, argv, err, len);
}

/* One option with one value, with room in -M so that only the value decides. */
static void try_one(const umb_cli *c, const char *option, const char *value)
{
    char opt[64], arg[128], err[512], mem[] = "-M", big[] = TOP;
    umb_options o;
    const char *space = strchr(option, ' ');
    snprintf(opt, sizeof opt, "%.*s", space ? (int)(space - option) : (int)strlen(option), option);
    snprintf(arg, sizeof arg, "%s%s", space ? space + 1 : "", value);
    char *words[] = {mem, big, opt, arg};
    int rc = parse_words(c, &o, words, 4, err, sizeof err);
    if (rc == 2 && !strcmp(opt, "-W") && !c->window) return;  /* no window: unknown option */
    if (rc == 1 && !strncmp(opt, "-k", 2) && !c->collective) return;  /* the collectives' option */
    if (rc) {
        CHECK(rc == 1 && !strchr(err, '\n'));
        if (!strstr(err, value)) fprintf(stderr, "%s %s %s: message does not name the value: %s\n", c->program, opt, arg, err);
        CHECK(strstr(err, value) != NULL);
        return;
    }
    int why = unmeasurable(c, &o);
    if (why) fprintf(stderr, "%s %s %s: accepted, but the run cannot hold it (need %d)\n", c->program, opt, arg, why);
    CHECK(why == 0);
}

/* The largest size each program runs, INT_MAX elements, is accepted; one
   element more is refused, naming the value and the range. */
static void largest_sizes(void)
{
    for (size_t p = 0; p < sizeof programs / sizeof *programs; p++) {
        const umb_cli *c = &programs[p];
        char most[32], past[32], err[512], mem[] = "-M", big[] = TOP, m[] = "-m";
        umb_options o;
        size_t largest = (size_t)INT_MAX * element_of(c);
        snprintf(most, sizeof most, "%zu", largest);
        snprintf(past, sizeof past, "%zu", largest + element_of(c));
        char *ok[] = {mem, big, m, most}, *bad[] = {mem, big, m, past};
        CHECK(parse_words(c, &o, ok, 4, err, sizeof err) == 0 && o.max_size == largest);
        CHECK(parse_words(c, &o, bad, 4, err, sizeof err) == 1);
        CHECK_CONTAINS(err, past);
        CHECK_CONTAINS(err, most);
    }
}

/* Over the option space that decides memory (sizes, window, iterations,
   -c, buffer kinds, -M): whatever the parser accepts is held within -M,
   by what the run allocates and by the sum it checks (umb_memory_need),
   and what it refuses is said in one line naming the limit. */
static void memory_space(void)
{
    static const char *const sizes[] = {"1", "4097", "1M", "1G", "2147483647"}, *const windows[] = {"1", "64", "65536"},
        *const iters[] = {"1", "1000000", "100000000"}, *const limits[] = {TOP, "512M", "64K"};
    static const char *const kinds[][2] = {{"H", "H"}, {"MH", "MH"}, {"D", "MD"}};
    static const char *const coll_kinds[][2] = {{"--buffer", "H"}, {"-d", "managed"}, {"--root-buffer", "D"}};
    long accepted = 0, refused = 0;
    for (size_t p = 0; p < sizeof programs / sizeof *programs; p++)
        for (size_t m = 0; m < 5; m++) for (size_t w = 0; w < 3; w++) for (size_t i = 0; i < 3; i++)
            for (int v = 0; v < 2; v++) for (size_t k = 0; k < 3; k++) for (size_t l = 0; l < 3; l++) {
                const umb_cli *c = &programs[p];
                if (!c->window && w) continue;
                char *words[16], err[512];
                int n = 0;
                words[n++] = (char *)"-M", words[n++] = (char *)limits[l], words[n++] = (char *)"-m";
                words[n++] = (char *)sizes[m], words[n++] = (char *)"-i", words[n++] = (char *)iters[i];
                if (c->window) words[n++] = (char *)"-W", words[n++] = (char *)windows[w];
                if (v) words[n++] = (char *)"-c";
                words[n++] = (char *)(c->collective ? coll_kinds : kinds)[k][0];
                words[n++] = (char *)(c->collective ? coll_kinds : kinds)[k][1];
                if (c->collective && k == 2) words[n++] = (char *)"-k", words[n++] = (char *)"rotate";
                umb_options o;
                int rc = parse_words(c, &o, words, n, err, sizeof err);
                if (rc) {
                    refused++;
                    CHECK(rc == 1 && !strchr(err, '\n'));
                    if (strstr(err, "a rank needs")) CHECK(strstr(err, "raise -M (at most 1099511627776)") != NULL);
                    continue;
                }
                accepted++;
                umb_memory need;
                umb_memory_need(&o, c, 0, &need);
                double least = least_held(c, &o);
                if (least > (double)o.mem_limit || need.total > o.mem_limit || (double)need.total < least)
                    fprintf(stderr, "%s -M %s -m %s -i %s -W %s%s %s %s: accepted; the run holds at least %.0f bytes, "
                            "the sum says %zu\n", c->program, limits[l], sizes[m], iters[i], c->window ? windows[w] : "-", v ? " -c" : "",
                            words[n - 2], words[n - 1], least, need.total);
                CHECK(least <= (double)o.mem_limit && need.total <= o.mem_limit && (double)need.total >= least);
            }
    CHECK(accepted > 1000 && refused > 1000);
    /* The run's count: allgather's and alltoall's blocks and every collective's gather grow with the ranks. */
    umb_options o;
    char err[512], *words[] = {(char *)"-m", (char *)"1M", (char *)"-M", (char *)"1G"};
    CHECK(parse_words(&programs[11], &o, words, 4, err, sizeof err) == 0);
    umb_memory two, many;
    umb_memory_need(&o, &programs[11], 2, &two);
    umb_memory_need(&o, &programs[11], 512, &many);
    CHECK(many.buffers == 256 * two.buffers && many.per_iteration > two.per_iteration);
    CHECK(umb_memory_check(&o, &programs[11], 256, err, sizeof err) == 0);
    CHECK(umb_memory_check(&o, &programs[11], 512, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "with 512 ranks, above the memory limit -M 1073741824");
}

int main(void)
{
    memory_space();
    for (size_t p = 0; p < sizeof programs / sizeof *programs; p++)
        for (size_t k = 0; k < sizeof options / sizeof *options; k++)
            for (size_t v = 0; v < sizeof values / sizeof *values; v++) try_one(&programs[p], options[k], values[v]);
    largest_sizes();
    return check_done("test_accept");
}
