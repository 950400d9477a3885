#include "options.h"

#include "parse.h"
#include "watchdog.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* -m MAX, MIN:MAX or MIN:, at most the largest size the program can run. */
static int parse_sizes(umb_options *o, const umb_cli *cli, const char *arg, char *err, size_t n)
{
    size_t most = umb_largest_size(cli), element = cli->min_size > 1 ? cli->min_size : 1;
    int bad = umb_parse_size_range(arg, 0, most, "8:4M", &o->min_size, &o->max_size, err, n);
    if (bad == 2)  /* MIN or MAX above the limit: say why there is one */
        return umb_errf(err, n, "-m %s: sizes above %zu bytes are not supported by %s in this build (its MPI calls "
                        "count %zu-byte elements in an int); accepted: %zu to %zu bytes", arg, most, cli->program,
                        element, element > 1 ? element : 0, most);
    if (bad) return 1;
    if (element > 1 && (o->min_size < element || o->min_size % element))
        return umb_errf(err, n, "-m %s: %s moves %zu-byte elements: MIN (%zu) must be a multiple of %zu, at least %zu",
                        arg, cli->program, element, o->min_size, element, element);
    if (o->max_size % element)  /* MAX is always measured */
        return umb_errf(err, n, "-m %s: %s moves %zu-byte elements: MAX (%zu) must be a multiple of %zu",
                        arg, cli->program, element, o->max_size, element);
    return 0;
}

enum { OPT_FORMAT = 256, OPT_PLACE_WITH, OPT_PLACE, OPT_ADVISE, OPT_DEVICE, OPT_TIMEOUT,
       OPT_ASSUME_AWARE, OPT_ALLOW_OVERSUB, OPT_ROOT_BUFFER, OPT_BUFFER, OPT_BUFFERS, OPT_PLACE_CHECK, OPT_LOOP,
       OPT_PATH, OPT_MEASURE_BOUND, OPT_PRECISION, OPT_SIZE_BUDGET, OPT_LAUNCH_BUDGET,
       OPT_CHECK_OPTIONS, OPT_PAIR_FILES };

/* -k fixed:N or rotate */
static int parse_root(umb_options *o, const char *a, char *err, size_t n)
{
    char *end;
    if (!strcmp(a, "rotate")) {
        o->root_rotate = 1;
        return 0;
    }
    if (!strncmp(a, "fixed:", 6) && isdigit((unsigned char)a[6])) {
        errno = 0;
        long v = strtol(a + 6, &end, 10);
        if (!errno && *end == '\0' && v <= 1 << 24) {
            o->root = (int)v;
            o->root_rotate = 0;
            return 0;
        }
    }
    return umb_errf(err, n, "-k %s: accepted: fixed:N (N a rank number, 0 to %d) or rotate", a, 1 << 24);
}

static int parse_list(umb_options *o, const char *a, char *err, size_t n)
{
    umb_kind k;
    int count = umb_list_length(a);
    for (int i = 0; i < count; i++)
        if (umb_list_kind(a, i, &k) != 0)
            return umb_errf(err, n, "--buffers %s: item %d is not a buffer kind; accepted: H, P, D, MH, MD, M (= MH), comma-separated, one per rank", a, i + 1);
    o->buffer_list = a;
    return 0;
}

static const struct option long_options[] = {
    {"message-size", required_argument, 0, 'm'},
    {"iterations", required_argument, 0, 'i'},
    {"warmup", required_argument, 0, 'x'},
    {"full", no_argument, 0, 'f'},
    {"validation", no_argument, 0, 'c'},
    {"mem-limit", required_argument, 0, 'M'},
    {"window-size", required_argument, 0, 'W'},
    {"counters", optional_argument, 0, 'U'},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, 'v'},
    {"format", required_argument, 0, OPT_FORMAT},
    {"place-with", required_argument, 0, OPT_PLACE_WITH},
    {"place", required_argument, 0, OPT_PLACE},
    {"place-check", required_argument, 0, OPT_PLACE_CHECK},
    {"loop", required_argument, 0, OPT_LOOP},
    {"advise", required_argument, 0, OPT_ADVISE},
    {"device", required_argument, 0, OPT_DEVICE},
    {"timeout", required_argument, 0, OPT_TIMEOUT},
    {"assume-cuda-aware", no_argument, 0, OPT_ASSUME_AWARE},
    {"allow-oversubscription", no_argument, 0, OPT_ALLOW_OVERSUB},
    {"path", no_argument, 0, OPT_PATH},
    {"measure-bound", no_argument, 0, OPT_MEASURE_BOUND},
    {"check-options", no_argument, 0, OPT_CHECK_OPTIONS},
    {"pair-files", required_argument, 0, OPT_PAIR_FILES},
    {"precision", required_argument, 0, OPT_PRECISION},
    {"size-budget", required_argument, 0, OPT_SIZE_BUDGET},
    {"launch-budget", required_argument, 0, OPT_LAUNCH_BUDGET},
    {"accelerator", required_argument, 0, 'd'},
    {"root", required_argument, 0, 'k'},
    {"root-buffer", required_argument, 0, OPT_ROOT_BUFFER},
    {"buffer", required_argument, 0, OPT_BUFFER},
    {"buffers", required_argument, 0, OPT_BUFFERS},
    {0, 0, 0, 0}};

/* A helper's answer for an option it does not handle: the next one tries. */
enum { NOT_MINE = -1 };

/* What the collective options gave, for the checks after the loop. */
typedef struct {
    int have_root_kind, have_other_kind;
    umb_kind accel_kind;  /* -d: the others' kind when --buffer is not given */
} collective_given;

static void set_defaults(umb_options *o, const umb_cli *cli)
{
    memset(o, 0, sizeof *o);
    o->min_size = cli->min_size ? cli->min_size : 1;
    o->max_size = cli->max_size;
    o->iters = cli->iters;
    o->skip = cli->skip;
    o->iters_large = cli->iters_large;
    o->skip_large = cli->skip_large;
    o->window = cli->window;
    o->device = -1;
    o->mem_limit = UMB_DEFAULT_MEM_LIMIT;
    o->size_budget = UMB_DEFAULT_SIZE_BUDGET;
}

/* The options OMB has: -m -i -x -f -c -M -W -h -v. */
static int parse_omb_option(umb_options *o, const umb_cli *cli, int c, const char *a, char *err, size_t n)
{
    long v;
    switch (c) {
    case 'm':
        return parse_sizes(o, cli, a, err, n);
    case 'i':
        if (umb_parse_long(a, 1, UMB_MAX_ITERS, &v))
            return umb_errf(err, n, "-i %s: iterations must be an integer from 1 to %ld", a, UMB_MAX_ITERS);
        o->iters = o->iters_large = v;
        o->iters_given = 1;
        return 0;
    case 'x':
        if (umb_parse_long(a, 0, UMB_MAX_ITERS, &v))
            return umb_errf(err, n, "-x %s: warm-up iterations must be an integer from 0 to %ld", a, UMB_MAX_ITERS);
        o->skip = o->skip_large = v;
        o->skip_given = 1;
        return 0;
    case 'f': o->full = 1; return 0;
    case 'c': o->validate = 1; return 0;
    case 'M':
        if (umb_parse_bytes(a, &o->mem_limit) || o->mem_limit == 0 || o->mem_limit > UMB_MEM_LIMIT_MAX)
            return umb_errf(err, n, "-M %s: memory limit per process must be a byte count from 1 to %zu (1024G; K, M, "
                            "G suffixes allowed)", a, UMB_MEM_LIMIT_MAX);
        return 0;
    case 'W':
        if (!cli->window) return 1 + umb_errf(err, n, "unknown option -W: %s has no window", cli->program);
        if (umb_parse_long(a, 1, 65536, &v))
            return umb_errf(err, n, "-W %s: window size must be an integer from 1 to 65536", a);
        o->window = (int)v;
        return 0;
    case 'h': o->help = 1; return 0;
    case 'v': o->version = 1; return 0;
    default: return NOT_MINE;
    }
}

#define SECONDS_MAX 1e6  /* --timeout, --size-budget: about 11 days */

/* Seconds, fractions allowed, from 0 to SECONDS_MAX: 0, else -1. */
static int parse_seconds(const char *a, double *t)
{
    return umb_parse_decimal(a, 1, t) || *t > SECONDS_MAX ? -1 : 0;
}

/* --precision P% (P in (0, 100], the % may be left out) or off. */
static int parse_precision(umb_options *o, const char *a, char *err, size_t n)
{
    if (!strcmp(a, "off")) {
        o->precision = 0;
        o->precision_given = -1;
        return 0;
    }
    /* Plain digits, then the % sign (it may be left out): 0x5%, +5% and 1e1% were taken. */
    char digits[32];
    size_t len = strlen(a);
    double p = 0;
    if (len && a[len - 1] == '%') len--;
    int bad = len >= sizeof digits;
    if (!bad) {
        memcpy(digits, a, len);
        digits[len] = '\0';
        bad = umb_parse_decimal(digits, 0, &p) != 0;
    }
    if (bad)  /* the form, not the range: 1e-3%% is above 0 */
        return umb_errf(err, n, "--precision %s: expected a percentage above 0 and at most 100 in plain digits "
                        "(e.g. 2%% or 0.5%%; no sign, exponent or hex), or off", a);
    if (!(p > 0) || p > 100)
        return umb_errf(err, n, "--precision %s: expected a percentage above 0 and at most 100 (e.g. 2%%), or off", a);
    o->precision = p / 100;
    o->precision_given = 1;
    return 0;
}

/* umbench's own options: -U and the long ones that are not the collectives'. */
static int parse_umbench_option(umb_options *o, int c, const char *a, char *err, size_t n)
{
    long v;
    switch (c) {
    case 'U':
        if (!a || !strcmp(a, "full")) o->counters = UMB_COUNTERS_FULL;
        else if (!strcmp(a, "light")) o->counters = UMB_COUNTERS_LIGHT;
        else return umb_errf(err, n, "--counters=%s: accepted: full (CUPTI and getrusage, as -U), light (getrusage and the placement check, no CUPTI)", a);
        return 0;
    case OPT_FORMAT:
        return umb_format_parse(a, &o->format, err, n) ? 1 : 0;
    case OPT_PLACE_WITH: {
        static const char *const words[] = {"kernel", "prefetch", NULL};  /* umb_place_with order */
        return umb_parse_word("--place-with", a, words, (int *)&o->place_with, err, n);
    }
    case OPT_PLACE: {
        static const char *const words[] = {"each", "once", NULL};  /* umb_place_when order */
        return umb_parse_word("--place", a, words, (int *)&o->place_when, err, n);
    }
    case OPT_PLACE_CHECK: {
        static const char *const words[] = {"enforce", "observe", "off", NULL};  /* umb_place_check order */
        return umb_parse_word("--place-check", a, words, (int *)&o->place_check, err, n);
    }
    case OPT_LOOP: {
        static const char *const words[] = {"auto", "handshake", "classic", NULL};  /* umb_loop order */
        return umb_parse_word("--loop", a, words, (int *)&o->loop, err, n);
    }
    case OPT_ADVISE:
        return umb_advise_parse(a, &o->advise, err, n) ? 1 : 0;
    case OPT_DEVICE:
        if (umb_parse_long(a, 0, 1023, &v)) return umb_errf(err, n, "--device %s: expected a GPU index 0..1023", a);
        o->device = (int)v;
        return 0;
    case OPT_TIMEOUT:
        if (parse_seconds(a, &o->timeout) || (o->timeout > 0 && o->timeout < UMB_WATCHDOG_MIN_S))
            return umb_errf(err, n, "--timeout %s: expected 0 (off) or seconds from %.0f to %.0f (fractions allowed)", a,
                            UMB_WATCHDOG_MIN_S, SECONDS_MAX);
        return 0;
    case OPT_PRECISION:
        return parse_precision(o, a, err, n);
    case OPT_SIZE_BUDGET:
    case OPT_LAUNCH_BUDGET: {
        double *s = c == OPT_SIZE_BUDGET ? &o->size_budget : &o->launch_budget;
        if (parse_seconds(a, s) || !(*s > 0))
            return umb_errf(err, n, "--%s %s: expected seconds above 0 and at most %.0f (fractions allowed)",
                            c == OPT_SIZE_BUDGET ? "size-budget" : "launch-budget", a, SECONDS_MAX);
        return 0;
    }
    case OPT_ASSUME_AWARE: o->assume_cuda_aware = 1; return 0;
    case OPT_ALLOW_OVERSUB: o->allow_oversubscription = 1; return 0;
    case OPT_PATH: o->path = 1; return 0;
    case OPT_CHECK_OPTIONS: o->check_only = 1; return 0;
    case OPT_PAIR_FILES: o->pair_files = a; return 0;  /* checked with the pairs (umb_pair_files_check) */
    case OPT_MEASURE_BOUND: o->measure_bound = o->path = 1; return 0;  /* a bound serves the path */
    default: return NOT_MINE;
    }
}

/* -d, -k, --root-buffer, --buffer, --buffers; `name` is the option as given
   ("--buffer" or "-d"), for the point-to-point programs' refusal. */
static int parse_collective_option(umb_options *o, const umb_cli *cli, int c, const char *a, const char *name,
                                   collective_given *given, char *err, size_t n)
{
    if (c != 'd' && c != 'k' && c != OPT_ROOT_BUFFER && c != OPT_BUFFER && c != OPT_BUFFERS) return NOT_MINE;
    if (!cli->collective)
        return umb_errf(err, n, "option %s is for the collectives; %s takes SRC DST buffer kinds", name, cli->program);
    if (c == 'd') {
        if (!strcmp(a, "managed")) given->accel_kind = UMB_MH;
        else if (!strcmp(a, "cuda")) given->accel_kind = UMB_D;
        else return umb_errf(err, n, "-d %s: accepted: managed (MH on every rank, as OMB), cuda (D)", a);
        return 0;
    }
    if (c == 'k') return parse_root(o, a, err, n) ? 1 : 0;
    if (c == OPT_BUFFERS) return parse_list(o, a, err, n) ? 1 : 0;
    umb_kind k;
    int was_m;
    if (umb_buffer_kind_parse(a, &k, &was_m))
        return umb_errf(err, n, "%s %s: accepted: H, P, D, MH, MD, M (= MH)", c == OPT_BUFFER ? "--buffer" : "--root-buffer", a);
    o->m_given |= was_m;
    if (c == OPT_BUFFER) o->other_kind = k, given->have_other_kind = 1;
    else o->root_kind = k, given->have_root_kind = 1;
    return 0;
}

/* The arguments after the options: SRC DST for point-to-point (OMB default:
   host buffers on both sides); none for the collectives. */
static int parse_buffer_kinds(umb_options *o, const umb_cli *cli, int npos, char **pos, char *err, size_t n)
{
    if (npos > cli->nbuffers && cli->collective)
        return umb_errf(err, n, "unexpected argument '%s': give buffer kinds with --buffer KIND, --root-buffer KIND, --buffers LIST or -d managed",
                    pos[0]);
    /* Several pairs, SRC DST SRC DST ...: one launch runs each in turn. */
    int most = cli->nbuffers == 2 ? 2 * UMB_MAX_PAIRS : cli->nbuffers;
    if (npos > most)
        return umb_errf(err, n, "unexpected argument '%s'; %s takes %d buffer kinds (H, P, D, MH, MD or M)%s",
                    pos[most], cli->program, cli->nbuffers, cli->nbuffers == 2 ? ", or at most 32 pairs of them" : "");
    o->nkinds = cli->nbuffers;
    o->npairs = npos > cli->nbuffers ? npos / 2 : 1;
    for (int i = 0; (i < 2 * o->npairs || i < npos) && i < 2 * UMB_MAX_PAIRS; i++) {  /* a lone last one too: bad, or alone */
        umb_kind *k = &o->pairs[i / 2][i % 2];
        *k = UMB_H;
        if (i < npos) {
            int was_m;
            if (umb_buffer_kind_parse(pos[i], k, &was_m))
                return umb_errf(err, n, "buffer '%s': accepted: H, P, D, MH, MD, M (= MH)%s", pos[i],
                                !strcmp(pos[i], "light") || !strcmp(pos[i], "full")
                                    ? "; counters take their mode as --counters=light" : "");
            o->m_given |= (unsigned)was_m << (i / 2);
        }
    }
    if (npos % (cli->nbuffers ? cli->nbuffers : 1))  /* as OMB: both kinds or none; one alone was run as "SRC H", unsaid */
        return umb_errf(err, n, "buffer '%s' alone: %s takes %d buffer kinds, SRC DST (e.g. %s H), or none for H H",
                        pos[npos - 1], cli->program, cli->nbuffers, pos[npos - 1]);
    if (o->npairs > 1 && (o->path || o->counters))
        return umb_errf(err, n, "%d buffer pairs: %s observes one pair per launch; give one pair (SRC DST)",
                        o->npairs, o->path ? "--path" : "--counters");
    umb_options_select_pair(o, 0);
    return 0;
}

/* Settles the collectives' kinds and the set of kinds in use. */
static int resolve_used_kinds(umb_options *o, const umb_cli *cli, const collective_given *given, char *err, size_t n)
{
    if (!cli->collective) {  /* every pair's: what the launch needs (a GPU, the loop's checks) */
        for (int i = 0; i < o->npairs * o->nkinds; i++) o->used_kinds |= 1u << o->pairs[i / 2][i % 2];
        return 0;
    }
    if (o->buffer_list && (given->have_root_kind || given->have_other_kind))
        return umb_errf(err, n, "--buffers gives every rank's kind: use it or --root-buffer/--buffer, not both");
    if (!given->have_other_kind) o->other_kind = given->accel_kind;
    if (!given->have_root_kind) o->root_kind = o->other_kind;
    o->used_kinds = 1u << o->root_kind | 1u << o->other_kind;
    if (o->buffer_list) {
        umb_kind k;
        o->used_kinds = 0;
        for (int i = 0; umb_list_kind(o->buffer_list, i, &k) == 0; i++) o->used_kinds |= 1u << k;
    }
    return 0;
}

/* What no single option can tell: kinds, loop, memory limit. */
static int check_combinations(umb_options *o, const umb_cli *cli, const collective_given *given, char *err, size_t n)
{
    if (resolve_used_kinds(o, cli, given, err, n) || umb_options_check_shared(o, err, n) ||
        umb_pair_files_check(o, cli, err, n))
        return 1;
    if (o->loop == UMB_LOOP_CLASSIC && (o->validate || (o->place_when == UMB_PLACE_EACH &&
                                                        umb_options_uses(o, umb_kind_is_managed))))
        return umb_errf(err, n, "--loop classic: %s needs the handshake loop; drop %s, or use --loop handshake or auto",
                        o->validate ? "-c (a check per message)" : "placing managed buffers before every operation (--place each)",
                        o->validate ? "-c" : "it with --place once");
    return umb_memory_check(o, cli, 0, err, n);  /* the rank count is the run's: checked again there */
}

int umb_options_parse(umb_options *o, const umb_cli *cli, int argc, char **argv,
                      char *err, size_t n)
{
    set_defaults(o, cli);
    err[0] = '\0';

    /* getopt keeps state: start over (glibc resets fully on optind = 0). */
    optind = 0;
    opterr = 0;
    collective_given given = {0, 0, UMB_H};
    /* The shared table, then the program's own options (cli->own_*). */
    enum { SHARED = sizeof long_options / sizeof *long_options - 1, MAX_OWN = 16 };
    struct option all[SHARED + MAX_OWN + 1];
    int nown = 0;
    memcpy(all, long_options, sizeof(struct option) * SHARED);
    while (cli->own_options && nown < MAX_OWN && cli->own_options[nown].name) all[SHARED + nown] = cli->own_options[nown], nown++;
    memset(&all[SHARED + nown], 0, sizeof *all);
    char shorts[64];
    snprintf(shorts, sizeof shorts, ":m:i:x:fcM:W:d:k:Uhv%s", cli->own_short ? cli->own_short : "");
    int c, li = -1;
    while ((c = getopt_long(argc, argv, shorts, all, &li)) != -1) {
        char name[40];  /* the option as given: "--buffer" or "-d" */
        int own = (li >= SHARED) || (li < 0 && c != ':' && c != '?' && cli->own_short && strchr(cli->own_short, c));
        if (li >= 0) snprintf(name, sizeof name, "--%s", all[li].name);
        else snprintf(name, sizeof name, "-%c", c);
        li = -1;
        int rc = own ? cli->own_parse(c, optarg, err, n) : parse_omb_option(o, cli, c, optarg, err, n);
        if (rc == NOT_MINE) rc = parse_umbench_option(o, c, optarg, err, n);
        if (rc == NOT_MINE) rc = parse_collective_option(o, cli, c, optarg, name, &given, err, n);
        if (rc == NOT_MINE && c == ':')
            return umb_errf(err, n, "option %s needs a value; see %s -h", argv[optind - 1], cli->program);
        if (rc == NOT_MINE && c == '?' && umb_getopt_no_value(optopt, shorts + 1))  /* "--path=1" */
            return umb_errf(err, n, "%s: takes no value; see %s -h", argv[optind - 1], cli->program);
        if (rc == NOT_MINE && optopt) return 1 + umb_errf(err, n, "unknown option -%c", optopt);
        if (rc == NOT_MINE) return 1 + umb_errf(err, n, "unknown option %s", argv[optind - 1]);
        if (rc) return rc;
    }
    if (o->help || o->version) return 0;
    if (parse_buffer_kinds(o, cli, argc - optind, argv + optind, err, n)) return 1;
    return check_combinations(o, cli, &given, err, n);
}
