#include "findings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The least step worth naming: a smaller size slower than the next larger
   one by this share and this many microseconds, each row of at least this
   many iterations. Identical programs land up to 6-14% apart at small sizes
   (docs/results/overhead.md), sub-microsecond steps are the machine's, not
   the library's, and one extreme iteration must not decide (it silenced the
   rule once in 10,000 on an H100). The margin is also the least a timing
   must clear a fixed level by to repeat ("throttled"). */
#define INVERSION_MARGIN 0.20
#define INVERSION_FLOOR_US 0.5
#define INVERSION_MIN_ITERS 10
/* Copies below this share of the payload carry control data, not the message. */
#define CONTROL_SHARE 0.01

umb_path_class umb_path_classify(const umb_copy_bytes *c, double payload)
{
    if (!c || !isfinite(c->copies)) return UMB_PATH_UNKNOWN;
    double host = c->htod + c->dtoh + c->htoh, direct = c->dtod + c->ptop, total = host + direct;
    int carried = isfinite(payload) && payload > 0 ? total >= CONTROL_SHARE * payload : total > 0;
    if (c->copies <= 0 || !carried) {
        int moved = isfinite(c->migrated) && (isfinite(payload) && payload > 0 ? c->migrated >= CONTROL_SHARE * payload
                                                                               : c->migrated > 0);
        return moved ? UMB_PATH_MIGRATED : UMB_PATH_NONE;
    }
    if (host >= 0.9 * total) return UMB_PATH_STAGED;
    if (direct >= 0.9 * total) return UMB_PATH_DIRECT;
    return UMB_PATH_MIXED;
}

const char *umb_path_name(umb_path_class p)
{
    static const char *const names[] = {"unknown", "none", "staged", "direct", "mixed", "migrated"};
    return p >= UMB_PATH_UNKNOWN && p <= UMB_PATH_MIGRATED ? names[p] : "unknown";
}

const char *umb_confidence_name(umb_confidence c)
{
    return c == UMB_REPEATS ? "repeats" : c == UMB_SEEN_ONCE ? "seen once" : "fact";
}

void umb_row_facts_unknown(umb_row_facts *f)
{
    memset(f, 0, sizeof *f);
    f->typical = f->best = f->typical_lo = f->typical_hi = f->quartile_lo = f->quartile_hi = NAN;
    f->payload = f->share = f->bound_gbs = NAN;
    f->placed_pct = f->replaced = f->place_p50_us = NAN;
    f->copy.htod = f->copy.dtoh = f->copy.dtod = f->copy.ptop = f->copy.htoh = f->copy.copies = NAN;
    f->copy.migrated = NAN;
    f->path = UMB_PATH_UNKNOWN;
}

void umb_size_range(size_t lo, size_t hi, char *buf, size_t n)
{
    if (lo == hi) snprintf(buf, n, "%zu", lo);
    else snprintf(buf, n, "%zu-%zu", lo, hi);
}

/* The time one message takes, from a row's metric value. */
static double op_time(const umb_run_facts *run, size_t size, double v)
{
    if (!isfinite(v) || v <= 0) return NAN;
    return run->lower_is_better ? v : (double)size / v;
}

static umb_finding *add(umb_finding *out, int *k, int max, const char *id)
{
    if (*k >= max) return NULL;
    umb_finding *f = &out[(*k)++];
    memset(f, 0, sizeof *f);
    snprintf(f->id, sizeof f->id, "%s", id);
    return f;
}

/* Bandwidth in MB/s turns bytes into microseconds per message. */
static const char *unit(const umb_run_facts *run) { return run->lower_is_better ? "us" : "us per message"; }

typedef struct {
    double lo, hi;
} span;

/* Two values of a row's metric as times, low to high (a rate's turn over). */
static span times_of(const umb_run_facts *run, size_t size, double a, double b)
{
    double x = op_time(run, size, a), y = op_time(run, size, b);
    if (!isfinite(x) || !isfinite(y)) return (span){NAN, NAN};
    return (span){fmin(x, y), fmax(x, y)};
}

/* A row as times: its median, the median's 95% interval (order statistics
   over the iterations: how well this run knows it), and its band, that
   interval with the middle half of the iterations. One run cannot see what
   moves a median between runs (placement held or not, a context's turn on
   a shared GPU, the scheduler), but it sees the mix those make of its
   iterations: as the share of slow ones shifts by up to a quarter, the
   median moves within the middle half. */
typedef struct {
    double mid;
    span median, band;
} row_time;

/* 0 for a row with too few iterations or no interval. */
static int row_time_of(const umb_run_facts *run, const umb_row_facts *r, row_time *t)
{
    if (r->iters < INVERSION_MIN_ITERS) return 0;
    t->mid = op_time(run, r->size, r->typical);
    t->median = times_of(run, r->size, r->typical_lo, r->typical_hi);
    span q = times_of(run, r->size, r->quartile_lo, r->quartile_hi);
    t->band = isfinite(q.lo) ? (span){fmin(q.lo, t->median.lo), fmax(q.hi, t->median.hi)} : (span){NAN, NAN};
    return isfinite(t->mid) && isfinite(t->median.lo);
}

/* The next row with a median interval after row i, or n. */
static int next_timed(const umb_run_facts *run, const umb_row_facts *r, int n, int i)
{
    row_time t;
    for (i++; i < n && !row_time_of(run, &r[i], &t); i++) {}
    return i;
}

/* slow above fast by the least step worth naming (false where unknown). */
static int apart(double slow, double fast)
{
    return slow > fast * (1 + INVERSION_MARGIN) && slow - fast > INVERSION_FLOOR_US;
}

/* This run shows the step: the medians apart by the least step, their 95%
   intervals apart at all. */
static int seen(const row_time *small, const row_time *large)
{
    return apart(small->mid, large->mid) && small->median.lo > large->median.hi;
}

/* The step repeats: the bands apart by the least step (implies seen()). */
static int repeats(const row_time *small, const row_time *large) { return apart(small->band.lo, large->band.hi); }

/* The first run of consecutive steps down that pass `step`: its first
   smaller and last larger row, or 0. A second run would be its own. */
static int first_step(const umb_run_facts *run, const umb_row_facts *r, int n,
                      int (*step)(const row_time *, const row_time *), int *first, int *last)
{
    row_time a, b;
    *first = *last = -1;
    for (int i = next_timed(run, r, n, -1), j; i < n; i = j) {
        j = next_timed(run, r, n, i);
        if (j >= n) break;
        row_time_of(run, &r[i], &a);
        row_time_of(run, &r[j], &b);
        if (step(&a, &b)) {
            if (*first < 0) *first = i;
            *last = j;
        } else if (*first >= 0) {
            break;
        }
    }
    return *first >= 0;
}

/* The step's figures: the medians and their ratio with its interval, then
   the bands and the ratios they allow (what another run may show). */
static void describe_step(const umb_run_facts *run, const umb_row_facts *r, int first, int last, umb_finding *f)
{
    row_time s, l;
    row_time_of(run, &r[first], &s);
    row_time_of(run, &r[last], &l);
    char band[320];
    if (!isfinite(s.band.lo) || !isfinite(l.band.lo))
        snprintf(band, sizeof band, "the spread of their iterations is not known, so one run cannot say it repeats");
    else
        snprintf(band, sizeof band, "the middle halves of their iterations (with the medians' intervals), %.2f-%.2f and "
                 "%.2f-%.2f, allow %.2f-%.2fx%s",
                 s.band.lo, s.band.hi, l.band.lo, l.band.hi, s.band.lo / l.band.hi, s.band.hi / l.band.lo,
                 f->confidence == UMB_REPEATS ? ": the step stands clear of what moves a median between runs"
                                              : ", and a median moves that far between runs: one run cannot say the "
                                                "step repeats");
    snprintf(f->what, sizeof f->what,
             "%s from size %zu to the larger %zu: median %.2f against %.2f %s, %.2fx (95%% interval %.2f-%.2fx, "
             "from the iterations); %s; the least step named is %.0f%% and %.1f us",
             f->confidence == UMB_REPEATS ? "a step down" : "in this run, a step down", r[first].size, r[last].size,
             s.mid, l.mid, unit(run), s.mid / l.mid, s.median.lo / l.median.hi, s.median.hi / l.median.lo, band,
             100 * INVERSION_MARGIN, INVERSION_FLOOR_US);
}

static void inversion(const umb_run_facts *run, const umb_row_facts *r, int n, umb_finding *out, int *k, int max)
{
    /* One per run: the first step that repeats, else the first seen once. */
    int first, last;
    umb_confidence sure = UMB_REPEATS;
    if (!first_step(run, r, n, repeats, &first, &last)) {
        if (!first_step(run, r, n, seen, &first, &last)) return;
        sure = UMB_SEEN_ONCE;
    }
    umb_finding *f = add(out, k, max, "inversion");
    if (!f) return;
    f->confidence = sure;
    snprintf(f->rows, sizeof f->rows, "%zu,%zu", r[first].size, r[last].size);
    describe_step(run, r, first, last, f);
    umb_path_class small = r[first].path, large = r[last].path;
    if ((small == UMB_PATH_UNKNOWN || large == UMB_PATH_UNKNOWN) && !run->path_asked)
        snprintf(f->advice, sizeof f->advice, "run with --path to see which path each size took");
    else if (small == UMB_PATH_UNKNOWN || large == UMB_PATH_UNKNOWN)
        snprintf(f->advice, sizeof f->advice, "the path is not known here (the header's Path note says why)");
    else if (small != large)
        snprintf(f->advice, sizeof f->advice,
                 "the smaller sizes went %s, the larger %s: the library switches protocol between them; move its "
                 "switch point down%s",
                 umb_path_name(small), umb_path_name(large),
                 run->ucx ? " (UCX: UCX_RNDV_THRESH; UCX_PROTO_INFO=y prints its choices)" : "");
    else
        snprintf(f->advice, sizeof f->advice, "both went %s; look at the library's protocol switch points%s",
                 umb_path_name(small), run->ucx ? " (UCX_PROTO_INFO=y prints UCX's)" : "");
}

static void staged_managed(const umb_run_facts *run, const umb_row_facts *r, int n, umb_finding *out, int *k, int max)
{
    int on_gpu = 0, managed = 0;
    for (int i = 0; i < run->nranks; i++) managed |= run->ranks[i].managed;
    if (!managed) return;
    for (int i = 0; i < run->nranks; i++) on_gpu |= run->ranks[i].managed_on_gpu;
    int first = -1, last = -1;
    double per_payload = 0;
    for (int i = 0; i < n; i++) {
        if (r[i].path != UMB_PATH_STAGED) continue;
        int slow = run->bandwidth && isfinite(r[i].share) && r[i].share < 0.5;
        if (!slow && !on_gpu) continue;
        if (first < 0) first = i;
        last = i;
        double host = r[i].copy.htod + r[i].copy.dtoh;
        if (isfinite(r[i].payload) && r[i].payload > 0 && host / r[i].payload > per_payload) per_payload = host / r[i].payload;
    }
    if (first < 0) return;
    umb_finding *f = add(out, k, max, "staged-managed");
    if (!f) return;
    umb_size_range(r[first].size, r[last].size, f->rows, sizeof f->rows);
    char share[128] = "", ratio[96] = "";
    if (isfinite(r[last].share))
        snprintf(share, sizeof share, "; at %zu bytes, %.0f%% of the host link (%.1f GB/s)", r[last].size,
                 100 * r[last].share, r[last].bound_gbs);
    if (per_payload > 0) snprintf(ratio, sizeof ratio, " (up to %.1f bytes copied per byte sent)", per_payload);
    snprintf(f->what, sizeof f->what,
             "managed buffers went through host memory at sizes %s: device-to-host and host-to-device copies%s%s",
             f->rows, ratio, share);
    snprintf(f->advice, sizeof f->advice, "compare with D buffers on the same ranks (umb-run --set aware)%s",
             run->ucx ? "; UCX classes managed pages as cuda-managed and pipelines them through host bounce buffers: "
                        "let it stage in GPU memory (UCX_RNDV_FRAG_MEM_TYPES=cuda, UCX_RNDV_FRAG_MEM_TYPE before 1.18)"
                      : "");
}

static void placement(const umb_run_facts *run, const umb_row_facts *r, int n, umb_finding *out, int *k, int max)
{
    int first = -1, last = -1;
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double not_held = isfinite(r[i].placed_pct) ? 100 - r[i].placed_pct : NAN;
        double re = isfinite(r[i].replaced) ? 100 * r[i].replaced : NAN;  /* per iteration -> % */
        double bad = fmax(isfinite(not_held) ? not_held : 0, isfinite(re) ? re : 0);
        if (bad <= 5) continue;
        if (first < 0) first = i;
        last = i;
        if (bad > worst) worst = bad;
    }
    if (first >= 0) {
        umb_finding *f = add(out, k, max, "re-placed");
        if (f) {
            umb_size_range(r[first].size, r[last].size, f->rows, sizeof f->rows);
            snprintf(f->what, sizeof f->what, "placement did not hold in up to %.0f%% of the timed iterations at sizes %s: "
                     "the driver left pages where the label says they are not, and they were placed again outside the "
                     "timer (docs/method.md, \"The placement check\")", worst, f->rows);
            snprintf(f->advice, sizeof f->advice, "--place-with prefetch moves the pages without touching them");
        }
    }
    if (!isfinite(run->thrash_nap_us) || run->thrash_enabled == 0) return;
    first = last = -1;
    double p50 = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(r[i].place_p50_us) || r[i].place_p50_us < 0.5 * run->thrash_nap_us) continue;
        if (first < 0) first = i;
        last = i;
        if (r[i].place_p50_us > p50) p50 = r[i].place_p50_us;
    }
    if (first < 0) return;
    umb_finding *f = add(out, k, max, "throttled");
    if (!f) return;
    /* A timing against a fixed level: it repeats where it clears the level by the least step worth naming. */
    f->confidence = p50 >= 0.5 * run->thrash_nap_us * (1 + INVERSION_MARGIN) ? UMB_REPEATS : UMB_SEEN_ONCE;
    umb_size_range(r[first].size, r[last].size, f->rows, sizeof f->rows);
    snprintf(f->what, sizeof f->what, "placing took up to %.0f us (P50) at sizes %s, the order of the driver's "
             "throttle for pages that bounce between CPU and GPU (uvm_perf_thrashing_nap, %.0f us): outside the "
             "timer, but it makes the run long%s", p50, f->rows, run->thrash_nap_us,
             f->confidence == UMB_REPEATS ? "" : "; but not 20% above half the nap, so one run cannot say it repeats");
    snprintf(f->advice, sizeof f->advice, "--place-with prefetch, or --place once where re-placing each time is not needed");
}

static void add_rank(char *list, size_t n, int rank)
{
    size_t used = strlen(list);
    if (used < n) snprintf(list + used, n - used, "%s%d", used ? "," : "", rank);
}

static void shared_gpu(const umb_run_facts *run, umb_finding *out, int *k, int max)
{
    for (int i = 0; i < run->nranks; i++) {
        const umb_rank_facts *a = &run->ranks[i];
        if (a->gpu < 0 || !a->gpu_bus[0]) continue;
        char ranks[96] = "";
        int first = 1, count = 0;
        for (int j = 0; j < run->nranks; j++) {
            const umb_rank_facts *b = &run->ranks[j];
            if (b->gpu < 0 || strcmp(a->host, b->host) || strcmp(a->gpu_bus, b->gpu_bus)) continue;
            if (j < i) first = 0;  /* reported with an earlier rank */
            add_rank(ranks, sizeof ranks, j);
            count++;
        }
        if (!first || count < 2) continue;
        umb_finding *f = add(out, k, max, "shared-gpu");
        if (!f) return;
        snprintf(f->rows, sizeof f->rows, "ranks %s", ranks);
        snprintf(f->what, sizeof f->what, "ranks %s share GPU %s on %s: unless MPS runs them in one context, their CUDA "
                 "contexts take turns on it, which every GPU path they use pays for (docs/stacks.md)", ranks, a->gpu_bus,
                 a->host);
        snprintf(f->advice, sizeof f->advice, "one GPU per rank, or run the ranks under MPS (nvidia-cuda-mps-control -d)");
    }
}

/* Whether a NUMA list ("0", "0,1", "0-1") holds node. */
static int numa_has(const char *list, int node)
{
    const char *p = list;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) return -1;  /* "unknown" */
        if (*end == '-') hi = strtol(end + 1, &end, 10);
        if (node >= lo && node <= hi) return 1;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') break;
    }
    return 0;
}

static void binding(const umb_run_facts *run, umb_finding *out, int *k, int max)
{
    char loose[96] = "", far[96] = "", far_what[256] = "";
    for (int i = 0; i < run->nranks; i++) {
        const umb_rank_facts *r = &run->ranks[i];
        if (r->all_cpus) add_rank(loose, sizeof loose, i);
        if (r->gpu >= 0 && r->gpu_numa >= 0 && numa_has(r->cpu_numa, r->gpu_numa) == 0) {
            add_rank(far, sizeof far, i);
            size_t used = strlen(far_what);
            if (used < sizeof far_what)
                snprintf(far_what + used, sizeof far_what - used, "%srank %d on NUMA %s, its GPU on %d", used ? "; " : "",
                         i, r->cpu_numa, r->gpu_numa);
        }
    }
    umb_finding *f;
    if (loose[0] && (f = add(out, k, max, "unbound"))) {
        snprintf(f->rows, sizeof f->rows, "ranks %s", loose);
        snprintf(f->what, sizeof f->what, "ranks %s may run on every CPU of their node: the scheduler can move them "
                 "during the run, which widens the spread", loose);
        snprintf(f->advice, sizeof f->advice, "bind each rank: mpirun --bind-to core, srun --cpu-bind=cores, "
                 "jsrun -b packed:1");
    }
    if (far[0] && (f = add(out, k, max, "numa-far"))) {
        snprintf(f->rows, sizeof f->rows, "ranks %s", far);
        snprintf(f->what, sizeof f->what, "%s: copies between host memory and the GPU cross the link between "
                 "sockets", far_what);
        snprintf(f->advice, sizeof f->advice, "bind each rank to its GPU's NUMA node (mpirun --map-by numa with a "
                 "rankfile, srun --gpu-bind=closest)");
    }
}

int umb_findings(const umb_run_facts *run, const umb_row_facts *rows, int n, umb_finding *out, int max)
{
    int k = 0;
    inversion(run, rows, n, out, &k, max);
    staged_managed(run, rows, n, out, &k, max);
    placement(run, rows, n, out, &k, max);
    shared_gpu(run, out, &k, max);
    binding(run, out, &k, max);
    return k;
}
