#include "fold.h"
#include "env.h"

#include <limits.h>
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

size_t umb_test_corrupt_size(void)
{
    static long size = -2;  /* not read yet; a bad value was refused at start (umb_bench_init) */
    char err[1];
    if (size == -2 && umb_env_long("UMB_TEST_CORRUPT_SIZE", 0, LONG_MAX, &size, err, sizeof err) != UMB_ENV_OK) size = -1;
    return size < 0 ? (size_t)-1 : (size_t)size;
}
