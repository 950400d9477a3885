/* The placement check's log (docs/method.md, "The placement check"): for
   each measured operation, whether every buffer's first placement held,
   how often it was placed again, whether its pages were in place when the
   operation started, and what placing cost. umb_buffer_place reports here;
   the harness reads it per size. No MPI, no CUDA. */
#ifndef UMB_PLACEMENT_H
#define UMB_PLACEMENT_H

/* enforce (default): a placement that did not hold is redone with
   cudaMemPrefetchAsync, at most UMB_REPLACE_TRIES times; observe: it is
   only recorded; off: nothing is checked. */
typedef enum { UMB_CHECK_ENFORCE, UMB_CHECK_OBSERVE, UMB_CHECK_OFF } umb_place_check;
#define UMB_REPLACE_TRIES 3

typedef struct {
    int any;          /* a managed buffer was placed */
    int checked;      /* pagemap answered for every one */
    int held;         /* every first placement held */
    int placed;       /* every buffer was in place before the operation */
    int replaced;     /* placements redone */
    double seconds;   /* the requested placements' own time, check excluded */
    double check_seconds;  /* reading pagemap (first check of each buffer) */
} umb_place_rec;

void umb_placement_set_mode(umb_place_check c);
umb_place_check umb_placement_mode(void);

/* A size starts: `skip` warm-up iterations, then `iters` timed ones.
   Placements before its first iteration (--place once) go to a slot of
   their own. */
void umb_placement_size_begin(long skip, long iters);
/* Iteration i starts (called by umb_progress). */
void umb_placement_iteration(long i);
/* One buffer was placed: check 1 held, 0 not, -1 unknown; replaced
   placements redone; placed: in place at the end (1, 0, -1); the time
   placing and checking took. */
void umb_placement_note(int check, int replaced, int placed, double seconds, double check_seconds);

/* The size's timed iterations (iters records), and the --place once slot. */
umb_place_rec *umb_placement_timed(void);
const umb_place_rec *umb_placement_once(void);

#endif
