#include "buffer.h"

#include "clock.h"
#include "counters.h"
#include "error.h"
#include "gpu.h"
#include "pattern.h"
#include "placement.h"
#include "residency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t page_round(size_t bytes)
{
    return bytes ? (bytes + UMB_PAGE - 1) / UMB_PAGE * UMB_PAGE : UMB_PAGE;
}

int umb_buffer_alloc(umb_buffer *b, umb_kind kind, size_t bytes, unsigned advise, int allow_oversub,
                     char *why, size_t n)
{
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->bytes = page_round(bytes);
    if (kind == UMB_H) {
        b->ptr = aligned_alloc(UMB_PAGE, b->bytes);
        if (!b->ptr) {
            snprintf(why, n, "cannot allocate %zu bytes of host memory (buffer H)", b->bytes);
            return -1;
        }
    } else {
        if (umb_kind_is_managed(kind) && !allow_oversub) {
            size_t free_b = umb_gpu_free_memory();
            if (b->bytes > free_b) {
                snprintf(why, n, "buffer %s: %zu bytes of managed memory exceed the %zu bytes free on GPU %d; "
                         "pass --allow-oversubscription to allow it", umb_kind_name(kind), b->bytes, free_b,
                         umb_gpu_current());
                return -1;
            }
        }
        b->ptr = umb_gpu_alloc(kind, b->bytes, why, n);
        if (!b->ptr) return -1;
        if (umb_kind_is_managed(kind) && advise) umb_gpu_advise(b->ptr, b->bytes, advise);
        b->advise = umb_kind_is_managed(kind) ? advise : 0;
    }
    if (kind == UMB_D || kind == UMB_MD) b->staging = umb_xmalloc(b->bytes, "a validation copy");
    umb_buffer_fill(b, 0, b->bytes, UMB_PATTERN_POISON);
    return 0;
}

void umb_buffer_free(umb_buffer *b)
{
    if (!b->ptr) return;
    if (b->kind == UMB_H) free(b->ptr);
    else umb_gpu_free(b->kind, b->ptr);
    free(b->staging);
    memset(b, 0, sizeof *b);
}

static void cpu_touch(unsigned char *p, size_t bytes)
{
    volatile unsigned char *v = p;
    for (size_t i = 0; i < bytes; i += UMB_PAGE) v[i] = v[i];
}

static void place_with(umb_buffer *b, size_t bytes, umb_place_with how)
{
    int to_gpu = b->kind == UMB_MD;
    if (how == UMB_PLACE_PREFETCH) umb_gpu_prefetch(b->ptr, bytes, to_gpu);
    else if (to_gpu) umb_gpu_touch(b->ptr, bytes);
    else cpu_touch(b->ptr, bytes);
}

int umb_buffer_where(const umb_buffer *b, size_t bytes)
{
    /* read-mostly keeps a host copy of pages prefetched to the GPU: the
       present bit cannot tell MD apart there. */
    if (b->kind == UMB_MD && (b->advise & UMB_ADV_READ_MOSTLY)) return -1;
    return umb_resident(b->ptr, bytes, b->kind == UMB_MH);
}

void umb_buffer_place(umb_buffer *b, size_t bytes, umb_place_with how)
{
    if (!umb_kind_is_managed(b->kind) || !bytes) return;
    umb_phase was = umb_counters_enter(UMB_PH_PLACE);
    double t0 = umb_now();
    place_with(b, bytes, how);
    double took = umb_now() - t0;
    umb_place_check mode = umb_placement_mode();
    t0 = umb_now();
    int first = mode == UMB_CHECK_OFF ? -1 : umb_buffer_where(b, bytes), now = first, redone = 0;
    double check = umb_now() - t0;
    /* A prefetch clears the driver's thrashing state for the range, so it
       moves pages a touch could not (docs/method.md). */
    while (mode == UMB_CHECK_ENFORCE && now == 0 && redone < UMB_REPLACE_TRIES) {
        place_with(b, bytes, UMB_PLACE_PREFETCH);
        redone++;
        now = umb_buffer_where(b, bytes);
    }
    umb_counters_leave(was);
    if (mode != UMB_CHECK_OFF) umb_placement_note(first, redone, now, took, check);
}

static int on_device(const umb_buffer *b) { return b->kind == UMB_D || b->kind == UMB_MD; }

void umb_buffer_fill(umb_buffer *b, size_t offset, size_t bytes, uint32_t seed)
{
    unsigned char *p = b->ptr + offset;
    umb_phase was = umb_counters_enter(UMB_PH_CHECK);
    if (on_device(b)) umb_gpu_fill(p, bytes, seed);
    else
        for (size_t i = 0; i < bytes; i++) p[i] = umb_pattern_byte(seed, i);
    umb_counters_leave(was);
}

long umb_buffer_check(umb_buffer *b, size_t offset, size_t bytes, uint32_t seed, unsigned *got, unsigned *want)
{
    const unsigned char *p = b->ptr + offset;
    long at = -1;
    umb_phase was = umb_counters_enter(UMB_PH_CHECK);
    if (on_device(b)) {
        /* The CPU cannot read D; MD is copied too, so that checking never
           faults its pages over to the host. */
        umb_gpu_copy(b->staging + offset, b->ptr + offset, bytes);
        p = b->staging + offset;
    }
    for (size_t i = 0; i < bytes; i++) {
        unsigned char w = umb_pattern_byte(seed, i);
        if (p[i] != w) {
            *got = p[i];
            *want = w;
            at = (long)i;
            break;
        }
    }
    umb_counters_leave(was);
    return at;
}

void umb_buffer_write(umb_buffer *b, const void *src, size_t bytes)
{
    umb_phase was = umb_counters_enter(UMB_PH_CHECK);
    if (on_device(b)) umb_gpu_copy(b->ptr, src, bytes);
    else memcpy(b->ptr, src, bytes);
    umb_counters_leave(was);
}

void umb_buffer_read(umb_buffer *b, void *dst, size_t bytes)
{
    umb_phase was = umb_counters_enter(UMB_PH_CHECK);
    if (on_device(b)) umb_gpu_copy(dst, b->ptr, bytes);
    else memcpy(dst, b->ptr, bytes);
    umb_counters_leave(was);
}
