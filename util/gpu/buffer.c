#include "buffer.h"

#include "clock.h"
#include "counters.h"
#include "error.h"
#include "gpu.h"
#include "umb_numa.h"
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

/* Page-aligned pageable memory (a multiple of pages), on `node` when >= 0. */
static unsigned char *host_alloc(size_t bytes, int node)
{
    return node >= 0 ? umb_numa_alloc(bytes, node) : aligned_alloc(UMB_PAGE, bytes);
}

static void host_free(unsigned char *p, size_t bytes, int node)
{
    if (node >= 0) umb_numa_free(p, bytes);
    else free(p);
}

/* H and REG: pageable memory, REG then registered. */
static int alloc_host(umb_buffer *b, int node, char *why, size_t n)
{
    b->ptr = host_alloc(b->bytes, node);
    if (!b->ptr) {
        if (node >= 0)
            snprintf(why, n, "cannot allocate %zu bytes of host memory on NUMA node %d (buffer %s)", b->bytes, node,
                     umb_kind_name(b->kind));
        else
            snprintf(why, n, "cannot allocate %zu bytes of host memory (buffer %s)", b->bytes, umb_kind_name(b->kind));
        return -1;
    }
    b->node = node;
    if (b->kind == UMB_REG && umb_gpu_register(b->ptr, b->bytes, why, n)) {
        host_free(b->ptr, b->bytes, node);
        b->ptr = NULL;
        return -1;
    }
    return 0;
}

/* P, WC, D, MH, MD: from the CUDA runtime, on the GPU in use. */
static int alloc_gpu(umb_buffer *b, unsigned advise, int allow_oversub, char *why, size_t n)
{
    if (umb_kind_is_managed(b->kind) && !allow_oversub) {
        size_t free_b = umb_gpu_free_memory();
        if (b->bytes > free_b) {
            snprintf(why, n, "buffer %s: %zu bytes of managed memory exceed the %zu bytes free on GPU %d; "
                     "pass --allow-oversubscription to allow it", umb_kind_name(b->kind), b->bytes, free_b,
                     umb_gpu_current());
            return -1;
        }
    }
    b->ptr = umb_gpu_alloc(b->kind, b->bytes, why, n);
    if (!b->ptr) return -1;
    if (umb_kind_is_managed(b->kind) && advise) umb_gpu_advise(b->ptr, b->bytes, advise);
    b->advise = umb_kind_is_managed(b->kind) ? advise : 0;
    return 0;
}

static int alloc_kind(umb_buffer *b, umb_kind kind, size_t bytes, unsigned advise, int allow_oversub, int node,
                      char *why, size_t n)
{
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->bytes = page_round(bytes);
    b->device = umb_gpu_current();
    b->node = -1;
    int host = kind == UMB_H || kind == UMB_REG;
    if (host ? alloc_host(b, node, why, n) : alloc_gpu(b, advise, allow_oversub, why, n)) return -1;
    if (kind == UMB_D || kind == UMB_MD) b->staging = umb_xmalloc(b->bytes, "a validation copy");
    umb_buffer_fill(b, 0, b->bytes, UMB_PATTERN_POISON);
    return 0;
}

int umb_buffer_alloc(umb_buffer *b, umb_kind kind, size_t bytes, unsigned advise, int allow_oversub,
                     char *why, size_t n)
{
    return alloc_kind(b, kind, bytes, advise, allow_oversub, -1, why, n);
}

int umb_buffer_alloc_on(umb_buffer *b, umb_kind kind, size_t bytes, int node, char *why, size_t n)
{
    return alloc_kind(b, kind, bytes, 0, 1, node, why, n);
}

void umb_buffer_free(umb_buffer *b)
{
    if (!b->ptr) return;
    if (b->kind == UMB_REG) umb_gpu_unregister(b->ptr);
    if (b->kind == UMB_H || b->kind == UMB_REG) host_free(b->ptr, b->bytes, b->node);
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
/* Host memory a kernel reaches at its host address (mapped). */
static int gpu_mapped(const umb_buffer *b) { return b->kind == UMB_WC || b->kind == UMB_REG; }

void umb_buffer_fill(umb_buffer *b, size_t offset, size_t bytes, uint32_t seed)
{
    unsigned char *p = b->ptr + offset;
    umb_phase was = umb_counters_enter(UMB_PH_CHECK);
    if (on_device(b) || gpu_mapped(b)) umb_gpu_fill(p, bytes, seed);
    else
        for (size_t i = 0; i < bytes; i++) p[i] = umb_pattern_byte(seed, i);
    umb_counters_leave(was);
}

long umb_buffer_check(umb_buffer *b, size_t offset, size_t bytes, uint32_t seed, unsigned *got, unsigned *want)
{
    const unsigned char *p = b->ptr + offset;
    long at = -1;
    umb_phase was = umb_counters_enter(UMB_PH_CHECK);
    if (gpu_mapped(b)) {
        at = umb_gpu_check(p, bytes, seed);
        if (at >= 0) *got = p[at], *want = umb_pattern_byte(seed, (size_t)at);
        umb_counters_leave(was);
        return at;
    }
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
