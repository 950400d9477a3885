/* The precision rule: is a size's estimate known well enough to stop
   measuring it? (docs/method.md, "Precision: when to stop"). No MPI, no
   CUDA; scripts/umbench/stats.py holds the same rule for umb-run's rounds. */
#ifndef UMB_PRECISION_H
#define UMB_PRECISION_H

typedef enum { UMB_PRECISION_MEDIAN, UMB_PRECISION_MEAN } umb_precision_of;

/* The confidence level of every interval here. */
#define UMB_PRECISION_LEVEL 0.95
/* The mean's interval is a normal approximation: trusted from this many samples. */
#define UMB_PRECISION_MEAN_MIN 30

/* The lower rank k (1-based) of the distribution-free interval
   [x_(k), x_(n+1-k)] of sorted samples that covers the median with at least
   `level` (binomial order statistics, no assumption on the distribution);
   0 when n samples are too few for one (n < 6 at 95%). */
long umb_median_interval_rank(long n, double level);

/* The 95% interval of the median (samples sorted ascending) or of the mean
   (any order): 0 and *lo, *hi, or -1 when n is too small for one. */
int umb_precision_interval(const double *samples, long n, umb_precision_of of, double *lo, double *hi);

/* The interval's half-width over the statistic (0.02: +-2%); INFINITY when
   there is no interval or the statistic is 0. */
double umb_precision_reached(const double *samples, long n, umb_precision_of of);

/* 1 when umb_precision_reached() <= target (a fraction, 0.02 for 2%). */
int umb_precision_met(const double *samples, long n, umb_precision_of of, double target);

/* The timed iterations of a size's next attempt, after one of n timed
   iterations (behind `skip` warm-up ones) that reached `reached` (INFINITY:
   no interval yet) in `seconds`, with `left` seconds of the size's budget
   still to spend: enough for `target` by the interval's 1/sqrt(n) law with
   a quarter more, at most `most`; only what the budget allows, and then
   not less than half as many again (the budget, not a cap on the step,
   bounds an estimate from a small first attempt: a cap of ten times n left
   placed managed rows short of 5% in 3 s, their third attempt not fitting).
   0: stop (the target is met, or no larger attempt fits). */
long umb_precision_next(long n, long skip, double reached, double target, double seconds, double left, long most);

/* Why umb_precision_next stops, the one place that says it (the closing
   report names the real cap, not always the budget): AGAIN where it goes
   on; REACHED; AT_MOST where `most` (the memory limit -M or the loop's
   own cap) is what keeps the next attempt from being larger; OUT_OF_TIME
   where the budget left does (a size not measured too). *next as
   umb_precision_next returns it. */
typedef enum { UMB_PRECISION_AGAIN, UMB_PRECISION_REACHED, UMB_PRECISION_AT_MOST, UMB_PRECISION_OUT_OF_TIME } umb_precision_stop;
umb_precision_stop umb_precision_step(long n, long skip, double reached, double target, double seconds, double left,
                                      long most, long *next);

/* The timed iterations of a size's first attempt, from `iters` (OMB's
   count, or the first attempt's cap if lower) behind `skip` warm-up ones: at least the UMB_PRECISION_MEAN_MIN
   a mean's interval needs, so that a first attempt is not spent only to
   learn that it had too few; where `per` (seconds an iteration is expected
   to take, from the size before; 0 unknown) says the budget holds fewer
   than that, `iters` as before, no more than the budget holds (at least 1);
   and never more than the budget holds. */
long umb_precision_first(long iters, long skip, double per, double budget);

#endif
