#include "placement.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>

static struct {
    umb_place_check mode;
    long skip, iters, current;  /* current: -1 before the first iteration */
    umb_place_rec once, *timed;
    long cap;
} P = {.current = -1};

void umb_placement_set_mode(umb_place_check c) { P.mode = c; }
umb_place_check umb_placement_mode(void) { return P.mode; }

void umb_placement_size_begin(long skip, long iters)
{
    if (iters > P.cap) {
        free(P.timed);
        P.timed = umb_xmalloc(sizeof *P.timed * (size_t)iters, "placement records");
        P.cap = iters;
    }
    memset(P.timed, 0, sizeof *P.timed * (size_t)(iters > 0 ? iters : 0));
    memset(&P.once, 0, sizeof P.once);
    P.skip = skip;
    P.iters = iters;
    P.current = -1;
}

void umb_placement_iteration(long i) { P.current = i; }

static umb_place_rec *slot(void)
{
    if (P.current < 0) return &P.once;
    long t = P.current - P.skip;
    return t >= 0 && t < P.iters ? &P.timed[t] : NULL;  /* NULL: warm-up */
}

void umb_placement_note(int check, int replaced, int placed, double seconds, double check_seconds)
{
    umb_place_rec *r = slot();
    if (!r) return;
    if (!r->any) {
        r->any = r->checked = r->held = r->placed = 1;
    }
    r->checked &= check >= 0;
    r->held &= check == 1;
    r->placed &= placed != 0;  /* unknown counts as placed: nothing to leave out */
    r->replaced += replaced;
    r->seconds += seconds;
    r->check_seconds += check_seconds;
}

umb_place_rec *umb_placement_timed(void) { return P.timed; }
const umb_place_rec *umb_placement_once(void) { return &P.once; }
