/* umb_copy's combinations (docs/method.md, "Copy bandwidth"): which memory
   kind x direction x method makes sense, the default matrix, the lists of
   --memory, --direction, --method and --copies, and what each combination
   allocates and how it is queued. Plain rules: no CUDA, no MPI
   (tests/unit/test_copy_combos.c). */
#ifndef UMB_COPY_COMBOS_H
#define UMB_COPY_COMBOS_H

#include "memkind.h"

#include <stddef.h>

typedef enum { COPY_HTOD, COPY_DTOH, COPY_DTOD, COPY_BIDIR, COPY_PEER, COPY_NDIRS } copy_dir;
typedef enum { COPY_CE, COPY_SM, COPY_PREFETCH, COPY_DEMAND, COPY_NMETHS } copy_meth;

/* umb_copy's memory kinds, in the order of its lists and rows:
   H (pageable), P (pinned), WC, REG (registered), MH, MD, D (device). */
#define COPY_NKINDS 7
extern const umb_kind copy_kinds[COPY_NKINDS];
#define COPY_KINDS                                                                                         \
    (UMB_KIND_BIT(UMB_H) | UMB_KIND_BIT(UMB_P) | UMB_KIND_BIT(UMB_WC) | UMB_KIND_BIT(UMB_REG) |            \
     UMB_KIND_BIT(UMB_MH) | UMB_KIND_BIT(UMB_MD) | UMB_KIND_BIT(UMB_D))

const char *copy_dir_name(copy_dir d);    /* "htod" */
const char *copy_meth_name(copy_meth m);  /* "ce" */

typedef struct {
    umb_kind kind;
    copy_dir dir;
    copy_meth meth;
    int p2p;  /* peer: 1 with peer access on, 0 off */
} copy_combo;

/* --memory (umb_kind bits), --direction and --method (bits by index), --copies */
enum { COPY_OPT_MEMORY, COPY_OPT_DIRECTION, COPY_OPT_METHOD, COPY_NLISTS };
typedef struct {
    unsigned sel[COPY_NLISTS];    /* bits selected (all included), 0 = not given */
    unsigned named[COPY_NLISTS];  /* bits named one by one (not by all) */
    const char *args[COPY_NLISTS];  /* the lists as given */
    long copies;                  /* 0: chosen per size */
} copy_opts;

/* One of the lists (COPY_OPT_*; the memory kinds by short or long name),
   or --copies (COPY_NLISTS); `opt` is the option as named for messages.
   0, or 1 with one line in err naming the value and the accepted ones. */
int copy_parse(copy_opts *o, int which, const char *opt, const char *arg, char *err, size_t n);

/* Why a combination makes no sense, or NULL. */
const char *copy_invalid(umb_kind k, copy_dir d, copy_meth m);
/* Whether some sensible combination has these (-1: any). */
int copy_fits(int kind, int dir, int meth);

/* The default matrix, or the lists given crossed (peer only where
   peers_possible; peer ce twice, peer access on and off); at most max
   combinations into out, their number in *n. Every value named must take
   part in at least one sensible combination, else 1 with err. */
int copy_choose(const copy_opts *o, int peers_possible, copy_combo *out, int max, int *n, char *err, size_t en);

/* What a combination allocates: per direction (bidir: two) the source
   and destination kinds; COPY_SAME: the source itself is the destination
   (prefetch moves it in place). Peer: the destination on the other GPU. */
#define COPY_SAME (-1)
typedef struct {
    int ndirs;
    int src[2], dst[2];  /* umb_kind, or COPY_SAME for dst */
} copy_layout;
void copy_layout_of(const copy_combo *c, copy_layout *l);

/* Whether the stream may be held until the batch is queued: only where
   queueing never waits for the GPU (docs/method.md, "The timed batch"). */
int copy_holdable(const copy_combo *c);
/* Copies per timed batch: managed 1 (placed before every repetition),
   else --copies, else about 256 MiB worth, 2 to 64. */
long copy_count(const copy_combo *c, const copy_opts *o, size_t size);

#endif
