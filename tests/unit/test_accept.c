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

/* The twelve programs' shapes (mpi/ * / *.c): what the parser's rules read. */
#define P2P(name, per, w) {.program = name, .summary = "t", .nbuffers = 2, .iters = 10000, .skip = 100, \
    .iters_large = 1000, .skip_large = 10, .large_size = 8192, .max_size = 1 << 22, .buffers_per_rank = per, .window = w}
#define COLL(name, per, elem) {.program = name, .summary = "t", .iters = 1000, .skip = 200, .iters_large = 100, \
    .skip_large = 10, .large_size = 8192, .max_size = 1 << 20, .buffers_per_rank = per, .collective = 1, .min_size = elem}
static const umb_cli programs[] = {
    P2P("umb_latency", 2, 0), P2P("umb_bw", 1, 64), P2P("umb_bibw", 2, 64), P2P("umb_mbw_mr", 1, 64),
    P2P("umb_put_latency", 1, 0), P2P("umb_get_latency", 1, 0), P2P("umb_put_bw", 1, 64),
    COLL("umb_bcast", 1, 0), COLL("umb_allreduce", 2, 4), COLL("umb_reduce", 2, 4),
    COLL("umb_allgather", 2, 0), COLL("umb_alltoall", 2, 0),
};

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
    size_t per_rank = (size_t)(c->buffers_per_rank ? c->buffers_per_rank : 1) * (size_t)umb_window_buffers(o);
    if (o->max_size > SIZE_MAX / per_rank || o->max_size * per_rank > o->mem_limit) return 6;
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
    char opt[64], arg[128], err[512], mem[] = "-M", big[] = "18446744073709551615";
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
        char most[32], past[32], err[512], mem[] = "-M", big[] = "18446744073709551615", m[] = "-m";
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

int main(void)
{
    for (size_t p = 0; p < sizeof programs / sizeof *programs; p++)
        for (size_t k = 0; k < sizeof options / sizeof *options; k++)
            for (size_t v = 0; v < sizeof values / sizeof *values; v++) try_one(&programs[p], options[k], values[v]);
    largest_sizes();
    return check_done("test_accept");
}
