/* MPI errors: one line naming the call, then the whole job ends (util/core/error.h). */
#ifndef UMB_MPI_CHECK_H
#define UMB_MPI_CHECK_H

#include "error.h"

#include <limits.h>
#include <mpi.h>
#include <stddef.h>

#define UMB_MPI_CHECK(call)                                                  \
    do {                                                                     \
        int umb_rc_ = (call);                                                \
        if (umb_rc_ != 0) umb_mpi_fatal(umb_rc_, #call, __FILE__, __LINE__); \
    } while (0)
void umb_mpi_fatal(int rc, const char *call, const char *file, int line)
    __attribute__((noreturn));

/* n items (bytes, elements, samples) as the int count of an MPI call. The
   parser keeps every count within it (umb_largest_size, UMB_MAX_ITERS); one
   that would still not fit ends the job naming it: never a cut count.
   Inline, so that a timed call's count adds only a comparison (issue 43). */
#define UMB_MPI_COUNT(n) umb_mpi_count((size_t)(n), #n, __FILE__, __LINE__)
void umb_mpi_count_fatal(size_t n, const char *what, const char *file, int line) __attribute__((noreturn));
static inline int umb_mpi_count(size_t n, const char *what, const char *file, int line)
{
    if (n > INT_MAX) umb_mpi_count_fatal(n, what, file, line);
    return (int)n;
}

/* seconds = how long `call` took, MPI_Wtime read right before and right
   after it, as OMB and tests/tools/mpi_bare do: no call of ours inside the
   bracket (issue 43); a failure ends the job as UMB_MPI_CHECK does. */
#define UMB_MPI_TIMED(seconds, call)                                         \
    do {                                                                     \
        double umb_t0_ = MPI_Wtime();                                        \
        int umb_rc_ = (call);                                                \
        (seconds) = MPI_Wtime() - umb_t0_;                                   \
        if (umb_rc_ != 0) umb_mpi_fatal(umb_rc_, #call, __FILE__, __LINE__); \
    } while (0)

/* From MPI_Init on: a fatal error ends the job with MPI_Abort while MPI is up. */
void umb_mpi_abort_on_fatal(void);

#endif
