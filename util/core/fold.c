#include "fold.h"

#include <stdio.h>
#include <stdlib.h>

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

long umb_fold_corrupt_word(void)
{
    const char *s = getenv("UMB_TEST_CORRUPT_WORD");
    char *end;
    if (!s || !*s) return -1;
    long v = strtol(s, &end, 10);
    return *end || v < 0 ? -2 : v;
}

size_t umb_test_corrupt_size(void)
{
    static long size = -2;
    if (size == -2) {
        const char *s = getenv("UMB_TEST_CORRUPT_SIZE");
        char *end;
        size = s && *s ? strtol(s, &end, 10) : -1;
        if (s && *s && (*end || size < 0)) size = -1;
    }
    return size < 0 ? (size_t)-1 : (size_t)size;
}
