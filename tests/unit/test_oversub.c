/* The oversubscription arithmetic (util/core/oversub.c): factors, sizes, the
   refusal and striping, without a GPU. */
#include "check.h"
#include "oversub_rule.h"

#include <stdint.h>

#define GIB ((size_t)1 << 30)
#define MIB2 UMB_OVERSUB_ALIGN

int main(void)
{
    double f[8];
    char why[512], bad[64];

    /* factors */
    CHECK(umb_oversub_parse_factor("0.5", &f[0]) == 0 && f[0] == 0.5);
    CHECK(umb_oversub_parse_factor(".9", &f[0]) == 0 && f[0] == 0.9);
    CHECK(umb_oversub_parse_factor("1.5", &f[0]) == 0 && f[0] == 1.5);
    CHECK(umb_oversub_parse_factor("0", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("-0.5", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("nan", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("inf", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("1e400", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("65", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("0.5x", &f[0]) == -1);
    CHECK(umb_oversub_parse_factor("", &f[0]) == -1);
    CHECK(umb_oversub_parse_factors("0.1,0.3,0.5,0.7,0.9", f, 8, bad, sizeof bad) == 5 && f[4] == 0.9);
    CHECK(umb_oversub_parse_factors("0.1,,0.5", f, 8, bad, sizeof bad) == -1 && bad[0] == 0);
    CHECK(umb_oversub_parse_factors("0.1,abc", f, 8, bad, sizeof bad) == -1);
    CHECK_CONTAINS(bad, "abc");
    CHECK(umb_oversub_parse_factors("0.1,0.2,0.3", f, 2, bad, sizeof bad) == -1);
    CHECK(umb_oversub_parse_factors("", f, 8, bad, sizeof bad) == -1);

    /* bytes: factor x free, rounded down to whole 2 MiB pages */
    size_t free_b = 80 * GIB + 12345;
    CHECK(umb_oversub_bytes(0.5, free_b) == 40 * GIB);
    CHECK(umb_oversub_bytes(1.0, free_b) == 80 * GIB);
    CHECK(umb_oversub_bytes(0.9, free_b) % MIB2 == 0);
    CHECK(umb_oversub_bytes(0.9, free_b) <= (size_t)(0.9 * (double)free_b));
    CHECK(umb_oversub_bytes(0.9, free_b) > (size_t)(0.9 * (double)free_b) - MIB2);
    CHECK(umb_oversub_bytes(1e-9, free_b) == 0);
    CHECK(umb_oversub_bytes(0.5, 0) == 0);
    CHECK(umb_oversub_bytes(0, free_b) == 0);
    CHECK(umb_oversub_bytes(64, SIZE_MAX) == 0);

    /* the refusal: above free memory only with --allow-oversubscription */
    CHECK(umb_oversub_check(umb_oversub_bytes(0.9, free_b), free_b, 0, why, sizeof why) == 0);
    CHECK(umb_oversub_check(free_b, free_b, 0, why, sizeof why) == 0);
    CHECK(umb_oversub_check(free_b + 1, free_b, 0, why, sizeof why) == -1);
    CHECK(umb_oversub_check(umb_oversub_bytes(1.5, free_b), free_b, 0, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "exceed the GPU's");
    CHECK_CONTAINS(why, "1.50 x free");
    CHECK_CONTAINS(why, "--allow-oversubscription");
    CHECK(umb_oversub_check(umb_oversub_bytes(1.5, free_b), free_b, 1, why, sizeof why) == 0);
    CHECK(umb_oversub_check(1, 0, 0, why, sizeof why) == -1);

    /* host memory: at most 3/4 of what is available */
    CHECK(umb_oversub_host_check(48 * GIB, 64 * GIB, why, sizeof why) == 0);
    CHECK(umb_oversub_host_check(48 * GIB + 1, 64 * GIB, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "3/4 of the host's");
    CHECK(umb_oversub_host_check(1, 0, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "unknown");
    CHECK(umb_host_available() > 0);

    /* striping: the CPU share is what does not fit, spread evenly */
    CHECK(umb_oversub_cpu_share(0.9) == 0);
    CHECK(umb_oversub_cpu_share(1.0) == 0);
    CHECK(umb_oversub_cpu_share(2.0) == 0.5);
    CHECK(umb_oversub_cpu_share(4.0) == 0.75);
    for (int k = 0; k < 3; k++) {
        double share = k == 0 ? 0 : k == 1 ? 0.5 : 1.0 / 3;
        size_t cpu = 0, pages = 3000, run = 0, longest = 0;
        for (size_t i = 0; i < pages; i++) {
            int c = umb_oversub_stripe_cpu(share, i);
            cpu += c;
            run = c ? 0 : run + 1;
            if (run > longest) longest = run;
        }
        CHECK(cpu == (size_t)(share * pages + 0.5));
        if (share > 0) CHECK(longest <= (size_t)(1 / share));  /* evenly spread */
    }
    return check_done("test_oversub");
}
