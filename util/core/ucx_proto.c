#include "ucx_proto.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int umb_ucx_size_parse(const char *s, size_t *v)
{
    while (isspace((unsigned char)*s)) s++;
    if (!strncmp(s, "inf", 3)) {
        *v = SIZE_MAX;
        return 0;
    }
    char *end;
    if (!isdigit((unsigned char)*s)) return -1;
    double x = strtod(s, &end);
    switch (toupper((unsigned char)*end)) {
    case 'K': x *= 1024.0; end++; break;
    case 'M': x *= 1024.0 * 1024; end++; break;
    case 'G': x *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b') end++;
    while (isspace((unsigned char)*end)) end++;
    if (*end) return -1;
    *v = (size_t)x;
    return 0;
}

/* The cells of a "| a | b | c |" line (after any log prefix), trimmed. */
static int cells(const char *line, char out[][160], int max)
{
    const char *p = strchr(line, '|');
    int n = 0;
    while (p && n < max) {
        const char *q = strchr(p + 1, '|');
        if (!q) break;
        const char *a = p + 1, *b = q;
        while (a < b && isspace((unsigned char)*a)) a++;
        while (b > a && isspace((unsigned char)b[-1])) b--;
        size_t len = (size_t)(b - a) < 159 ? (size_t)(b - a) : 159;
        memcpy(out[n], a, len);
        out[n++][len] = '\0';
        p = q;
    }
    return n;
}

/* "lo..hi" or a single size into a range; -1 when the cell is not one. */
static int range_of(const char *cell, size_t *lo, size_t *hi)
{
    const char *dots = strstr(cell, "..");
    if (!dots) return umb_ucx_size_parse(cell, lo) ? -1 : (*hi = *lo, 0);
    char a[64];
    size_t len = (size_t)(dots - cell) < 63 ? (size_t)(dots - cell) : 63;
    memcpy(a, cell, len);
    a[len] = '\0';
    return umb_ucx_size_parse(a, lo) || umb_ucx_size_parse(dots + 2, hi) ? -1 : 0;
}

/* The memory type named after "from " ("from cuda-managed memory",
   "from cuda/GPU0"). */
static void memtype_of(const char *what, char *buf, size_t n)
{
    const char *p = strstr(what, " from ");
    buf[0] = '\0';
    if (!p) return;
    p += 6;
    size_t len = strcspn(p, " /)|");
    if (len >= n) len = n - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
}

static umb_ucx_table *start_table(umb_ucx_table *tables, int *n, int max, const char *ep, const char *what)
{
    if (*n >= max) return NULL;
    umb_ucx_table *t = &tables[(*n)++];
    memset(t, 0, sizeof *t);
    snprintf(t->ep, sizeof t->ep, "%.63s", ep);
    snprintf(t->what, sizeof t->what, "%.159s", what);
    memtype_of(t->what, t->memtype, sizeof t->memtype);
    return t;
}

int umb_ucx_proto_parse(FILE *f, umb_ucx_table *tables, int max)
{
    char line[1024], c[4][160], ep[160] = "";
    int n = 0;
    umb_ucx_table *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        int k = cells(line, c, 4);
        if (k == 1) {  /* UCX 1.14+: the endpoint's row, then the operation's */
            if (strstr(c[0], " from ") || strstr(c[0], " into ")) {
                cur = start_table(tables, &n, max, ep, c[0]);
            } else {
                snprintf(ep, sizeof ep, "%s", c[0]);
                cur = NULL;
            }
            continue;
        }
        if (k < 2) continue;  /* borders ("+----+") and other log lines */
        size_t lo, hi;
        if (range_of(c[0], &lo, &hi) == 0) {
            if (cur && cur->nranges < (int)(sizeof cur->ranges / sizeof cur->ranges[0])) {
                umb_ucx_range *r = &cur->ranges[cur->nranges++];
                r->lo = lo;
                r->hi = hi;
                snprintf(r->proto, sizeof r->proto, "%.95s", c[1]);
                snprintf(r->via, sizeof r->via, "%.95s", k > 2 ? c[2] : "");
            }
            continue;
        }
        /* UCX 1.13: "| ep name | operation from MEMTYPE memory |"; else a
           column header ("| Range | Description | Config |"). */
        if (strstr(c[1], " from ")) cur = start_table(tables, &n, max, c[0], c[1]);
        else if (strcmp(c[0], "Range")) cur = NULL;
    }
    return n;
}

const umb_ucx_range *umb_ucx_proto_find(const umb_ucx_table *t, int n, const char *op, const char *memtype, size_t size)
{
    for (int i = 0; i < n; i++) {
        if (!strstr(t[i].what, op) || strcmp(t[i].memtype, memtype) || strstr(t[i].ep, " self ")) continue;
        for (int j = 0; j < t[i].nranges; j++)
            if (size >= t[i].ranges[j].lo && size <= t[i].ranges[j].hi) return &t[i].ranges[j];
    }
    return NULL;
}
