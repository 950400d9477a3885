/* Command-line pieces every program shares: one error line, integers,
   byte counts with K/M/G, --format, the sizes from MIN to MAX. No MPI, no
   CUDA. */
#ifndef UMB_PARSE_H
#define UMB_PARSE_H

#include <stddef.h>

/* Writes one usage-error line into err (no newline); returns 1. The line
   is formatted whole, then shown (umb_shown), so a long or odd value never
   pushes the reason and the accepted values out of it. */
int umb_errf(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* IN as one line a terminal shows as it is: each character as umb_show_char
   shows it (strbuf.h: control characters as \xNN), and a word (no blanks) of more than 64 characters cut to its first 32
   and last 16 with "..." between. */
void umb_shown(const char *in, char *out, size_t n);
/* A decimal integer from lo to hi (no sign, no suffix): 0, else -1. */
int umb_parse_long(const char *s, long lo, long hi, long *v);
/* A decimal number as a user writes one: digits with an optional point
   (.5, 2., 1.5) and, where `exponent`, an e-exponent (1e3): 0, else -1.
   Nothing strtod also takes: no sign, blank, hex (0x10), inf or nan, so
   that every number option of every program reads the same forms. */
int umb_parse_decimal(const char *s, int exponent, double *v);
/* The items of a comma-separated list, split into `copy` (n bytes):
   their count (at most max) in *count, 0; -1 where an item is empty
   (",a", "a,,b", "a,": strtok dropped empty items, so "grid,,block" passed
   as "grid,block"); -2 where the list has more than max items or does not
   fit in n bytes, so that each gets its own message. */
int umb_list_items(const char *list, char *copy, size_t n, char **items, int max, int *count);
/* The index of the first item named twice in items[0..count), else -1. */
int umb_list_repeat(char *const *items, int count);
/* A byte count with an optional K, M or G (powers of 1024) suffix: 0, else -1. */
int umb_parse_bytes(const char *s, size_t *out);
/* -m MAX, MIN:MAX or MIN: (every program's size range, the MPI programs'
   and the drivers'): *lo and *hi hold the defaults and get what arg gives.
   0; or 1 with one line in err: arg is none of those forms, gives a size
   below `least`, or MIN above MAX (`example` ends the first line, "8:4M");
   a bound not given is named as the default it is. 2 with a line naming
   `most`, the largest size the program runs: MIN or MAX above it (checked
   first: the limit, not the default it passes, is the reason); the caller
   may say why instead. */
int umb_parse_size_range(const char *arg, size_t least, size_t most, const char *example, size_t *lo, size_t *hi,
                         char *err, size_t n);
/* A word of the NULL-ended list: 0 with its index in *v (an enum in list
   order), else 1 with "OPT WORD: accepted: ..." in err. */
int umb_parse_word(const char *opt, const char *a, const char *const words[], int *v, char *err, size_t n);

/* The sizes a run measures from MIN to MAX, the one rule of every program
   (-m MIN:MAX, --start/--end): MIN, then every power of two above MIN and
   below MAX, then MAX, always; MIN = MAX is one size. Moves *size (MIN or a
   size after it) to the next one: 0, or -1 once *size is MAX (or above).
   Never wraps, also near SIZE_MAX. */
int umb_size_next(size_t *size, size_t max);
/* The same for a range that grows by `step` bytes (step > 0) or by `factor`
   (> 1; 2 is the rule above): the size after s (s < end), at most end, so
   end is always measured. */
size_t umb_size_after(size_t s, size_t end, size_t step, double factor);

/* After getopt_long returned '?' with optopt set: 1 where optopt names a
   long option given a value it does not take ("--path=1": getopt names it
   by its val, a letter of SHORTS, a number past the letters or a control
   code), 0 for an unknown short option ("-q", "-:"). */
int umb_getopt_no_value(int optopt, const char *shorts);

#endif
