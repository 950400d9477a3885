#include "options.h"

#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int parse_count(const char *s, long *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end != '\0' || v <= 0) return -1;
    *out = v;
    return 0;
}

/* -m MAX, MIN:MAX or MIN: */
static int parse_sizes(umb_options *o, const char *arg, char *err, size_t n)
{
    const char *colon = strchr(arg, ':');
    size_t lo = o->min_size, hi = o->max_size;
    if (!colon) {
        if (umb_parse_bytes(arg, &hi)) goto bad;
    } else {
        char first[64];
        size_t len = (size_t)(colon - arg);
        if (len >= sizeof first) goto bad;
        memcpy(first, arg, len);
        first[len] = '\0';
        if (len && umb_parse_bytes(first, &lo)) goto bad;
        if (colon[1] && umb_parse_bytes(colon + 1, &hi)) goto bad;
        if (!len && !colon[1]) goto bad;
    }
    if (lo > hi)
        return umb_errf(err, n, "-m %s: MIN (%zu) is larger than MAX (%zu)", arg, lo, hi);
    o->min_size = lo;
    o->max_size = hi;
    return 0;
bad:
    return umb_errf(err, n, "-m %s: expected MAX, MIN:MAX or MIN: in bytes (K, M, G suffixes allowed), e.g. -m 8:4M", arg);
}


enum { OPT_FORMAT = 256, OPT_PLACE_WITH, OPT_PLACE, OPT_ADVISE, OPT_DEVICE, OPT_TIMEOUT,
       OPT_ASSUME_AWARE, OPT_ALLOW_OVERSUB, OPT_ROOT_BUFFER, OPT_BUFFER, OPT_BUFFERS, OPT_PLACE_CHECK, OPT_LOOP };

int umb_buffer_kind_parse(const char *s, umb_kind *k, int *was_m)
{
    if (was_m) *was_m = 0;
    if (umb_kind_parse(s, UMB_KINDS_MPI | UMB_KIND_BIT(UMB_M), k)) return -1;
    if (*k == UMB_M) {  /* OMB's M: managed, on the host */
        *k = UMB_MH;
        if (was_m) *was_m = 1;
    }
    return 0;
}

int umb_list_kind(const char *list, int i, umb_kind *k)
{
    const char *p = list;
    for (; i > 0 && p; i--) p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    if (!p || !*p) return -1;
    char tok[24];
    size_t len = strcspn(p, ",");
    if (len >= sizeof tok) return -1;
    memcpy(tok, p, len);
    tok[len] = '\0';
    return umb_buffer_kind_parse(tok, k, NULL);
}

int umb_list_length(const char *list)
{
    int n = 1;
    for (const char *p = list; *p; p++) n += *p == ',';
    return n;
}

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
    return umb_errf(err, n, "-k %s: accepted: fixed:N (a rank number) or rotate", a);
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
    {"accelerator", required_argument, 0, 'd'},
    {"root", required_argument, 0, 'k'},
    {"root-buffer", required_argument, 0, OPT_ROOT_BUFFER},
    {"buffer", required_argument, 0, OPT_BUFFER},
    {"buffers", required_argument, 0, OPT_BUFFERS},
    {0, 0, 0, 0}};

int umb_options_parse(umb_options *o, const umb_cli *cli, int argc, char **argv,
                      char *err, size_t n)
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
    err[0] = '\0';

    /* getopt keeps state: start over (glibc resets fully on optind = 0). */
    optind = 0;
    opterr = 0;
    int c, have_root_kind = 0, have_other_kind = 0;
    umb_kind accel_kind = UMB_H;
    long v;
    int li = -1;
    while ((c = getopt_long(argc, argv, ":m:i:x:fcM:W:d:k:Uhv", long_options, &li)) != -1) {
        const char *a = optarg;
        char name[40];  /* the option as given: "--buffer" or "-d" */
        if (li >= 0) snprintf(name, sizeof name, "--%s", long_options[li].name);
        else snprintf(name, sizeof name, "-%c", c);
        li = -1;
        switch (c) {
        case 'm':
            if (parse_sizes(o, a, err, n)) return 1;
            break;
        case 'i':
            if (parse_count(a, &v)) return umb_errf(err, n, "-i %s: iterations must be a positive integer", a);
            o->iters = o->iters_large = v;
            break;
        case 'x': {
            char *end;
            errno = 0;
            v = strtol(a, &end, 10);
            if (errno || *end || !isdigit((unsigned char)a[0]))
                return umb_errf(err, n, "-x %s: warm-up iterations must be an integer >= 0", a);
            o->skip = o->skip_large = v;
            break;
        }
        case 'f': o->full = 1; break;
        case 'c': o->validate = 1; break;
        case 'U':
            if (!a || !strcmp(a, "full")) o->counters = UMB_COUNTERS_FULL;
            else if (!strcmp(a, "light")) o->counters = UMB_COUNTERS_LIGHT;
            else return umb_errf(err, n, "--counters=%s: accepted: full (CUPTI and getrusage, as -U), light (getrusage and the placement check, no CUPTI)", a);
            break;
        case 'M':
            if (umb_parse_bytes(a, &o->mem_limit) || o->mem_limit == 0)
                return umb_errf(err, n, "-M %s: memory limit must be a byte count > 0 (K, M, G suffixes allowed)", a);
            break;
        case 'W':
            if (!cli->window) return 1 + umb_errf(err, n, "unknown option -W: %s has no window", cli->program);
            if (parse_count(a, &v) || v > 65536)
                return umb_errf(err, n, "-W %s: window size must be an integer from 1 to 65536", a);
            o->window = (int)v;
            break;
        case 'h': o->help = 1; break;
        case 'v': o->version = 1; break;
        case OPT_FORMAT:
            if (umb_format_parse(a, &o->format, err, n)) return 1;
            break;
        case OPT_PLACE_WITH:
            if (!strcmp(a, "kernel")) o->place_with = UMB_PLACE_KERNEL;
            else if (!strcmp(a, "prefetch")) o->place_with = UMB_PLACE_PREFETCH;
            else return umb_errf(err, n, "--place-with %s: accepted: kernel, prefetch", a);
            break;
        case OPT_PLACE:
            if (!strcmp(a, "each")) o->place_when = UMB_PLACE_EACH;
            else if (!strcmp(a, "once")) o->place_when = UMB_PLACE_ONCE;
            else return umb_errf(err, n, "--place %s: accepted: each, once", a);
            break;
        case OPT_PLACE_CHECK:
            if (!strcmp(a, "enforce")) o->place_check = UMB_CHECK_ENFORCE;
            else if (!strcmp(a, "observe")) o->place_check = UMB_CHECK_OBSERVE;
            else if (!strcmp(a, "off")) o->place_check = UMB_CHECK_OFF;
            else return umb_errf(err, n, "--place-check %s: accepted: enforce, observe, off", a);
            break;
        case OPT_LOOP:
            if (!strcmp(a, "auto")) o->loop = UMB_LOOP_AUTO;
            else if (!strcmp(a, "handshake")) o->loop = UMB_LOOP_HANDSHAKE;
            else if (!strcmp(a, "classic")) o->loop = UMB_LOOP_CLASSIC;
            else return umb_errf(err, n, "--loop %s: accepted: auto, handshake, classic", a);
            break;
        case OPT_ADVISE:
            if (umb_advise_parse(a, &o->advise, err, n)) return 1;
            break;
        case OPT_DEVICE: {
            char *end;
            errno = 0;
            v = strtol(a, &end, 10);
            if (errno || *end || !isdigit((unsigned char)a[0]) || v > 1023)
                return umb_errf(err, n, "--device %s: expected a GPU index 0..1023", a);
            o->device = (int)v;
            break;
        }
        case OPT_TIMEOUT: {
            char *end;
            errno = 0;
            double t = strtod(a, &end);
            if (errno || *end || end == a || !(t >= 0) || t > 1e6)
                return umb_errf(err, n, "--timeout %s: expected seconds >= 0 (0 turns the watchdog off)", a);
            o->timeout = t;
            break;
        }
        case 'd': case 'k': case OPT_ROOT_BUFFER: case OPT_BUFFER: case OPT_BUFFERS:
            if (!cli->collective)
                return umb_errf(err, n, "option %s is for the collectives; %s takes SRC DST buffer kinds", name, cli->program);
            if (c == 'd') {
                if (!strcmp(a, "managed")) accel_kind = UMB_MH;
                else if (!strcmp(a, "cuda")) accel_kind = UMB_D;
                else return umb_errf(err, n, "-d %s: accepted: managed (MH on every rank, as OMB), cuda (D)", a);
            } else if (c == 'k') {
                if (parse_root(o, a, err, n)) return 1;
            } else if (c == OPT_BUFFERS) {
                if (parse_list(o, a, err, n)) return 1;
            } else {
                umb_kind k;
                int was_m;
                if (umb_buffer_kind_parse(a, &k, &was_m))
                    return umb_errf(err, n, "%s %s: accepted: H, P, D, MH, MD, M (= MH)", c == OPT_BUFFER ? "--buffer" : "--root-buffer", a);
                o->m_given |= was_m;
                if (c == OPT_BUFFER) o->other_kind = k, have_other_kind = 1;
                else o->root_kind = k, have_root_kind = 1;
            }
            break;
        case OPT_ASSUME_AWARE: o->assume_cuda_aware = 1; break;
        case OPT_ALLOW_OVERSUB: o->allow_oversubscription = 1; break;
        case ':':
            return umb_errf(err, n, "option %s needs a value; see %s -h", argv[optind - 1], cli->program);
        default:
            if (optopt) return 1 + umb_errf(err, n, "unknown option -%c", optopt);
            return 1 + umb_errf(err, n, "unknown option %s", argv[optind - 1]);
        }
    }
    if (o->help || o->version) return 0;

    int npos = argc - optind;
    if (npos > cli->nbuffers && cli->collective)
        return umb_errf(err, n, "unexpected argument '%s': give buffer kinds with --buffer KIND, --root-buffer KIND, --buffers LIST or -d managed",
                    argv[optind]);
    if (npos > cli->nbuffers)
        return umb_errf(err, n, "unexpected argument '%s'; %s takes %d buffer kinds (H, P, D, MH, MD or M)",
                    argv[optind + cli->nbuffers], cli->program, cli->nbuffers);
    /* OMB default: host buffers on both sides. */
    o->nkinds = cli->nbuffers;
    for (int i = 0; i < cli->nbuffers; i++) {
        o->kinds[i] = UMB_H;
        if (i < npos) {
            int was_m;
            if (umb_buffer_kind_parse(argv[optind + i], &o->kinds[i], &was_m))
                return umb_errf(err, n, "buffer '%s': accepted: H, P, D, MH, MD, M (= MH)%s", argv[optind + i],
                                !strcmp(argv[optind + i], "light") || !strcmp(argv[optind + i], "full")
                                    ? "; counters take their mode as --counters=light" : "");
            o->m_given |= was_m;
        }
    }
    if (cli->min_size > 1 && (o->min_size < cli->min_size || o->min_size % cli->min_size))
        return umb_errf(err, n, "-m: %s moves %zu-byte elements: MIN (%zu) must be a multiple of %zu, at least %zu",
                    cli->program, cli->min_size, o->min_size, cli->min_size, cli->min_size);
    if (cli->collective) {
        if (o->buffer_list && (have_root_kind || have_other_kind))
            return umb_errf(err, n, "--buffers gives every rank's kind: use it or --root-buffer/--buffer, not both");
        if (!have_other_kind) o->other_kind = accel_kind;
        if (!have_root_kind) o->root_kind = o->other_kind;
        o->used_kinds = 1u << o->root_kind | 1u << o->other_kind;
        if (o->buffer_list) {
            umb_kind k;
            o->used_kinds = 0;
            for (int i = 0; umb_list_kind(o->buffer_list, i, &k) == 0; i++) o->used_kinds |= 1u << k;
        }
    } else {
        for (int i = 0; i < o->nkinds; i++) o->used_kinds |= 1u << o->kinds[i];
    }
    if (o->loop == UMB_LOOP_CLASSIC && (o->validate || (o->place_when == UMB_PLACE_EACH &&
                                                        (o->used_kinds & (1u << UMB_MH | 1u << UMB_MD)))))
        return umb_errf(err, n, "--loop classic: %s needs the handshake loop; drop %s, or use --loop handshake or auto",
                        o->validate ? "-c (a check per message)" : "placing managed buffers before every operation (--place each)",
                        o->validate ? "-c" : "it with --place once");
    size_t per_rank = (size_t)(cli->buffers_per_rank ? cli->buffers_per_rank : 1) * (size_t)umb_window_buffers(o);
    if (o->max_size && (o->max_size * per_rank / per_rank != o->max_size || o->max_size * per_rank > o->mem_limit))
        return umb_errf(err, n, "-m: the largest message (%zu bytes) in %zu buffers per rank exceeds the memory limit of %zu bytes; lower -m%s or raise -M",
                    o->max_size, per_rank, o->mem_limit, cli->window ? " or -W" : "");
    return 0;
}

int umb_window_buffers(const umb_options *o)
{
    if (o->window <= 0) return 1;
    if (o->validate) return o->window;
    if (o->used_kinds & (1u << UMB_MH | 1u << UMB_MD)) return o->window;
    return 1;
}

size_t umb_size_next(size_t size) { return size ? size * 2 : 1; }

void umb_iterations(const umb_options *o, const umb_cli *cli, size_t size, long *iters, long *skip)
{
    int large = size > cli->large_size;
    *iters = large ? o->iters_large : o->iters;
    *skip = large ? o->skip_large : o->skip;
}

void umb_usage(const umb_cli *cli, FILE *f)
{
    fprintf(f, "Usage: %s [options]%s\n%s\n\n", cli->program,
            cli->nbuffers == 2 ? " [SRC DST]" : "", cli->summary);
    if (cli->nbuffers == 2)
        fprintf(f, "SRC and DST are the buffer kinds of rank 0 and rank 1 (default H H):\n"
                   "  H   pageable host (malloc)        P   pinned host (cudaMallocHost)\n"
                   "  D   device (cudaMalloc)           MH  managed, placed on the host\n"
                   "  MD  managed, placed on the device M   same as MH (OMB compatibility)\n\n");
    fprintf(f,
        "Options (OMB letters):\n"
        "  -m, --message-size [MIN:]MAX  message sizes, powers of two (default 1:%zu; K/M/G suffixes)\n"
        "  -i, --iterations N            timed iterations (default %ld, %ld above %zu bytes)\n"
        "  -x, --warmup N                untimed warm-up iterations (default %ld, %ld above %zu bytes)\n"
        "  -f, --full                    also print min, max, p50, p99 and the iteration count\n"
        "  -c, --validation              check every byte of every message\n"
        "  -M, --mem-limit BYTES         per-process memory limit (default 512M)\n"
        "%s"
        "  -h, --help                    this text;  -v, --version  the version\n"
        "Options (umbench):\n"
        "  -U, --counters[=full|light]   unified-memory counters per rank and size: GPU and CPU page faults,\n"
        "                                bytes migrated, thrashing, throttling, remote maps (CUPTI), and\n"
        "                                getrusage faults; over the measured iterations, placement apart;\n"
        "                                light: getrusage faults only, no CUPTI (no cost to migrations)\n"
        "      --format table|csv|json   output format (default table; json: one object per line)\n"
        "      --place-with kernel|prefetch  how managed buffers are placed (default kernel)\n"
        "      --place each|once         place before every measured operation (default) or once per size\n"
        "      --loop auto|handshake|classic  the timed loop (docs/method.md): handshake places, checks and\n"
        "                                signals ready outside the timer before each operation; classic is\n"
        "                                OMB's back to back; auto (default): handshake where needed\n"
        "      --place-check enforce|observe|off  after placing, read where the pages are (pagemap);\n"
        "                                enforce (default): place again with prefetch where they are not,\n"
        "                                rows hold only placed iterations; observe: rows show what the\n"
        "                                driver left, held and not-held apart; off: no check\n"
        "      --advise LIST             cudaMemAdvise hints for managed buffers, comma-separated:\n"
        "                                preferred=cpu|gpu, accessed-by=gpu|cpu, read-mostly, none\n"
        "      --device N                use GPU N on every rank (default: local rank modulo GPU count)\n"
        "      --timeout S               abort the job when no progress is made for S seconds (default off)\n"
        "      --assume-cuda-aware       pass D buffers to MPI even if the library says it is not CUDA-aware\n"
        "      --allow-oversubscription  allow managed buffers larger than the free GPU memory\n"
        "Exit status: 0 ok, 1 bad input or error, 2 validation failed, 77 missing GPU or CUDA-aware MPI.\n",
        cli->max_size, cli->iters, cli->iters_large, cli->large_size, cli->skip, cli->skip_large,
        cli->large_size,
        cli->window ? "  -W, --window-size N           messages in flight per iteration (default 64);\n"
                      "                                managed buffers get one buffer per message\n" : "");
}
