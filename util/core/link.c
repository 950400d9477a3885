#include "link.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- nominal figures ---------------------------------------------------- */

static const double pcie_gts[] = {0, 2.5, 5, 8, 16, 32, 64};

/* The maximum generation and width of a umb_pcie_link text: 0, or -1. */
static int pcie_max(const char *link, int *gen, int *width)
{
    const char *m = link ? strstr(link, "max Gen") : NULL;
    if (!m || sscanf(m, "max Gen%d x%d", gen, width) != 2 || *gen < 1 || *gen > 6 || *width < 1 || *width > 32)
        return -1;
    return 0;
}

/* Bits on the wire per bit of data: 8b/10b (Gen1-2), 128b/130b (Gen3-5),
   242/256 (Gen6 FLIT: 242 of every 256 bytes carry data and link layer). */
static void pcie_encoding(int gen, double *num, double *den)
{
    *num = gen <= 2 ? 8 : gen <= 5 ? 128 : 242;
    *den = gen <= 2 ? 10 : gen <= 5 ? 130 : 256;
}

double umb_pcie_gbs(const char *link)
{
    int gen, width;
    double num, den;
    if (pcie_max(link, &gen, &width)) return NAN;
    pcie_encoding(gen, &num, &den);
    return pcie_gts[gen] * width * num / den / 8;
}

void umb_pcie_bound_text(const char *link, char *buf, size_t n)
{
    int gen, width;
    double num, den;
    if (pcie_max(link, &gen, &width)) {
        snprintf(buf, n, "unknown (PCIe link: %s)", link ? link : "unknown");
        return;
    }
    pcie_encoding(gen, &num, &den);
    snprintf(buf, n, "%.1f GB/s per direction (PCIe Gen%d x%d: %g GT/s x %d lanes x %g/%g / 8)",
             umb_pcie_gbs(link), gen, width, pcie_gts[gen], width, num, den);
}

double umb_nvlink_gbs_per_link(int generation)
{
    /* NVIDIA's per-GPU totals, both directions, over its links: P100 160 GB/s
       over 4, V100 300 over 6, A100 600 over 12, H100 900 over 18, B200 1800
       over 18 (docs/method.md, "The bound of a path"). */
    static const double per_link[] = {0, 20, 25, 25, 25, 50};
    return generation >= 1 && generation <= 5 ? per_link[generation] : NAN;
}

int umb_nvlink_gen_from_nvml(unsigned v)
{
    static const int gen[] = {0, 1, 2, 2, 3, 3, 4, 5};
    return v < sizeof gen / sizeof gen[0] ? gen[v] : 0;
}

int umb_nvlink_gen_from_cc(int major, int minor)
{
    if (minor != 0) return 0;  /* 6.1, 8.6, 8.9, ...: consumer or other parts */
    switch (major) {
    case 6: return 1;
    case 7: return 2;
    case 8: return 3;
    case 9: return 4;
    case 10: return 5;
    default: return 0;
    }
}

/* ---- the link between two GPUs ----------------------------------------- */

static const struct {
    umb_pcie_level level;
    const char *name, *words;
} levels[] = {
    {UMB_LEVEL_INTERNAL, "INTERNAL", "on one board"},
    {UMB_LEVEL_PIX, "PIX", "through at most one PCIe bridge"},
    {UMB_LEVEL_PXB, "PXB", "through several PCIe bridges, not the host bridge"},
    {UMB_LEVEL_PHB, "PHB", "through the host bridge"},
    {UMB_LEVEL_NODE, "NODE", "between host bridges of one NUMA node"},
    {UMB_LEVEL_SYS, "SYS", "across NUMA nodes (the CPUs' interconnect)"},
};
#define NLEVELS (sizeof levels / sizeof levels[0])

const char *umb_pcie_level_name(umb_pcie_level level)
{
    for (size_t i = 0; i < NLEVELS; i++)
        if (levels[i].level == level) return levels[i].name;
    return "unknown";
}

const char *umb_pcie_level_words(umb_pcie_level level)
{
    for (size_t i = 0; i < NLEVELS; i++)
        if (levels[i].level == level) return levels[i].words;
    return "by an unknown path";
}

umb_pcie_level umb_pcie_level_parse(const char *name)
{
    if (!strcmp(name, "SOC")) return UMB_LEVEL_SYS;  /* before driver 384 */
    for (size_t i = 1; i < NLEVELS; i++)              /* INTERNAL is never printed */
        if (!strcmp(levels[i].name, name)) return levels[i].level;
    return UMB_LEVEL_UNKNOWN;
}

void umb_link_init(umb_gpu_link *l)
{
    memset(l, 0, sizeof *l);
    l->kind = UMB_LINK_UNKNOWN;
    l->level = UMB_LEVEL_UNKNOWN;
    l->peer = -1;
    l->bound_gbs = NAN;
}

const char *umb_link_kind_name(umb_link_kind kind)
{
    switch (kind) {
    case UMB_LINK_SAME: return "same";
    case UMB_LINK_NVLINK: return "nvlink";
    case UMB_LINK_PCIE: return "pcie";
    default: return "unknown";
    }
}

void umb_link_format(const umb_gpu_link *l, char *buf, size_t n)
{
    char bound[48] = "";
    int at = 0;
#define ADD(...) (at += snprintf(buf + at, (size_t)at < n ? n - (size_t)at : 0, __VA_ARGS__))
    if (n) buf[0] = '\0';
    if (l->bound_gbs > 0) snprintf(bound, sizeof bound, "%.*f GB/s each way", l->bound_gbs >= 100 ? 0 : 1, l->bound_gbs);
    switch (l->kind) {
    case UMB_LINK_SAME: ADD("same GPU"); break;
    case UMB_LINK_NVLINK:
        ADD("NV%d (", l->nvlinks);
        if (l->nvlink_gen) ADD("NVLink %d, ", l->nvlink_gen);
        else ADD("NVLink generation unknown, ");
        ADD("%d link%s%s%s)", l->nvlinks, l->nvlinks == 1 ? "" : "s", bound[0] ? ", " : "", bound);
        if (l->peer == 0) ADD(", peer access no");
        break;
    case UMB_LINK_PCIE:
        ADD("PCIe, %s (%s)", umb_pcie_level_words(l->level), umb_pcie_level_name(l->level));
        if (l->peer >= 0) ADD(", peer access %s", l->peer ? "yes" : "no");
        if (bound[0]) ADD(", %s", bound);
        break;
    default:
        ADD("unknown (%s)", l->why[0] ? l->why : "no reason given");
        if (l->peer >= 0) ADD(", peer access %s", l->peer ? "yes" : "no");
        break;
    }
#undef ADD
}

double umb_link_share_pct(double gbs, double bound_gbs)
{
    if (!isfinite(gbs) || !isfinite(bound_gbs) || bound_gbs <= 0) return NAN;
    return 100 * gbs / bound_gbs;
}

void umb_measured_init(umb_measured_bound *b)
{
    memset(b, 0, sizeof *b);
    b->htod_gbs = b->dtoh_gbs = b->peer_gbs = NAN;
    b->gpu = b->peer_from = b->peer_to = b->peer_access = -1;
}

void umb_measured_format(const umb_measured_bound *b, char *buf, size_t n)
{
    int at = 0, host = !isnan(b->htod_gbs) || !isnan(b->dtoh_gbs), peer = !isnan(b->peer_gbs);
#define ADD(...) (at += snprintf(buf + at, (size_t)at < n ? n - (size_t)at : 0, __VA_ARGS__))
    if (n) buf[0] = '\0';
    if (host) ADD("GPU %d pinned HtoD %.1f GB/s, DtoH %.1f GB/s", b->gpu, b->htod_gbs, b->dtoh_gbs);
    if (peer) {
        ADD("%speer %d->%d ", host ? "; " : "", b->peer_from, b->peer_to);
        if (b->peer_from == b->peer_to) ADD("(within the GPU)");
        else ADD("(%s)", b->peer_access ? "peer access" : "staged by the driver");
        ADD(" %.1f GB/s", b->peer_gbs);
    }
    if (host || peer) ADD("; %zu MiB x %d copies, median of %d", b->bytes >> 20, b->copies, b->reps);
    if (b->why[0]) ADD("%snot measured: %s", host || peer ? "; " : "", b->why);
    else if (!host && !peer) ADD("not measured");
#undef ADD
}

/* ---- PCI addresses ------------------------------------------------------ */

/* A hex number of 1..maxdigits digits ending at one of `ends` (at the end
of the text when ends is ""): 0, or -1. */
static int hex_field(const char **s, int maxdigits, const char *ends, unsigned *out)
{
    const char *p = *s;
    unsigned long v = 0;
    int digits = 0;
    while (isxdigit((unsigned char)*p) && digits < maxdigits) {
        int c = tolower((unsigned char)*p++);
        v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
        digits++;
    }
    /* strchr finds the terminator in any string: the text's end only ends "" */
    if (!digits || (*p ? !strchr(ends, *p) : *ends != '\0')) return -1;
    *out = (unsigned)v;
    *s = p;
    return 0;
}

int umb_pci_addr_parse(const char *s, unsigned *domain, unsigned *bus, unsigned *dev, unsigned *fn)
{
    unsigned a, b, c, f;
    if (!s) return -1;
    /* domain:bus:dev.fn, or bus:dev.fn (domain 0) */
    const char *p = s;
    if (hex_field(&p, 8, ":", &a)) return -1;
    p++;
    if (hex_field(&p, 2, ":.", &b)) return -1;
    if (*p == ':') {
        p++;
        if (hex_field(&p, 2, ".", &c)) return -1;
    } else {
        c = b, b = a, a = 0;
    }
    p++;
    if (hex_field(&p, 1, "", &f) || b > 0xff || c > 0x1f || f > 7) return -1;
    *domain = a, *bus = b, *dev = c, *fn = f;
    return 0;
}

int umb_pci_addr_same(const char *x, const char *y)
{
    unsigned d1, b1, v1, f1, d2, b2, v2, f2;
    if (umb_pci_addr_parse(x, &d1, &b1, &v1, &f1) || umb_pci_addr_parse(y, &d2, &b2, &v2, &f2)) return 0;
    return d1 == d2 && b1 == b2 && v1 == v2;
}
