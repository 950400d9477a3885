#include "fold.h"

#include <stdio.h>

uint64_t umb_fold_uniform(uint64_t words, uint8_t byte)
{
    return words * ((uint64_t)byte * 0x01010101u);  /* wraps mod 2^64, as the kernels' sum */
}

uint64_t umb_fold_words(const uint32_t *w, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += w[i];
    return s;
}

int umb_fold_compare(umb_fold_check *c, const char *what, uint64_t got, uint64_t expected)
{
    c->runs++;
    if (got == expected) return 0;
    if (!c->failed++)
        snprintf(c->first, sizeof c->first, "%s: read sum %016llx, expected %016llx", what,
                 (unsigned long long)got, (unsigned long long)expected);
    return 1;
}
