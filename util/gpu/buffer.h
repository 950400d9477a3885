/* Buffers of every kind (H P D MH MD for the MPI programs; WC and REG for
   umb_copy): allocation, placement, validation fill and check. Placement
   and checks are never timed. */
#ifndef UMB_BUFFER_H
#define UMB_BUFFER_H

#include "memkind.h"

#include <stddef.h>
#include <stdint.h>

/* How managed pages are placed: touched in place, or cudaMemPrefetchAsync. */
typedef enum { UMB_PLACE_KERNEL, UMB_PLACE_PREFETCH } umb_place_with;

typedef struct {
    umb_kind kind;
    unsigned char *ptr;
    size_t bytes;
    unsigned char *staging;  /* host copy, for checking D and MD */
    unsigned advise;         /* --advise bits applied to it */
    int device;              /* the GPU in use when allocated (-1: none) */
    int node;                /* H, REG: the NUMA node it was put on (-1: any) */
} umb_buffer;

#define UMB_PAGE 4096

/* Allocates (H P D MH MD, and WC: cudaHostAlloc write-combined, REG:
   page-aligned malloc passed to cudaHostRegister; both mapped and
   portable) on the GPU in use (umb_gpu_use first), applies the advise bits
   to managed memory, writes the poison pattern. Managed memory larger than
   the GPU's free memory is refused unless allow_oversub. Returns 0, or -1
   with one line in why. */
int umb_buffer_alloc(umb_buffer *b, umb_kind kind, size_t bytes, unsigned advise, int allow_oversub,
                     char *why, size_t n);
/* The same, with the pageable memory of H and REG on NUMA node `node`
   (numa_alloc_onnode; -1: as umb_buffer_alloc); no advise, no
   oversubscription check (the caller checks free memory). */
int umb_buffer_alloc_on(umb_buffer *b, umb_kind kind, size_t bytes, int node, char *why, size_t n);
void umb_buffer_free(umb_buffer *b);

/* Puts the managed pages covering the first bytes where the kind says (MH
   host, MD device): the CPU or a kernel rewrites one byte per page, or
   cudaMemPrefetchAsync moves them. Data is kept. Then, unless the check is
   off (util/placement.h), reads where the pages are, places again with
   prefetch where enforced, and notes it all. H, P and D: nothing. */
void umb_buffer_place(umb_buffer *b, size_t bytes, umb_place_with how);

/* Whether the first bytes' pages are where the kind says: 1, 0, or -1
   when it cannot be told (no pagemap; MD under read-mostly). */
int umb_buffer_where(const umb_buffer *b, size_t bytes);

/* Writes the validation pattern into bytes [offset, offset + bytes), where
   the kind lives (a kernel for D, MD, WC and REG, else the CPU); byte i of
   the region gets umb_pattern_byte(seed, i). */
void umb_buffer_fill(umb_buffer *b, size_t offset, size_t bytes, uint32_t seed);

/* Checks every byte of that region: on the CPU (D and MD through a host
   copy), WC and REG by a kernel (the CPU would read WC uncached). Returns
   -1 when all match, else the first wrong offset within it, with what was
   found and expected. */
long umb_buffer_check(umb_buffer *b, size_t offset, size_t bytes, uint32_t seed, unsigned *got, unsigned *want);

/* Copies host data into the buffer's first bytes, or out of them (D and MD
   through the CUDA runtime). For data that is not a byte pattern. */
void umb_buffer_write(umb_buffer *b, const void *src, size_t bytes);
void umb_buffer_read(umb_buffer *b, void *dst, size_t bytes);

#endif
