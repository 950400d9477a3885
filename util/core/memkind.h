/* The memory kinds umbench measures, one model for every program: each
   kind has a short name (H, P, D, MH, MD, as OMB's command lines) and a
   long one (pageable, pinned, device, ...); every program accepts both, and
   each says which kinds it takes. The cudaMemAdvise hints for managed
   memory, and their one parser. No CUDA, no MPI. */
#ifndef UMB_MEMKIND_H
#define UMB_MEMKIND_H

#include <stddef.h>

typedef enum {
    UMB_H,     /* pageable host (malloc) */
    UMB_P,     /* pinned host (cudaMallocHost) */
    UMB_D,     /* device (cudaMalloc) */
    UMB_MH,    /* managed, placed on the host */
    UMB_MD,    /* managed, placed on the device */
    UMB_M,     /* managed, placed by the run's own policy (umb_um); the MPI programs read M as MH (OMB) */
    UMB_WC,    /* pinned, write-combined (cudaHostAllocWriteCombined) */
    UMB_REG,   /* pageable memory registered with cudaHostRegister */
    UMB_NH,    /* pageable host memory on a chosen NUMA node */
    UMB_NKINDS
} umb_kind;

#define UMB_KIND_BIT(k) (1u << (k))
/* The kinds the MPI programs move: H P D MH MD. */
#define UMB_KINDS_MPI (UMB_KIND_BIT(UMB_H) | UMB_KIND_BIT(UMB_P) | UMB_KIND_BIT(UMB_D) | UMB_KIND_BIT(UMB_MH) | UMB_KIND_BIT(UMB_MD))

const char *umb_kind_name(umb_kind k);   /* "MD" */
const char *umb_kind_long(umb_kind k);   /* "managed-device" */
int umb_kind_is_managed(umb_kind k);     /* MH, MD, M */
int umb_kind_needs_gpu(umb_kind k);      /* all but H and NH */
/* Either name of a kind in `accepted` (UMB_KIND_BIT set): 0, else -1. */
int umb_kind_parse(const char *s, unsigned accepted, umb_kind *k);
/* "H (pageable), P (pinned)" for the kinds in `accepted`: for error lines. */
void umb_kind_list(unsigned accepted, char *buf, size_t n);

/* --advise bits, applied to managed memory right after allocation. */
enum {
    UMB_ADV_PREFERRED_CPU = 1 << 0,
    UMB_ADV_PREFERRED_GPU = 1 << 1,
    UMB_ADV_ACCESSED_BY_GPU = 1 << 2,
    UMB_ADV_ACCESSED_BY_CPU = 1 << 3,
    UMB_ADV_READ_MOSTLY = 1 << 4,
};
/* --advise LIST: preferred=cpu|gpu, accessed-by=gpu|cpu (a bare
   accessed-by is the GPU), read-mostly, none, comma-separated. 0, or 1
   with one line in err naming the bad hint and the accepted ones. */
int umb_advise_parse(const char *list, unsigned *advise, char *err, size_t n);
/* "preferred=gpu,read-mostly" or "none" */
void umb_advise_string(unsigned advise, char *buf, size_t n);

#endif
