#include "buffer.h"

#include "counters.h"
#include "error.h"
#include "gpu.h"
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t page_round(size_t bytes)
{
    return bytes ? (bytes + UMB_PAGE - 1) / UMB_PAGE * UMB_PAGE : UMB_PAGE;
}

int umb_buffer_alloc(umb_buffer *b, umb_kind kind, size_t bytes, const umb_options *o,
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
        if (umb_kind_is_managed(kind) && !o->allow_oversubscription) {
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
        if (umb_kind_is_managed(kind) && o->advise) umb_gpu_advise(b->ptr, b->bytes, o->advise);
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

void umb_buffer_place(umb_buffer *b, size_t bytes, umb_place_with how)
{
    if (!umb_kind_is_managed(b->kind) || !bytes) return;
    int to_gpu = b->kind == UMB_MD;
    umb_phase was = umb_counters_enter(UMB_PH_PLACE);
    if (how == UMB_PLACE_PREFETCH) umb_gpu_prefetch(b->ptr, bytes, to_gpu);
    else if (to_gpu) umb_gpu_touch(b->ptr, bytes);
    else cpu_touch(b->ptr, bytes);
    umb_counters_leave(was);
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
