/* The validation check on host buffers: a correct message passes; a flipped
   byte, a stale message, a shifted one or another sender's fails, at the
   right offset. */
#include "buffer.h"
#include "pattern.h"
#include "check.h"

int main(void)
{
    umb_buffer b;
    char why[256];
    unsigned got, want;
    const size_t n = 3 * UMB_PAGE + 123;
    uint32_t seed = umb_pattern_seed(7, n, 0);

    CHECK(umb_buffer_alloc(&b, UMB_H, n, 0, 0, why, sizeof why) == 0);
    CHECK(b.bytes == 4 * UMB_PAGE && ((uintptr_t)b.ptr % UMB_PAGE) == 0);
    /* Freshly allocated: poisoned, so nothing passes before a fill. */
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) >= 0);

    umb_buffer_fill(&b, 0, n, seed);
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) == -1);

    b.ptr[n - 1] ^= 0x01;  /* the last byte of the message */
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) == (long)(n - 1));
    CHECK(got == (want ^ 0x01u));
    b.ptr[n - 1] ^= 0x01;
    b.ptr[UMB_PAGE] ^= 0x80;  /* one page in */
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) == UMB_PAGE);
    b.ptr[UMB_PAGE] ^= 0x80;

    /* A stale message (previous iteration) or another sender's fails early. */
    CHECK(umb_buffer_check(&b, 0, n, umb_pattern_seed(6, n, 0), &got, &want) >= 0);
    CHECK(umb_buffer_check(&b, 0, n, umb_pattern_seed(7, n, 1), &got, &want) >= 0);
    /* Shifted by one byte. */
    for (size_t i = n - 1; i > 0; i--) b.ptr[i] = b.ptr[i - 1];
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) >= 0);

    /* Different seeds differ in almost every byte. */
    size_t same = 0;
    for (size_t i = 0; i < 65536; i++)
        same += umb_pattern_byte(seed, i) == umb_pattern_byte(seed + 1, i);
    CHECK(same < 65536 / 64);

    /* Placement of host kinds moves nothing and keeps data. */
    umb_buffer_fill(&b, 0, n, seed);
    umb_buffer_place(&b, n, UMB_PLACE_KERNEL);
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) == -1);
    /* A region: block 2 of 4 blocks of 1000 bytes checks on its own. */
    umb_buffer_fill(&b, 2000, 1000, seed + 2);
    CHECK(umb_buffer_check(&b, 2000, 1000, seed + 2, &got, &want) == -1);
    b.ptr[2999] ^= 0x10;
    CHECK(umb_buffer_check(&b, 2000, 1000, seed + 2, &got, &want) == 999);
    CHECK(umb_buffer_check(&b, 1000, 1000, seed + 2, &got, &want) >= 0);

    /* Data in and out. */
    float in[5] = {1.5f, -2.0f, 3.25f, 0.0f, 1e6f}, out[5] = {0};
    umb_buffer_write(&b, in, sizeof in);
    umb_buffer_read(&b, out, sizeof out);
    CHECK(memcmp(in, out, sizeof in) == 0);
    umb_buffer_free(&b);
    CHECK(b.ptr == NULL);

    /* umb_buffer_alloc_on without a NUMA node (umb_copy's pageable
       buffers): as umb_buffer_alloc, page-aligned and poisoned. */
    CHECK(umb_buffer_alloc_on(&b, UMB_H, n, -1, why, sizeof why) == 0);
    CHECK(b.node == -1 && b.bytes == 4 * UMB_PAGE && ((uintptr_t)b.ptr % UMB_PAGE) == 0);
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) >= 0);
    umb_buffer_fill(&b, 0, n, seed);
    CHECK(umb_buffer_check(&b, 0, n, seed, &got, &want) == -1);
    umb_buffer_free(&b);
    CHECK(b.ptr == NULL);
    return check_done("test_buffer");
}
