/* MPI errors: one line naming the call, then the whole job ends (util/core/error.h). */
#ifndef UMB_MPI_CHECK_H
#define UMB_MPI_CHECK_H

#include "error.h"

#define UMB_MPI_CHECK(call)                                                  \
    do {                                                                     \
        int umb_rc_ = (call);                                                \
        if (umb_rc_ != 0) umb_mpi_fatal(umb_rc_, #call, __FILE__, __LINE__); \
    } while (0)
void umb_mpi_fatal(int rc, const char *call, const char *file, int line)
    __attribute__((noreturn));

/* From MPI_Init on: a fatal error ends the job with MPI_Abort while MPI is up. */
void umb_mpi_abort_on_fatal(void);

#endif
