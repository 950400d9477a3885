/* The drivers' header, counters and end (drive_header.c). */
#ifndef UMB_DRIVE_HEADER_H
#define UMB_DRIVE_HEADER_H

#include "drive_model.h"

/* The header: program, date, host, CPU binding, NUMA binding (HOST),
   CUDA versions, each GPU in use (`gpus`: name, bus, PCIe link and limit,
   NUMA node, memory, pageable access; HMM in the table of a KERNEL
   driver), sizes (SIZES), repetitions (REPEAT), flush (HOST): a group's
   lines where the driver takes it. The driver adds its own lines. */
void umb_drive_header(umb_header *h, const umb_drive *d, const umb_drive_cli *cli);
/* --counters: columns per timed repetition from a row's counts (bytes
   each way, GPU and CPU faults, thrashing, remote maps; what placement
   moved); NaN while CUPTI is off. Returns how many (8). */
int umb_drive_counter_cols(const umb_counts *moved, const umb_counts *placed, long reps, umb_col *cols);
/* --counters: refuses a build without CUPTI (exit 1); starts CUPTI when
   there is a GPU, else a one-line note. Call before any CUDA context. */
void umb_drive_counters_start(const char *program, char *note, size_t n);
/* The end of a run of access kernels (umb_um, umb_oversub): the read check
   (fold.h) as {"type":"check"} or a '#' line, when anything was read (none
   with --op write), then the counters' footer. Returns the exit status:
   0, or UMB_EXIT_INVALID when a run's sum was not what was written. */
int umb_drive_end(const umb_drive *d, const umb_drive_cli *cli, const umb_fold_check *check);
/* The tests' hook, in test builds only (-DUMB_TEST_HOOKS: tests/tools/hooked/,
   never installed; elsewhere it does nothing): UMB_TEST_CORRUPT_WORD=N
   changes word N of [p, p + bytes) (a device-accessible pointer) after it
   was filled, so that the read check must fail; a bad value or a word past
   the end: one line (umb_env_long's), exit 1. */
void umb_drive_corrupt(void *p, size_t bytes);

#endif
