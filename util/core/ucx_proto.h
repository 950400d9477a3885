/* UCX's own protocol choices, read from what it prints with
   UCX_PROTO_INFO=y (UCX 1.13+, protocols v2): per endpoint configuration and
   operation, a table of message-size ranges, each with the protocol and the
   transports it uses. The path observer reads them (docs/method.md, "The
   path of a row"). Pure text parsing: no MPI, no CUDA, no UCX. */
#ifndef UMB_UCX_PROTO_H
#define UMB_UCX_PROTO_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t lo, hi;       /* bytes, inclusive; hi SIZE_MAX for "inf" */
    char proto[96];      /* "rendezvous zero-copy read from remote" */
    char via[96];        /* "cuda_ipc/cuda" */
} umb_ucx_range;

typedef struct {
    char ep[64];         /* "ucp_context_0 intra-node cfg#2" (UCX 1.14+), "mpi ep_cfg[3]" */
    char what[160];      /* "tagged message by ucp_tag_send*() from cuda-managed memory" */
    char memtype[24];    /* "host", "cuda", "cuda-managed", ... */
    int nranges;
    umb_ucx_range ranges[16];
} umb_ucx_table;

/* Parses every table in f (log prefixes allowed) into tables[0..max);
   returns how many. Both layouts: the title in one row beside the
   endpoint (UCX 1.13), or the endpoint and the title on rows of their own
   (UCX 1.14 and later); a range is "lo..hi" or one size. */
int umb_ucx_proto_parse(FILE *f, umb_ucx_table *tables, int max);

/* The range of the first table whose operation contains op ("ucp_tag_send")
   and whose memory type is memtype, that holds size, of an endpoint to
   another process (a "self" loopback endpoint's tables are skipped); NULL
   when none. */
const umb_ucx_range *umb_ucx_proto_find(const umb_ucx_table *t, int n, const char *op, const char *memtype, size_t size);

/* "1K..64K" style bounds: a number with an optional K, M, G suffix, or inf. */
int umb_ucx_size_parse(const char *s, size_t *v);

#endif
