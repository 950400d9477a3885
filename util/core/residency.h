/* Where a range's pages are, read without touching them: the present bit
   of /proc/self/pagemap (docs/method.md, "The placement check"). A managed
   page that migrated to the GPU is unmapped from the CPU, so it reads as
   not present; one the CPU holds reads as present. No MPI, no CUDA. */
#ifndef UMB_RESIDENCY_H
#define UMB_RESIDENCY_H

#include <stddef.h>

/* Opens pagemap once ($UMB_PAGEMAP names another file, for tests).
   Returns 0, or -1 with the reason in why; later calls give the same answer. */
int umb_residency_open(char *why, size_t n);
/* The file it reads: /proc/self/pagemap, or $UMB_PAGEMAP's. A header that
   says what the check read names it (a test's file is never taken for
   the kernel's). */
const char *umb_residency_file(void);

/* Closes it; the next call opens again (tests). */
void umb_residency_close(void);

/* Pages of [p, p + bytes) present in host memory, from one pread of their
   pagemap entries; -1 when pagemap cannot be read. */
long umb_host_pages(const void *p, size_t bytes);

/* Base pages that [p, p + bytes) spans. */
long umb_pages_spanned(const void *p, size_t bytes);

/* Whether the range is where a placement wants it: on the host (every page
   present) or on the GPU (none present). 1 yes, 0 no, -1 unknown. */
int umb_resident(const void *p, size_t bytes, int on_host);

#endif
