#include "copy_combos.h"

#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_BYTES ((size_t)256 << 20)
#define MAX_HELD_COPIES 64  /* keeps the queue behind a held stream short */

const umb_kind copy_kinds[COPY_NKINDS] = {UMB_H, UMB_P, UMB_WC, UMB_REG, UMB_MH, UMB_MD, UMB_D};
static const char *const dir_names[COPY_NDIRS] = {"htod", "dtoh", "dtod", "bidir", "peer"};
static const char *const meth_names[COPY_NMETHS] = {"ce", "sm", "prefetch", "demand"};
static const char *const opt_names[COPY_NLISTS] = {"--memory", "--direction", "--method"};

const char *copy_dir_name(copy_dir d) { return dir_names[d]; }
const char *copy_meth_name(copy_meth m) { return meth_names[m]; }

/* ---- the command line ------------------------------------------------- */

static int list_count(int which) { return which == COPY_OPT_MEMORY ? COPY_NKINDS : which == COPY_OPT_DIRECTION ? COPY_NDIRS : COPY_NMETHS; }

/* Value i of a list: its bit in copy_opts, and its (long) name. */
static unsigned value_bit(int which, int i) { return which == COPY_OPT_MEMORY ? UMB_KIND_BIT(copy_kinds[i]) : 1u << i; }

static const char *value_name(int which, int i)
{
    return which == COPY_OPT_MEMORY ? umb_kind_long(copy_kinds[i]) : which == COPY_OPT_DIRECTION ? dir_names[i] : meth_names[i];
}

/* The bit of one name, 0 when unknown; memory kinds by either name. */
static unsigned name_bit(int which, const char *t)
{
    umb_kind k;
    if (which == COPY_OPT_MEMORY) return umb_kind_parse(t, COPY_KINDS, &k) ? 0 : UMB_KIND_BIT(k);
    for (int i = 0; i < list_count(which); i++)
        if (!strcmp(t, value_name(which, i))) return value_bit(which, i);
    return 0;
}

static unsigned all_bits(int which) { return which == COPY_OPT_MEMORY ? COPY_KINDS : (1u << list_count(which)) - 1; }

static int parse_list(copy_opts *o, int which, const char *opt, const char *arg, char *err, size_t n)
{
    char copy[256], list[160] = "", *items[32];
    int count, again;
    for (int i = 0; i < list_count(which); i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", value_name(which, i));
    int how = umb_list_items(arg, copy, sizeof copy, items, 32, &count);
    if (how) {
        umb_errf(err, n, how == -2 ? "%s %s: more than 32 items; expected a comma-separated list of %s, all, each once"
                                   : "%s %s: expected a comma-separated list of %s, all (no empty item)", opt, arg, list);
        return 1;
    }
    if ((again = umb_list_repeat(items, count)) >= 0) {
        umb_errf(err, n, "%s %s: '%s' named twice; each once", opt, arg, items[again]);
        return 1;
    }
    for (int i = 0; i < count; i++) {
        const char *t = items[i];
        if (!strcmp(t, "all")) {
            o->sel[which] |= all_bits(which);
            continue;
        }
        unsigned bit = name_bit(which, t);
        if (!bit) {
            umb_errf(err, n, "%s %s: unknown '%s'; accepted: %s, all (comma-separated)", opt, arg, t, list);
            return 1;
        }
        /* Two spellings of one value (H and pageable): its rows twice. */
        for (int j = 0; j < i; j++)
            if (name_bit(which, items[j]) == bit) {
                umb_errf(err, n, "%s %s: '%s' and '%s' are the same; each once", opt, arg, items[j], t);
                return 1;
            }
        o->sel[which] |= bit;
        o->named[which] |= bit;
    }
    return 0;
}

int copy_parse(copy_opts *o, int which, const char *opt, const char *arg, char *err, size_t n)
{
    if (which >= 0 && which < COPY_NLISTS) {
        o->args[which] = arg;
        return parse_list(o, which, opt, arg, err, n);
    }
    char *end;
    o->copies = strtol(arg, &end, 10);
    if (*end || end == arg || o->copies < 1 || o->copies > 1000) {
        umb_errf(err, n, "--copies %s: expected copies per timed batch from 1 to 1000", arg);
        return 1;
    }
    return 0;
}

/* ---- the rules -------------------------------------------------------- */

static int host_kind(umb_kind k) { return k == UMB_H || k == UMB_P || k == UMB_WC || k == UMB_REG; }

static const char *invalid_htod(umb_kind k, copy_meth m, int um)
{
    if (!host_kind(k) && k != UMB_MH) return "htod copies from host memory: pageable, pinned, wc, registered or managed-host";
    if (k == UMB_MH) return m == COPY_SM ? "a kernel reading managed memory is --method demand" : NULL;
    if (um) return "prefetch and demand move managed memory (managed-host for htod, managed-device for dtoh)";
    if (m == COPY_SM && k == UMB_H) return "sm reads pageable memory from the GPU, which needs HMM; use ce";
    return NULL;
}

static const char *invalid_dtoh(umb_kind k, copy_meth m, int um)
{
    if (k == UMB_MD) return um ? NULL : "managed-device reaches the host by prefetch or demand; for ce use managed-host (the destination placed on the host)";
    if (k == UMB_MH) return m == COPY_CE ? NULL : "managed-host is a dtoh destination for ce only; prefetch and demand move managed-device";
    if (!host_kind(k)) return "dtoh copies into host memory: pageable, pinned, wc, registered, managed-host (or managed-device with prefetch, demand)";
    if (um) return "prefetch and demand move managed memory (managed-host for htod, managed-device for dtoh)";
    if (m == COPY_SM && k == UMB_H) return "sm writes pageable memory from the GPU, which needs HMM; use ce";
    return NULL;
}

const char *copy_invalid(umb_kind k, copy_dir d, copy_meth m)
{
    int um = m == COPY_PREFETCH || m == COPY_DEMAND;
    switch (d) {
    case COPY_HTOD: return invalid_htod(k, m, um);
    case COPY_DTOH: return invalid_dtoh(k, m, um);
    case COPY_DTOD:
        if (k != UMB_D && k != UMB_MD) return "dtod copies device or managed-device memory";
        return um ? "dtod copies with ce or sm" : NULL;
    case COPY_BIDIR:
        if (k != UMB_P && k != UMB_WC && k != UMB_REG) return "bidir needs page-locked host memory (pinned, wc, registered): pageable copies block the host, so two directions cannot overlap";
        return m == COPY_CE ? NULL : "bidir runs both copy engines: ce only";
    case COPY_PEER:
        if (k != UMB_D) return "peer copies device memory between GPUs";
        return um ? "peer copies with ce or sm" : NULL;
    default:
        return "unknown direction";
    }
}

int copy_fits(int kind, int dir, int meth)
{
    for (int a = 0; a < COPY_NKINDS; a++) for (int b = 0; b < COPY_NDIRS; b++) for (int c = 0; c < COPY_NMETHS; c++)
        if ((kind < 0 || (int)copy_kinds[a] == kind) && (dir < 0 || b == dir) && (meth < 0 || c == meth) &&
            !copy_invalid(copy_kinds[a], (copy_dir)b, (copy_meth)c))
            return 1;
    return 0;
}

/* How close a refused combination is to sense: pairs of it that fit. */
static int closeness(umb_kind k, int d, int m) { return copy_fits((int)k, d, -1) + copy_fits((int)k, -1, m) + copy_fits(-1, d, m); }

/* ---- choosing --------------------------------------------------------- */

typedef struct {
    copy_combo *c;
    int n, max;
} combo_list;

static void add(combo_list *l, umb_kind k, copy_dir d, copy_meth m)
{
    for (int p2p = 1; p2p >= 0; p2p--) {  /* peer ce: access on, then off */
        if (l->n < l->max) l->c[l->n++] = (copy_combo){k, d, m, d == COPY_PEER && p2p};
        if (!(d == COPY_PEER && m == COPY_CE)) break;
    }
}

static void default_matrix(combo_list *l, int peers_possible)
{
    static const umb_kind host[] = {UMB_H, UMB_P, UMB_WC, UMB_REG, UMB_MH};
    for (int d = COPY_HTOD; d <= COPY_DTOH; d++)
        for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) add(l, host[i], (copy_dir)d, COPY_CE);
    add(l, UMB_MH, COPY_HTOD, COPY_PREFETCH);
    add(l, UMB_MH, COPY_HTOD, COPY_DEMAND);
    add(l, UMB_MD, COPY_DTOH, COPY_PREFETCH);
    add(l, UMB_MD, COPY_DTOH, COPY_DEMAND);
    add(l, UMB_P, COPY_BIDIR, COPY_CE);
    add(l, UMB_D, COPY_DTOD, COPY_CE);
    if (peers_possible) add(l, UMB_D, COPY_PEER, COPY_CE);
}

/* The lists crossed: what each is, and which values took part. */
typedef struct {
    unsigned sel[COPY_NLISTS], used[COPY_NLISTS];
    const char *first_why;  /* the refusal closest to sense */
} crossing;

static int selected(const crossing *x, int k, int d, int m)
{
    return (x->sel[COPY_OPT_MEMORY] & UMB_KIND_BIT(copy_kinds[k])) && (x->sel[COPY_OPT_DIRECTION] >> d & 1) &&
           (x->sel[COPY_OPT_METHOD] >> m & 1);
}

static void cross(combo_list *l, crossing *x, int peers_possible)
{
    int best = -1;
    for (int k = 0; k < COPY_NKINDS; k++) for (int d = 0; d < COPY_NDIRS; d++) for (int m = 0; m < COPY_NMETHS; m++) {
        umb_kind kind = copy_kinds[k];
        if (!selected(x, k, d, m)) continue;
        const char *why = copy_invalid(kind, (copy_dir)d, (copy_meth)m);
        if (why) {
            int close = closeness(kind, d, m);
            if (close > best) x->first_why = why, best = close;
            continue;
        }
        x->used[COPY_OPT_MEMORY] |= UMB_KIND_BIT(kind);
        x->used[COPY_OPT_DIRECTION] |= 1u << d;
        x->used[COPY_OPT_METHOD] |= 1u << m;
        if (d == COPY_PEER && !peers_possible) continue;
        add(l, kind, (copy_dir)d, (copy_meth)m);
    }
}

/* A value named that fits no combination: 1 with its line in err. */
static int unused_value(const copy_opts *o, const crossing *x, char *err, size_t en)
{
    int which = -1, value = -1;
    for (int w = 0; w < COPY_NLISTS && which < 0; w++)
        for (int i = 0; i < list_count(w) && which < 0; i++)
            if ((o->named[w] & value_bit(w, i)) && !(x->used[w] & value_bit(w, i))) which = w, value = i;
    if (which < 0) return 0;
    /* The reason: the refusal of that value closest to sense. */
    const char *why = x->first_why;
    int best = -1;
    for (int k = 0; k < COPY_NKINDS; k++) for (int d = 0; d < COPY_NDIRS; d++) for (int m = 0; m < COPY_NMETHS; m++) {
        int at[COPY_NLISTS] = {k, d, m};
        const char *no = copy_invalid(copy_kinds[k], (copy_dir)d, (copy_meth)m);
        if (at[which] != value || !selected(x, k, d, m) || !no) continue;
        int close = closeness(copy_kinds[k], d, m);
        if (close > best) why = no, best = close;
    }
    umb_errf(err, en, "%s %s: no sensible combination with the other values asked for: %s", opt_names[which],
             value_name(which, value), why);
    return 1;
}

int copy_choose(const copy_opts *o, int peers_possible, copy_combo *out, int max, int *n, char *err, size_t en)
{
    combo_list l = {out, 0, max};
    crossing x;
    *n = 0;
    if (!o->sel[COPY_OPT_MEMORY] && !o->sel[COPY_OPT_DIRECTION] && !o->sel[COPY_OPT_METHOD]) {
        default_matrix(&l, peers_possible);
        *n = l.n;
        return 0;
    }
    memset(&x, 0, sizeof x);
    for (int w = 0; w < COPY_NLISTS; w++) x.sel[w] = o->sel[w] ? o->sel[w] : all_bits(w);
    cross(&l, &x, peers_possible);
    *n = l.n;
    if (!x.used[COPY_OPT_MEMORY]) {  /* nothing fits: name everything given */
        char given[512] = "";
        for (int i = 0; i < COPY_NLISTS; i++)
            if (o->args[i])
                snprintf(given + strlen(given), sizeof given - strlen(given), "%s%s %.150s", given[0] ? " " : "",
                         opt_names[i], o->args[i]);
        umb_errf(err, en, "%s: no sensible combination: %s", given, x.first_why ? x.first_why : "none asked for");
        return 1;
    }
    return unused_value(o, &x, err, en);
}

/* ---- what a combination allocates and queues ------------------------- */

void copy_layout_of(const copy_combo *c, copy_layout *l)
{
    l->ndirs = c->dir == COPY_BIDIR ? 2 : 1;
    l->src[1] = l->dst[1] = UMB_D;
    switch (c->dir) {
    case COPY_HTOD:
        l->src[0] = c->kind;
        l->dst[0] = c->meth == COPY_PREFETCH ? COPY_SAME : UMB_D;
        break;
    case COPY_DTOH:
        l->src[0] = c->kind == UMB_MD ? UMB_MD : UMB_D;
        l->dst[0] = c->kind != UMB_MD ? (int)c->kind : c->meth == COPY_DEMAND ? UMB_H : COPY_SAME;
        break;
    case COPY_BIDIR:  /* htod from the kind, dtoh into it */
        l->src[0] = l->dst[1] = c->kind;
        l->dst[0] = l->src[1] = UMB_D;
        break;
    case COPY_PEER:
        l->src[0] = l->dst[0] = UMB_D;
        break;
    default:  /* dtod */
        l->src[0] = c->kind;
        l->dst[0] = UMB_D;
        break;
    }
}

int copy_holdable(const copy_combo *c)
{
    if (c->meth == COPY_SM || (c->meth == COPY_DEMAND && c->dir == COPY_HTOD)) return 1;
    if (c->meth != COPY_CE) return 0;
    if (c->dir == COPY_PEER) return c->p2p;
    return c->kind == UMB_P || c->kind == UMB_WC || c->kind == UMB_REG || c->kind == UMB_D;
}

long copy_count(const copy_combo *c, const copy_opts *o, size_t size)
{
    if (umb_kind_is_managed(c->kind)) return 1;  /* placed before every repetition: one move each */
    if (o->copies) return o->copies;
    size_t n = BATCH_BYTES / size;
    return n < 2 ? 2 : n > MAX_HELD_COPIES ? MAX_HELD_COPIES : (long)n;
}
