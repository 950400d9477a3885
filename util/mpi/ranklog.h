/* Rank 0's log of what every rank reported per message size: the records
   behind an observer's per-rank table (placement, counters, path). */
#ifndef UMB_RANKLOG_H
#define UMB_RANKLOG_H

#include <stddef.h>

typedef struct {
    size_t rec;          /* bytes of one rank's record */
    int nranks, n, cap;  /* n sizes logged */
    size_t *sizes;
    long *iters;
    unsigned char *recs; /* [n][nranks] records */
} umb_ranklog;

/* Collective: every rank's `mine` (rec bytes) for this size, gathered into
   rank 0's log (a size logged again replaces its row). Returns rank 0's new
   row of nranks records, NULL elsewhere. */
void *umb_ranklog_gather(umb_ranklog *l, int rank, int nranks, size_t size, long iters, const void *mine, size_t rec);

/* Rank 0: the record of rank r for the i-th size logged. */
const void *umb_ranklog_at(const umb_ranklog *l, int i, int r);

#endif
