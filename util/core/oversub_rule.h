/* Oversubscription arithmetic for umb_oversub and umb_um: how many bytes a
   factor of free GPU memory is, and whether a managed size may run.
   Pure C, no GPU: tests/unit/test_oversub.c checks it. */
#ifndef UMB_OVERSUB_RULE_H
#define UMB_OVERSUB_RULE_H

#include <stddef.h>

/* Sizes are rounded down to this (the largest managed page size), so that
   striping and prefetch work on whole 2 MiB pages. */
#define UMB_OVERSUB_ALIGN ((size_t)2 << 20)

/* Parses one factor: a finite decimal above 0 and at most 64. -1 if not. */
int umb_oversub_parse_factor(const char *s, double *f);
/* Parses a comma-separated list of factors into f (at most max); returns
   the count, or -1 naming the bad item in bad (bad_n bytes). */
int umb_oversub_parse_factors(const char *list, double *f, int max, char *bad, size_t bad_n);

/* factor x free_bytes, rounded down to UMB_OVERSUB_ALIGN. 0 when that is
   less than one aligned page. */
size_t umb_oversub_bytes(double factor, size_t free_bytes);

/* 0 when a managed allocation of bytes may run with free_bytes of free GPU
   memory; else -1 with the reason in why (one line, no newline). A size
   above free memory runs only with allow (--allow-oversubscription). */
int umb_oversub_check(size_t bytes, size_t free_bytes, int allow, char *why, size_t n);

/* 0 when bytes fits in host memory: at most 3/4 of avail_bytes (the
   managed pages must fit there when they are placed on the host). */
int umb_oversub_host_check(size_t bytes, size_t avail_bytes, char *why, size_t n);

/* MemAvailable from /proc/meminfo in bytes, 0 when unknown. */
size_t umb_host_available(void);

/* Striping: the CPU share of the pages is the part that does not fit on
   the GPU, (factor - 1) / factor (none for factor <= 1). Pages are dealt
   round-robin (evenly spread): 1 when page i goes to the CPU. */
double umb_oversub_cpu_share(double factor);
int umb_oversub_stripe_cpu(double share, size_t page);

#endif
