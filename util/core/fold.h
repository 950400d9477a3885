/* The read check of umb_um and umb_oversub. Their read kernels add up the
   32-bit words they read (mod 2^64); the buffers hold one byte value
   everywhere, so what a pass must add up follows from the value and the
   number of words the pattern reads. A word lost, changed, or read more or
   fewer times than the pattern says changes the sum. (Which address held
   a word is not seen: every word holds the same value.) */
#ifndef UMB_FOLD_H
#define UMB_FOLD_H

#include <stddef.h>
#include <stdint.h>

/* What reading `words` words of a buffer whose every byte is `byte` adds up to. */
uint64_t umb_fold_uniform(uint64_t words, uint8_t byte);
/* What the kernels add up, computed on the host: a reference for the tests. */
uint64_t umb_fold_words(const uint32_t *w, size_t n);

/* The runs checked so far and the first that failed. */
typedef struct {
    long runs, failed;
    char first[256];     /* "run 2 (advice none, prefetch none): read ..., expected ..." */
} umb_fold_check;

/* One run: `what` names it. Returns 0 when got == expected, else 1 (counted). */
int umb_fold_compare(umb_fold_check *c, const char *what, uint64_t got, uint64_t expected);

#endif
