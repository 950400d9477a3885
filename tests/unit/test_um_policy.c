/* umb_um's policies without a GPU (util/drive/um/um_policy.c): --prefetch's values and
   refusals, the table's short names, and --matrix's combinations: each
   once, blocks in whole 2 MiB pages. */
#include "um/um_policy.h"
#include "check.h"
#include "memkind.h"

static void prefetch(void)
{
    policy p = {0};
    char err[256], s[64];
    CHECK(um_prefetch_parse("none", &p, err, sizeof err) == 0 && p.prefetch == PF_NONE);
    CHECK(um_prefetch_parse("whole", &p, err, sizeof err) == 0 && p.prefetch == PF_WHOLE);
    CHECK(um_prefetch_parse("blocks:64M", &p, err, sizeof err) == 0 && p.prefetch == PF_BLOCKS && p.chunk == 64u << 20);
    um_prefetch_label(&p, s, sizeof s);
    CHECK(!strcmp(s, "blocks:64M"));
    CHECK(um_prefetch_parse("blocks:12K", &p, err, sizeof err) == 0);
    um_prefetch_label(&p, s, sizeof s);
    CHECK(!strcmp(s, "blocks:12K"));
    CHECK(um_prefetch_parse("blocks:2G", &p, err, sizeof err) == 0);
    um_prefetch_label(&p, s, sizeof s);
    CHECK(!strcmp(s, "blocks:2G"));
    const char *bad[] = {"blocks:", "blocks:1000", "blocks:0", "block:64M", "all", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(um_prefetch_parse(bad[i], &p, err, sizeof err) == 1);
        CHECK_CONTAINS(err, "expected none, whole or blocks:SIZE");
    }
}

static void labels(void)
{
    char s[64];
    um_advice_label(0, s, sizeof s);
    CHECK(!strcmp(s, "none"));
    um_advice_label(UMB_ADV_ACCESSED_BY_GPU | UMB_ADV_READ_MOSTLY, s, sizeof s);
    CHECK(!strcmp(s, "AB+RM"));
    um_advice_label(UMB_ADV_PREFERRED_CPU | UMB_ADV_ACCESSED_BY_CPU, s, sizeof s);
    CHECK(!strcmp(s, "AB=cpu+P=cpu"));
    um_advice_label(UMB_ADV_PREFERRED_GPU, s, sizeof s);
    CHECK(!strcmp(s, "P=gpu"));
}

static void matrix(void)
{
    policy p[UM_MATRIX];
    char a[64], b[64], seen[UM_MATRIX][128];
    um_matrix((size_t)1 << 30, p);
    for (int i = 0; i < UM_MATRIX; i++) {
        um_advice_label(p[i].advise, a, sizeof a);
        um_prefetch_label(&p[i], b, sizeof b);
        snprintf(seen[i], sizeof seen[i], "%s/%s", a, b);
        for (int j = 0; j < i; j++) CHECK(strcmp(seen[i], seen[j]));  /* each combination once */
        CHECK(!((p[i].advise & UMB_ADV_PREFERRED_CPU) && (p[i].advise & UMB_ADV_PREFERRED_GPU)));
        CHECK(p[i].prefetch != PF_BLOCKS || p[i].chunk == (size_t)64 << 20);  /* 1 GiB / 16 */
    }
    CHECK(!strcmp(seen[0], "none/none"));  /* plain demand paging first: the summary's baseline */
    CHECK(!strcmp(seen[UM_MATRIX - 1], "AB+RM+P=gpu/blocks:64M"));
    um_matrix((size_t)20 << 20, p);  /* a 16th is under 2 MiB: one block of the whole buffer */
    CHECK(p[UM_MATRIX - 1].chunk == (size_t)20 << 20);
    um_matrix((size_t)100 << 20, p);  /* 6.25 MiB rounded down to whole 2 MiB pages */
    CHECK(p[UM_MATRIX - 1].chunk == (size_t)6 << 20);
}

int main(void)
{
    prefetch();
    labels();
    matrix();
    return check_done("test_um_policy");
}
