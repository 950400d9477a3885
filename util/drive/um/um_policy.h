/* umb_um's policies (docs/method.md): what --advise and --prefetch ask for,
   their short names in the table, and --matrix's combinations. Plain
   rules: no CUDA (tests/unit/test_um_policy.c). */
#ifndef UMB_UM_POLICY_H
#define UMB_UM_POLICY_H

#include <stddef.h>

typedef enum { PF_NONE, PF_WHOLE, PF_BLOCKS } prefetch_kind;

typedef struct {
    unsigned advise;         /* UMB_ADV_* (memkind.h) */
    prefetch_kind prefetch;
    size_t chunk;            /* PF_BLOCKS: bytes per prefetch call */
} policy;

/* --prefetch's value: none, whole or blocks:SIZE (a multiple of 4K); 1 with
   one line in err. */
int um_prefetch_parse(const char *a, policy *p, char *err, size_t n);

/* The table's short names: "AB+RM", "none" (AB accessed-by the GPU, AB=cpu
   the CPU, RM read-mostly, P=cpu/gpu preferred). */
void um_advice_label(unsigned advise, char *buf, size_t n);
/* "none", "whole", "blocks:64M" */
void um_prefetch_label(const policy *p, char *buf, size_t n);

/* --matrix over a buffer of `size` bytes: prefetch (outermost) x preferred
   x accessed-by x read-mostly (innermost); a block is a 16th of the buffer
   in whole 2 MiB pages. Fills UM_MATRIX policies. */
#define UM_MATRIX 36
void um_matrix(size_t size, policy *pols);

#endif
