/* Command-line pieces every program shares: one error line, integers,
   byte counts with K/M/G, --format. No MPI, no CUDA. */
#ifndef UMB_PARSE_H
#define UMB_PARSE_H

#include <stddef.h>

/* Writes one usage-error line into err (no newline); returns 1. */
int umb_errf(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A decimal integer from lo to hi (no sign, no suffix): 0, else -1. */
int umb_parse_long(const char *s, long lo, long hi, long *v);
/* A byte count with an optional K, M or G (powers of 1024) suffix: 0, else -1. */
int umb_parse_bytes(const char *s, size_t *out);
/* A word of the NULL-ended list: 0 with its index in *v (an enum in list
   order), else 1 with "OPT WORD: accepted: ..." in err. */
int umb_parse_word(const char *opt, const char *a, const char *const words[], int *v, char *err, size_t n);

#endif
