#include "oversub_rule.h"
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int umb_oversub_parse_factor(const char *s, double *f)
{
    double v;
    if (umb_parse_decimal(s, 0, &v) || v <= 0 || v > 64) return -1;  /* 0x0.8p0 was taken */
    *f = v;
    return 0;
}

int umb_oversub_parse_factors(const char *list, double *f, int max, char *bad, size_t bad_n)
{
    int n = 0;
    const char *p = list;
    if (!list || !*list) {
        snprintf(bad, bad_n, "%s", list ? list : "");
        return -1;
    }
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char item[64];
        if (len >= sizeof item || n >= max) {
            snprintf(bad, bad_n, "%.*s", (int)(len < 60 ? len : 60), p);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (umb_oversub_parse_factor(item, &f[n])) {
            snprintf(bad, bad_n, "%s", item);
            return -1;
        }
        n++;
        if (!c) break;
        p = c + 1;
    }
    return n;
}

size_t umb_oversub_bytes(double factor, size_t free_bytes)
{
    if (!(factor > 0) || !free_bytes) return 0;
    double b = factor * (double)free_bytes;
    if (b >= 18446744073709549568.0) return 0;   /* beyond size_t */
    size_t bytes = (size_t)b;
    return bytes / UMB_OVERSUB_ALIGN * UMB_OVERSUB_ALIGN;
}

int umb_oversub_check(size_t bytes, size_t free_bytes, int allow, char *why, size_t n)
{
    if (bytes <= free_bytes || allow) return 0;
    snprintf(why, n, "%zu bytes of managed memory exceed the GPU's %zu free bytes (%.2f x free); "
             "oversubscription can wedge a shared GPU, so it runs only with --allow-oversubscription",
             bytes, free_bytes, free_bytes ? (double)bytes / (double)free_bytes : 0.0);
    return -1;
}

int umb_oversub_host_check(size_t bytes, size_t avail_bytes, char *why, size_t n)
{
    if (avail_bytes && bytes <= avail_bytes / 4 * 3) return 0;
    if (!avail_bytes)
        snprintf(why, n, "host memory available is unknown (no MemAvailable in /proc/meminfo), "
                 "so %zu bytes of managed memory cannot be placed on the host safely", bytes);
    else
        snprintf(why, n, "%zu bytes of managed memory exceed 3/4 of the host's %zu available bytes, "
                 "where its pages are placed between runs", bytes, avail_bytes);
    return -1;
}

size_t umb_host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(f);
    return (size_t)kb * 1024;
}

double umb_oversub_cpu_share(double factor)
{
    return factor > 1 ? (factor - 1) / factor : 0;
}

int umb_oversub_stripe_cpu(double share, size_t page)
{
    /* page i is a CPU page when the running count floor(i x share) steps up */
    return floor((double)(page + 1) * share) > floor((double)page * share);
}
