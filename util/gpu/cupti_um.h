/* CUPTI's activity records: unified-memory counters and CUDA copies
   (memcpy, peer memcpy), with libcupti loaded by dlopen so nothing links it
   or libcuda. cupti_um_none.c stands in for a build without CUPTI. */
#ifndef UMB_CUPTI_UM_H
#define UMB_CUPTI_UM_H

#include <stddef.h>
#include <stdint.h>

/* What one record adds: to which counter (umb_counter in counters.h) how much. */
typedef void (*umb_um_sink)(int counter, uint64_t amount, uint64_t timestamp, void *ctx);

int umb_cupti_built(void);
/* Loads CUPTI and enables the unified-memory counters (um) and the copy
   records (copies). Returns 1, or 0 with the reason. */
int umb_cupti_start(int um, int copies, char *why, size_t n);
/* CUPTI's clock (ns), the one records are stamped with. */
uint64_t umb_cupti_now(void);
/* Flushes CUPTI's buffers and hands every record kept since the last
   drain to sink. Returns the records CUPTI reported dropped so far. */
uint64_t umb_cupti_drain(umb_um_sink sink, void *ctx);

/* One record's counter and amount, from its CUPTI kind and value: bytes for
   transfers, fault groups for GPU faults, 1 per record otherwise (a CPU
   fault record's value is a program counter, not a count). -1: not counted. */
int umb_cupti_amount(int cupti_kind, uint64_t value, uint64_t *amount);

/* A copy record's counter (UMB_CPY_*) from its CUPTI copy kind; -1: not a copy of memory. */
int umb_cupti_copy_counter(int copy_kind);

#endif
