/* CUPTI's unified-memory counters through the activity API (CUPTI API
   reference: CUpti_ActivityUnifiedMemoryCounter3, cuptiActivity*), with
   libcupti loaded by dlopen: a machine without the driver still starts. */
#include "cupti_um.h"

#include "config.h"
#include "counters.h"

#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef UMB_CUPTI_LIB
#define UMB_CUPTI_LIB "libcupti.so"
#endif

static struct {
    CUptiResult (*configure)(CUpti_ActivityUnifiedMemoryCounterConfig *, uint32_t);
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
    CUptiResult (*dropped)(CUcontext, uint32_t, size_t *);
    CUptiResult (*timestamp)(uint64_t *);
    CUptiResult (*result_string)(CUptiResult, const char **);
} api;

/* Records kept between drains (CUPTI may call back from its own thread). */
typedef struct {
    uint64_t amount, t;
    int counter;
} kept;
static kept *records;
static size_t nrecords, cap;
static uint64_t ndropped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define BUFFER_BYTES ((size_t)4 << 20)

int umb_cupti_built(void) { return 1; }

int umb_cupti_amount(int cupti_kind, uint64_t value, uint64_t *amount)
{
    switch (cupti_kind) {
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD: *amount = value; return UMB_CTR_HTOD;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH: *amount = value; return UMB_CTR_DTOH;
    /* value: "the number of page fault groups for the same page" */
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT: *amount = value; return UMB_CTR_GPU_FAULTS;
    /* value: the faulting instruction's program counter; count records */
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT: *amount = 1; return UMB_CTR_CPU_FAULTS;
    /* value: the size of the region; these count events */
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING: *amount = 1; return UMB_CTR_THRASHING;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING: *amount = 1; return UMB_CTR_THROTTLING;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP: *amount = 1; return UMB_CTR_REMOTE_MAPS;
    default: return -1;
    }
}

int umb_cupti_copy_counter(int copy_kind)
{
    switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return UMB_CPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return UMB_CPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return UMB_CPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return UMB_CPY_PTOP;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return UMB_CPY_HTOH;
    default: return -1;
    }
}

/* The leading fields every memcpy record shares (CUpti_ActivityMemcpy5/6
   and CUpti_ActivityMemcpyPtoP3/4), so any CUDA 12.2+ CUPTI reads alike. */
typedef struct {
    CUpti_ActivityKind kind;
    uint8_t copyKind, srcKind, dstKind, flags;
    uint64_t bytes, start, end;
} copy_head;

static void keep(uint64_t amount, uint64_t t, int counter)
{
    if (nrecords == cap) {
        size_t ncap = cap ? 2 * cap : 65536;
        kept *bigger = realloc(records, ncap * sizeof *records);
        if (!bigger) {
            ndropped++;
            return;
        }
        records = bigger;
        cap = ncap;
    }
    records[nrecords++] = (kept){amount, t, counter};
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)size;
    CUpti_Activity *r = NULL;
    size_t dropped = 0;
    pthread_mutex_lock(&lock);
    while (api.next_record(buffer, valid, &r) == CUPTI_SUCCESS) {
        if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY || r->kind == CUPTI_ACTIVITY_KIND_MEMCPY2) {
            const copy_head *m = (const void *)r;
            int c = umb_cupti_copy_counter(m->copyKind);
            if (c < 0) continue;
            keep(m->bytes, m->start, c);
            keep(1, m->start, UMB_CPY_COUNT);
            continue;
        }
        if (r->kind != CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) continue;
        /* Counter2's fields are the leading fields of Counter3 (CUDA 13). */
        const CUpti_ActivityUnifiedMemoryCounter2 *u = (const void *)r;
        uint64_t amount;
        int c = umb_cupti_amount(u->counterKind, u->value, &amount);
        if (c >= 0) keep(amount, u->start, c);
    }
    if (api.dropped(ctx, stream, &dropped) == CUPTI_SUCCESS) ndropped += dropped;
    pthread_mutex_unlock(&lock);
    free(buffer);
}

static const char *result(CUptiResult rc)
{
    const char *s = NULL;
    return api.result_string && api.result_string(rc, &s) == CUPTI_SUCCESS && s ? s : "unknown CUPTI error";
}

#define LOAD(field, name)                                                         \
    if (!(*(void **)&api.field = dlsym(lib, name))) {                             \
        snprintf(why, n, "%s has no %s", UMB_CUPTI_LIB, name);                    \
        return 0;                                                                 \
    }

int umb_cupti_start(int um, int copies, char *why, size_t n)
{
    void *lib = dlopen(UMB_CUPTI_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, n, "cannot load CUPTI: %s", dlerror());
        return 0;
    }
    LOAD(configure, "cuptiActivityConfigureUnifiedMemoryCounter")
    LOAD(register_callbacks, "cuptiActivityRegisterCallbacks")
    LOAD(enable, "cuptiActivityEnable")
    LOAD(flush_all, "cuptiActivityFlushAll")
    LOAD(next_record, "cuptiActivityGetNextRecord")
    LOAD(dropped, "cuptiActivityGetNumDroppedRecords")
    LOAD(timestamp, "cuptiGetTimestamp")
    LOAD(result_string, "cuptiGetResultString")

    static const CUpti_ActivityUnifiedMemoryCounterKind kinds[] = {
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP,
    };
    enum { NKINDS = sizeof kinds / sizeof kinds[0] };
    CUpti_ActivityUnifiedMemoryCounterConfig config[NKINDS];
    for (int i = 0; i < NKINDS; i++)
        config[i] = (CUpti_ActivityUnifiedMemoryCounterConfig){
            .scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE,
            .kind = kinds[i], .deviceId = 0, .enable = 1};
    CUptiResult rc;
    if (um && (rc = api.configure(config, NKINDS)) != CUPTI_SUCCESS) {
        snprintf(why, n, "CUPTI unified-memory counters unavailable here: %s", result(rc));
        return 0;
    }
    if ((rc = api.register_callbacks(buffer_requested, buffer_completed)) != CUPTI_SUCCESS ||
        (um && (rc = api.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)) != CUPTI_SUCCESS) ||
        (copies && (rc = api.enable(CUPTI_ACTIVITY_KIND_MEMCPY)) != CUPTI_SUCCESS) ||
        (copies && (rc = api.enable(CUPTI_ACTIVITY_KIND_MEMCPY2)) != CUPTI_SUCCESS)) {
        snprintf(why, n, "CUPTI activity API: %s", result(rc));
        return 0;
    }
    return 1;
}

uint64_t umb_cupti_now(void)
{
    uint64_t t = 0;
    if (api.timestamp) api.timestamp(&t);
    return t;
}

static size_t kept_count(void)
{
    pthread_mutex_lock(&lock);
    size_t n = nrecords;
    pthread_mutex_unlock(&lock);
    return n;
}

uint64_t umb_cupti_drain(umb_um_sink sink, void *ctx)
{
    /* The driver hands unified-memory events to CUPTI some time after they
       happen (a 256 MiB demand read came out at 58% of its bytes and none
       of its GPU faults with one flush): flush until three flushes 5 ms
       apart bring nothing new, for at most half a second. */
    struct timespec pause = {0, 5000000};
    for (int quiet = 0, i = 0; quiet < 3 && i < 250; i++) {
        size_t before = kept_count();
        api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        quiet = kept_count() > before ? 0 : quiet + 1;
        if (quiet < 3) nanosleep(&pause, NULL);
    }
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nrecords; i++) sink(records[i].counter, records[i].amount, records[i].t, ctx);
    nrecords = 0;
    uint64_t dropped = ndropped;
    pthread_mutex_unlock(&lock);
    return dropped;
}
