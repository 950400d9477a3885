/* The GPU-to-GPU part of `nvidia-smi topo -m` (link.h, "nvidia-smi topo
   -m"): its entries, the table, and the two GPUs farthest apart in it. */
#include "link.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int umb_topo_entry_parse(const char *t, umb_topo_entry *e)
{
    e->kind = UMB_LINK_UNKNOWN;
    e->level = UMB_LEVEL_UNKNOWN;
    e->nvlinks = 0;
    if (!strcmp(t, "X")) {
        e->kind = UMB_LINK_SAME;
        return 0;
    }
    if (!strncmp(t, "NV", 2) && isdigit((unsigned char)t[2])) {
        char *end;
        long k = strtol(t + 2, &end, 10);
        if (*end || k < 1 || k > 1000) return -1;
        e->kind = UMB_LINK_NVLINK;
        e->nvlinks = (int)k;
        return 0;
    }
    if ((e->level = umb_pcie_level_parse(t)) == UMB_LEVEL_UNKNOWN) return -1;
    e->kind = UMB_LINK_PCIE;
    return 0;
}

void umb_topo_entry_link(const umb_topo_entry *e, umb_gpu_link *l)
{
    umb_link_init(l);
    l->kind = e->kind;
    l->level = e->level;
    l->nvlinks = e->nvlinks;
}

#define MAX_TOKENS (2 * UMB_TOPO_MAX_GPUS + 64)

/* Splits a line (copied into buf) at blanks: the number of tokens. */
static int tokens(const char *line, size_t len, char *buf, size_t n, char **tok)
{
    int k = 0;
    if (len >= n) len = n - 1;
    /* nvidia-smi underlines its header on a terminal and sometimes when
       piped ("\033[4m"): drop terminal escape sequences. */
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\033' && i + 1 < len && line[i + 1] == '[') {
            i += 2;
            while (i < len && !isalpha((unsigned char)line[i])) i++;
            continue;
        }
        buf[o++] = line[i];
    }
    buf[o] = '\0';
    for (char *save = NULL, *t = strtok_r(buf, " \t\r\v\f", &save); t && k < MAX_TOKENS; t = strtok_r(NULL, " \t\r\v\f", &save))
        tok[k++] = t;
    return k;
}

/* "GPU12" -> 12, else -1. */
static int gpu_name(const char *t)
{
    if (strncmp(t, "GPU", 3) || !isdigit((unsigned char)t[3])) return -1;
    char *end;
    long i = strtol(t + 3, &end, 10);
    return *end || i >= UMB_TOPO_MAX_GPUS ? -1 : (int)i;
}

/* One row of the matrix, GPU i (k tokens, tok[0] its name): its entries,
   with X on the diagonal and only there. 0, or -1 with why. */
static int topo_row(umb_topo_matrix *m, int i, char **tok, int k, char *why, size_t n)
{
    if (k < m->ngpus + 1) {
        snprintf(why, n, "row GPU%d has %d entries; the header names %d GPUs", i, k - 1, m->ngpus);
        return -1;
    }
    for (int j = 0; j < m->ngpus; j++) {
        if (umb_topo_entry_parse(tok[j + 1], &m->e[i][j])) {
            snprintf(why, n, "row GPU%d, column GPU%d: '%s' is not a topology entry (X, NV#, PIX, PXB, PHB, NODE, SYS)",
                     i, j, tok[j + 1]);
            return -1;
        }
        if ((m->e[i][j].kind == UMB_LINK_SAME) != (i == j)) {
            snprintf(why, n, "row GPU%d, column GPU%d: '%s' %s", i, j, tok[j + 1],
                     i == j ? "on the diagonal, where X belongs" : "is X off the diagonal");
            return -1;
        }
    }
    return 0;
}

/* The whole matrix, once read: a header, a row for every GPU it names, and
   the same link both ways. 0, or -1 with why. */
static int topo_complete(const umb_topo_matrix *m, const int *seen, char *why, size_t n)
{
    if (!m->ngpus) {
        snprintf(why, n, "no header line naming GPU0 (is this nvidia-smi topo -m output?)");
        return -1;
    }
    for (int i = 0; i < m->ngpus; i++)
        if (!seen[i]) {
            snprintf(why, n, "no row for GPU%d (the header names %d GPUs)", i, m->ngpus);
            return -1;
        }
    for (int i = 0; i < m->ngpus; i++)
        for (int j = 0; j < i; j++) {
            const umb_topo_entry *a = &m->e[i][j], *b = &m->e[j][i];
            if (a->kind != b->kind || a->level != b->level || a->nvlinks != b->nvlinks) {
                snprintf(why, n, "GPU%d to GPU%d and GPU%d to GPU%d differ: the matrix is not symmetric", i, j, j, i);
                return -1;
            }
        }
    return 0;
}

int umb_topo_parse(const char *text, umb_topo_matrix *m, char *why, size_t n)
{
    char line[8192], *tok[MAX_TOKENS];
    int seen[UMB_TOPO_MAX_GPUS] = {0}, rows = 0;
    umb_topo_entry e;
    memset(m, 0, sizeof *m);
    m->ngpus = 0;
    /* Up to the last row: what follows (a topo -p2p matrix, say) is not read. */
    for (const char *p = text; p && *p && (!m->ngpus || rows < m->ngpus);) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        int k = tokens(p, len, line, sizeof line, tok);
        p = eol ? eol + 1 : p + len;
        if (k == 0 || gpu_name(tok[0]) < 0) continue;
        int is_row = k > 1 && umb_topo_entry_parse(tok[1], &e) == 0;
        if (!m->ngpus) {
            if (is_row) continue;  /* a row before the header: not this table */
            /* The header: GPU0 GPU1 ... then NICs, "CPU Affinity", ... */
            while (m->ngpus < k && gpu_name(tok[m->ngpus]) == m->ngpus) m->ngpus++;
            continue;
        }
        int i = gpu_name(tok[0]);
        if (!is_row || i >= m->ngpus) continue;  /* a header repeated, a GPU not in the header */
        if (seen[i]) {
            snprintf(why, n, "row GPU%d appears twice", i);
            return -1;
        }
        if (topo_row(m, i, tok, k, why, n)) return -1;
        seen[i] = 1;
        rows++;
    }
    return topo_complete(m, seen, why, n);
}

/* How far apart an entry's two GPUs are: NVLink below PCIe, fewer links
   further; PCIe by level (PIX nearest, SYS furthest). */
static int distance(const umb_topo_entry *e)
{
    switch (e->kind) {
    case UMB_LINK_SAME: return 0;
    case UMB_LINK_NVLINK: return 1000 - (e->nvlinks < 999 ? e->nvlinks : 999);
    case UMB_LINK_PCIE: return 2000 + (int)e->level;
    default: return -1;
    }
}

void umb_topo_farthest(const umb_topo_matrix *m, int *a, int *b)
{
    int best = -1, gap = 0;
    *a = *b = -1;
    for (int i = 0; i < m->ngpus; i++)
        for (int j = i + 1; j < m->ngpus; j++) {
            int d = distance(&m->e[i][j]);
            if (d > best || (d == best && j - i > gap)) {
                best = d;
                gap = j - i;
                *a = i;
                *b = j;
            }
        }
}
