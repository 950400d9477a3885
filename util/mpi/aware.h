/* Whether D buffers may go to this MPI: what the library says, what its
   UCX offers, and the verdict from both (docs/decisions.md, "CUDA
   awareness"). The verdict is a pure function of the facts, so it is
   unit-tested without MPI or a GPU. */
#ifndef UMB_AWARE_H
#define UMB_AWARE_H

#include <stddef.h>

typedef enum { UMB_AWARE_NO, UMB_AWARE_YES, UMB_AWARE_UNKNOWN } umb_cuda_aware;

typedef enum {
    UMB_VERDICT_AWARE,        /* the library carries CUDA memory */
    UMB_VERDICT_NOT_AWARE,    /* it does not: D would crash it */
    UMB_VERDICT_UCX_CARRIES,  /* the library says no, but its pml is UCX and UCX carries CUDA memory */
    UMB_VERDICT_UNKNOWN,      /* nobody says */
} umb_verdict;

typedef struct {
    umb_cuda_aware library;   /* MPIX_GPU_query_support / MPIX_Query_cuda_support */
    const char *library_how;  /* the query that answered */
    int ucx_loaded;           /* libucp is in the process */
    const char *ucx_version;  /* "1.22.0", or "" */
    int ucx_cuda;             /* UCX's CUDA transports (libuct_cuda) are loaded */
    const char *ucx_tls;      /* UCX_TLS, or NULL when unset */
    const char *ucx_memtype_cache;  /* UCX_MEMTYPE_CACHE, or NULL (reported, not weighed) */
    const char *pml;          /* Open MPI's pml in use ("ucx", "ob1"), or "" when unknown or not Open MPI */
    const char *pml_how;      /* where that came from */
} umb_aware_facts;

/* The verdict, with one line of reasons in why. */
umb_verdict umb_aware_verdict(const umb_aware_facts *f, char *why, size_t n);
/* "yes", "no", "ucx", "unknown": the first word of the header's CUDA-aware line. */
const char *umb_verdict_name(umb_verdict v);
/* D buffers run without --assume-cuda-aware only where this is 1. */
int umb_verdict_allows_d(umb_verdict v);
/* Whether a UCX_TLS value lets UCX use its CUDA transports (NULL: unset, all). */
int umb_ucx_tls_has_cuda(const char *tls);

#endif
