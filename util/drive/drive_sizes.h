/* The drivers' sizes (drive_sizes.c): a list or the quick set, a range,
   or -m MIN:MAX as the MPI programs take it. */
#ifndef UMB_DRIVE_SIZES_H
#define UMB_DRIVE_SIZES_H

#include "drive_model.h"

/* The largest size a driver takes, 1 PiB: more than any machine's memory,
   and far enough below SIZE_MAX that a size's buffers, rounded to pages and
   added up, never wrap. umb_um's --size and every size list and range are
   held to it. */
#define UMB_DRIVE_MAX_SIZE ((size_t)1 << 50)

/* A comma-separated list of sizes, or "quick" (cli->quick). */
int umb_drive_size_list(umb_drive *d, const char *list, const char *quick, char *err, size_t n);
/* START to END by adding STEP (step > 0) or multiplying by FACTOR (> 1;
   2: the powers of two between), then END, always (umb_size_after). */
int umb_drive_size_range(umb_drive *d, size_t start, size_t end, size_t step, double factor,
                         char *err, size_t n);
/* The sizes they give (drive_sizes.c): one of -m, --size or a range, else
   the quick set. 0, or 1 with one line in err. */
int umb_drive_sizes(umb_drive *d, const char *quick, const umb_drive_size_args *a, char *err, size_t n);

#endif
