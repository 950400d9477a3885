#include "counters.h"

#include "cupti_um.h"
#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const struct {
    const char *title, *key;
} names[UMB_NCTRS] = {
    [UMB_CTR_GPU_FAULTS] = {"GPU flt", "gpu_fault_groups"},
    [UMB_CTR_CPU_FAULTS] = {"CPU flt", "cpu_faults"},
    [UMB_CTR_HTOD] = {"HtoD B", "htod_bytes"},
    [UMB_CTR_DTOH] = {"DtoH B", "dtoh_bytes"},
    [UMB_CTR_THRASHING] = {"Thrash", "thrashing"},
    [UMB_CTR_THROTTLING] = {"Throttle", "throttling"},
    [UMB_CTR_REMOTE_MAPS] = {"RemoteMap", "remote_maps"},
    [UMB_CTR_MINFLT] = {"minflt", "minor_faults"},
    [UMB_CTR_MAJFLT] = {"majflt", "major_faults"},
};

const char *umb_counter_title(umb_counter c) { return names[c].title; }
const char *umb_counter_key(umb_counter c) { return names[c].key; }

void umb_timeline_mark(umb_timeline *tl, uint64_t t, umb_phase p)
{
    if (tl->n == tl->cap) {
        tl->cap = tl->cap ? 2 * tl->cap : 4096;
        tl->t = realloc(tl->t, tl->cap * sizeof *tl->t);
        tl->phase = realloc(tl->phase, tl->cap);
        if (!tl->t || !tl->phase) umb_fatal("realloc", __FILE__, __LINE__, "out of memory for the counters' timeline");
    }
    tl->t[tl->n] = t;
    tl->phase[tl->n++] = (unsigned char)p;
}

umb_phase umb_timeline_at(const umb_timeline *tl, uint64_t t)
{
    /* The last mark at or before t. */
    size_t lo = 0, hi = tl->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tl->t[mid] <= t) lo = mid + 1;
        else hi = mid;
    }
    return lo ? (umb_phase)tl->phase[lo - 1] : UMB_PH_IDLE;
}

void umb_timeline_free(umb_timeline *tl)
{
    free(tl->t);
    free(tl->phase);
    memset(tl, 0, sizeof *tl);
}

/* The run's state: main thread only. */
static struct {
    int on, cupti, copies, rusage;
    long skip;
    uint64_t dropped;
    umb_phase phase;
    umb_timeline tl;
    struct rusage last;
    umb_counts faults[UMB_NPHASES];  /* getrusage deltas, by phase */
} C;

int umb_counters_on(void) { return C.on; }
int umb_counters_cupti(void) { return C.cupti; }
int umb_counters_copies(void) { return C.copies; }
uint64_t umb_counters_dropped(void) { return C.dropped; }

int umb_counters_start_with(int um, int copies, int rusage, char *note, size_t n)
{
    C.on = 1;
    C.rusage = rusage;
    int started = (um || copies) && umb_cupti_start(um, copies, note, n);
    C.cupti = started && um;
    C.copies = started && copies;
    getrusage(RUSAGE_SELF, &C.last);
    return started;
}

int umb_counters_start(int cupti, char *note, size_t n) { return umb_counters_start_with(cupti, 0, 1, note, n); }

/* The faults since the last change go to the phase being left. */
static void change(umb_phase p)
{
    if (C.rusage) {
        struct rusage now;
        getrusage(RUSAGE_SELF, &now);
        C.faults[C.phase].v[UMB_CTR_MINFLT] += (double)(now.ru_minflt - C.last.ru_minflt);
        C.faults[C.phase].v[UMB_CTR_MAJFLT] += (double)(now.ru_majflt - C.last.ru_majflt);
        C.last = now;
    }
    C.phase = p;
    if (C.cupti || C.copies) umb_timeline_mark(&C.tl, umb_cupti_now(), p);
}

void umb_counters_size_begin(long skip)
{
    if (!C.on) return;
    C.skip = skip;
    C.tl.n = 0;
    memset(C.faults, 0, sizeof C.faults);
    change(UMB_PH_IDLE);
}

void umb_counters_iteration(long i)
{
    if (C.on) change(i < C.skip ? UMB_PH_WARMUP : UMB_PH_MEASURED);
}

umb_phase umb_counters_enter(umb_phase p)
{
    umb_phase was = C.phase;
    if (C.on) change(p);
    return was;
}

void umb_counters_leave(umb_phase previous)
{
    if (C.on) change(previous);
}

static void add_record(int counter, uint64_t amount, uint64_t t, void *ctx)
{
    umb_counts *per_phase = ctx;
    per_phase[umb_timeline_at(&C.tl, t)].v[counter] += (double)amount;
}

void umb_counters_size_end(umb_counts per_phase[UMB_NPHASES])
{
    memset(per_phase, 0, sizeof(umb_counts) * UMB_NPHASES);
    if (!C.on) return;
    change(UMB_PH_IDLE);
    if (C.cupti || C.copies) C.dropped = umb_cupti_drain(add_record, per_phase);
    for (int p = 0; p < UMB_NPHASES; p++) {
        per_phase[p].v[UMB_CTR_MINFLT] = C.faults[p].v[UMB_CTR_MINFLT];
        per_phase[p].v[UMB_CTR_MAJFLT] = C.faults[p].v[UMB_CTR_MAJFLT];
    }
}

int umb_counter_cols(umb_col *cols, const char *tprefix, const char *tsuffix, const char *kprefix,
                     const char *ksuffix, const umb_counts *moved, const umb_counts *placed, double per)
{
    static const struct {
        int place;
        umb_counter c;
    } shown[] = {{0, UMB_CTR_HTOD}, {0, UMB_CTR_DTOH}, {0, UMB_CTR_GPU_FAULTS}, {0, UMB_CTR_CPU_FAULTS},
                 {0, UMB_CTR_THRASHING}, {0, UMB_CTR_REMOTE_MAPS}, {1, UMB_CTR_HTOD}, {1, UMB_CTR_DTOH}};
    int n = (int)(sizeof shown / sizeof shown[0]);
    for (int i = 0; i < n; i++) {
        umb_col *col = &cols[i];
        umb_counter c = shown[i].c;
        memset(col, 0, sizeof *col);
        snprintf(col->title, sizeof col->title, "%s%s%s%s", tprefix, shown[i].place ? "Place " : "",
                 umb_counter_title(c), tsuffix);
        snprintf(col->key, sizeof col->key, "%s%s%s%s", kprefix, shown[i].place ? "place_" : "", umb_counter_key(c),
                 ksuffix);
        col->value = C.cupti ? (shown[i].place ? placed : moved)->v[c] * per : NAN;
        col->decimals = 1;
    }
    return n;
}

void umb_counters_header(umb_header *h, const char *per, const char *note)
{
    if (!C.on) return;
    umb_header_str(h, "counters", "Counters", "%s; %s (placement in the Place columns); times include the cost "
                   "of counting (docs/method.md)", C.cupti ? "CUPTI unified-memory counters and getrusage"
                   : "getrusage only (no CUPTI counters)", per);
    if (!C.cupti) umb_header_str(h, "counters_note", "Counters note", "%s", note);
}

void umb_counters_footer(umb_format f, FILE *out)
{
    if (!C.on || !C.cupti) return;
    if (f == UMB_FMT_JSON) fprintf(out, "{\"type\":\"counters\",\"dropped_records\":%llu}\n", (unsigned long long)C.dropped);
    else fprintf(out, "# Counters: CUPTI dropped %llu records%s\n", (unsigned long long)C.dropped,
                 C.dropped ? " (the counts are low)" : "");
}

void umb_counters_burst_warning(umb_header *h, size_t bytes)
{
    if (!C.cupti || bytes <= ((size_t)64 << 20)) return;
    umb_header_str(h, "counters_warning", "Counters warning",
                   "a GPU pass that demand-pages more than about 64 MiB at once migrates more than CUPTI "
                   "reports (on an H200: 40-70%% of 256 MiB, under 20%% of 1 GiB, with no dropped records): "
                   "take such counts as lower bounds (docs/method.md)");
}
