/* --counters' bookkeeping: where a record stamped t falls (timeline), how a
   CUPTI record counts (a CPU fault's value is a program counter), and
   getrusage faults landing in the phase that caused them. */
#include "check.h"
#include "config.h"
#include "counters.h"
#include "cupti_um.h"

#include <stdlib.h>
#include <unistd.h>

#ifdef HAVE_CUPTI
#include <cupti.h>
#endif

static void timeline(void)
{
    umb_timeline tl = {0};
    CHECK(umb_timeline_at(&tl, 5) == UMB_PH_IDLE);  /* empty */
    umb_timeline_mark(&tl, 100, UMB_PH_IDLE);
    umb_timeline_mark(&tl, 200, UMB_PH_WARMUP);
    umb_timeline_mark(&tl, 300, UMB_PH_PLACE);
    umb_timeline_mark(&tl, 310, UMB_PH_MEASURED);
    umb_timeline_mark(&tl, 400, UMB_PH_CHECK);
    umb_timeline_mark(&tl, 450, UMB_PH_IDLE);
    CHECK(umb_timeline_at(&tl, 99) == UMB_PH_IDLE);     /* before the size */
    CHECK(umb_timeline_at(&tl, 200) == UMB_PH_WARMUP);  /* a mark starts its phase */
    CHECK(umb_timeline_at(&tl, 299) == UMB_PH_WARMUP);
    CHECK(umb_timeline_at(&tl, 305) == UMB_PH_PLACE);
    CHECK(umb_timeline_at(&tl, 310) == UMB_PH_MEASURED);
    CHECK(umb_timeline_at(&tl, 399) == UMB_PH_MEASURED);
    CHECK(umb_timeline_at(&tl, 420) == UMB_PH_CHECK);
    CHECK(umb_timeline_at(&tl, 1000) == UMB_PH_IDLE);   /* after the size */
    /* Many marks: still the last one at or before t. */
    for (uint64_t t = 1000; t < 100000; t += 10) umb_timeline_mark(&tl, t, t % 20 ? UMB_PH_PLACE : UMB_PH_MEASURED);
    CHECK(umb_timeline_at(&tl, 50005) == UMB_PH_MEASURED);  /* mark 50000 */
    CHECK(umb_timeline_at(&tl, 50015) == UMB_PH_PLACE);     /* mark 50010 */
    umb_timeline_free(&tl);
}

static void record_amounts(void)
{
    uint64_t a = 0;
    if (!umb_cupti_built()) {
        CHECK(umb_cupti_amount(1, 4096, &a) == -1);
        return;
    }
#ifdef HAVE_CUPTI
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, 65536, &a) == UMB_CTR_DTOH && a == 65536);
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, 4096, &a) == UMB_CTR_HTOD && a == 4096);
    /* The value of a CPU fault record is the faulting instruction's address. */
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT, 0x7f12345678ull, &a) == UMB_CTR_CPU_FAULTS && a == 1);
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT, 3, &a) == UMB_CTR_GPU_FAULTS && a == 3);
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING, 2097152, &a) == UMB_CTR_THRASHING && a == 1);
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING, 0, &a) == UMB_CTR_THROTTLING && a == 1);
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP, 65536, &a) == UMB_CTR_REMOTE_MAPS && a == 1);
    CHECK(umb_cupti_amount(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD, 4096, &a) == -1);
#endif
}

/* Touching fresh pages in one phase puts that many minor faults there. */
static void rusage_phases(void)
{
    enum { PAGES = 2048 };
    long page = sysconf(_SC_PAGESIZE);
    umb_counts ph[UMB_NPHASES];
    char note[256] = "";
    umb_counters_size_end(ph);  /* off: all zero */
    CHECK(ph[UMB_PH_MEASURED].v[UMB_CTR_MINFLT] == 0);
    CHECK(umb_counters_start(0, note, sizeof note) == 0 && umb_counters_on() && !umb_counters_cupti());

    volatile char *a = malloc((size_t)PAGES * (size_t)page), *b = malloc((size_t)PAGES * (size_t)page);
    umb_counters_size_begin(1);
    umb_counters_iteration(0);  /* warm-up */
    umb_counters_iteration(1);  /* timed */
    for (int i = 0; i < PAGES; i++) a[(size_t)i * (size_t)page] = 1;
    umb_phase was = umb_counters_enter(UMB_PH_PLACE);
    CHECK(was == UMB_PH_MEASURED);
    for (int i = 0; i < PAGES; i++) b[(size_t)i * (size_t)page] = 1;
    umb_counters_leave(was);
    umb_counters_size_end(ph);
    double measured = ph[UMB_PH_MEASURED].v[UMB_CTR_MINFLT], placed = ph[UMB_PH_PLACE].v[UMB_CTR_MINFLT];
    printf("minor faults: measured %.0f, placement %.0f, warm-up %.0f (%d pages each)\n", measured, placed,
           ph[UMB_PH_WARMUP].v[UMB_CTR_MINFLT], PAGES);
    /* Transparent huge pages can serve many pages with one fault: at least
       one fault each, and each phase's own pages counted where they were.
       AddressSanitizer's shadow (one byte per eight) faults in too. */
    enum { MOST = PAGES + PAGES / 8 + 64 };
    CHECK(measured >= 1 && measured <= MOST);
    CHECK(placed >= 1 && placed <= MOST);
    CHECK(ph[UMB_PH_WARMUP].v[UMB_CTR_MINFLT] < 64);
    CHECK(ph[UMB_PH_MEASURED].v[UMB_CTR_GPU_FAULTS] == 0);  /* no CUPTI: nothing */
    free((void *)a);
    free((void *)b);
}

int main(void)
{
    timeline();
    record_amounts();
    rusage_phases();
    return check_done("test_counters");
}
