/* The read check of umb_um and umb_oversub (util/core/fold.c), without a
   GPU: the expected sum of a uniform buffer against the host reference of
   what the kernels add up, one changed word, a word read too few or too
   many times, the wrap mod 2^64, and the test hook's variable. */
#include "check.h"
#include "fold.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    enum { WORDS = 4096 };  /* a 16 KiB buffer */
    uint32_t *w = malloc(WORDS * sizeof *w);
    umb_fold_check c = {0};
    if (!w) return 1;

    /* A buffer of one byte value, read whole: the reference equals the expectation. */
    for (int byte = 0; byte < 256; byte += 51) {
        memset(w, byte, WORDS * sizeof *w);
        CHECK(umb_fold_words(w, WORDS) == umb_fold_uniform(WORDS, (uint8_t)byte));
    }
    memset(w, 1, WORDS * sizeof *w);
    uint64_t want = umb_fold_uniform(WORDS, 1);
    CHECK(want == (uint64_t)WORDS * 0x01010101u);
    CHECK(umb_fold_compare(&c, "run 1", umb_fold_words(w, WORDS), want) == 0);
    CHECK(c.runs == 1 && c.failed == 0 && c.first[0] == 0);

    /* One word changed by one (what UMB_TEST_CORRUPT_WORD does): the check fails, names the run and both sums. */
    w[1234] += 1;
    CHECK(umb_fold_compare(&c, "run 2 (advice none, prefetch none)", umb_fold_words(w, WORDS), want) == 1);
    CHECK(c.runs == 2 && c.failed == 1);
    CHECK_CONTAINS(c.first, "run 2 (advice none, prefetch none): read sum 0000001010101001, expected 0000001010101000");
    /* Any single changed word fails, wherever it is. */
    w[1234] -= 1;
    for (int i = 0; i < WORDS; i += 97) {
        uint32_t keep = w[i];
        w[i] ^= 1u << (i % 32);
        CHECK(umb_fold_words(w, WORDS) != want);
        w[i] = keep;
    }
    /* A word missed, or read twice: the count is part of the expectation. */
    CHECK(umb_fold_words(w, WORDS - 1) != want);
    CHECK(umb_fold_uniform(WORDS + 1, 1) != want);
    /* Nothing read at all never passes for a non-zero byte. */
    CHECK(umb_fold_uniform(0, 3) == 0 && umb_fold_uniform(1, 3) == 0x03030303u);
    /* The first failure is kept, later ones counted. */
    CHECK(umb_fold_compare(&c, "run 3", 5, 6) == 1);
    CHECK(c.failed == 2);
    CHECK_CONTAINS(c.first, "run 2 ");
    /* Mod 2^64, as the kernels' 64-bit sum: 2^40 words of 0xffffffff. */
    CHECK(umb_fold_uniform((uint64_t)1 << 40, 0xff) == (uint64_t)0xffffffffu << 40);
    CHECK(umb_fold_uniform((uint64_t)1 << 33, 0xff) == ((uint64_t)0xffffffffu << 33));

    free(w);
    return check_done("test_fold");
}
