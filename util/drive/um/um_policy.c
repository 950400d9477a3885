/* umb_um's policies (um_policy.h). */
#include "um_policy.h"

#include "memkind.h"
#include "oversub_rule.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

int um_prefetch_parse(const char *a, policy *p, char *err, size_t n)
{
    p->prefetch = !strcmp(a, "none") ? PF_NONE : !strcmp(a, "whole") ? PF_WHOLE : PF_BLOCKS;
    if (p->prefetch == PF_BLOCKS && (strncmp(a, "blocks:", 7) || umb_parse_bytes(a + 7, &p->chunk) ||
                                     p->chunk < 4096 || p->chunk % 4096))
        return umb_errf(err, n, "--prefetch %s: expected none, whole or blocks:SIZE (SIZE a multiple of 4K, e.g. blocks:64M)", a);
    return 0;
}

void um_advice_label(unsigned a, char *buf, size_t n)
{
    if (!a) {
        snprintf(buf, n, "none");
        return;
    }
    snprintf(buf, n, "%s%s%s%s%s", a & UMB_ADV_ACCESSED_BY_GPU ? "+AB" : "", a & UMB_ADV_ACCESSED_BY_CPU ? "+AB=cpu" : "",
             a & UMB_ADV_READ_MOSTLY ? "+RM" : "", a & UMB_ADV_PREFERRED_CPU ? "+P=cpu" : "",
             a & UMB_ADV_PREFERRED_GPU ? "+P=gpu" : "");
    memmove(buf, buf + 1, strlen(buf));  /* drop the leading + */
}

void um_prefetch_label(const policy *p, char *buf, size_t n)
{
    size_t b = p->chunk;
    int shift = b % (1u << 30) == 0 ? 30 : b % (1u << 20) == 0 ? 20 : 10;
    if (p->prefetch == PF_NONE) snprintf(buf, n, "none");
    else if (p->prefetch == PF_WHOLE) snprintf(buf, n, "whole");
    else snprintf(buf, n, "blocks:%zu%c", b >> shift, shift == 30 ? 'G' : shift == 20 ? 'M' : 'K');
}

void um_matrix(size_t size, policy *pols)
{
    static const unsigned pref[] = {0, UMB_ADV_PREFERRED_CPU, UMB_ADV_PREFERRED_GPU};
    size_t chunk = size / 16 / UMB_OVERSUB_ALIGN * UMB_OVERSUB_ALIGN;
    for (int i = 0; i < UM_MATRIX; i++)
        pols[i] = (policy){.advise = pref[i / 4 % 3] | (i / 2 % 2 ? UMB_ADV_ACCESSED_BY_GPU : 0) | (i % 2 ? UMB_ADV_READ_MOSTLY : 0),
                           .prefetch = (prefetch_kind)(i / 12), .chunk = chunk ? chunk : size};
}
