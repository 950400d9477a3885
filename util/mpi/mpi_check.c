#include "mpi_check.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>

void umb_mpi_fatal(int rc, const char *call, const char *file, int line)
{
    char why[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, why, &len) != MPI_SUCCESS) snprintf(why, sizeof why, "MPI error %d", rc);
    umb_fatal(call, file, line, why);
}

void umb_mpi_count_fatal(size_t n, const char *what, const char *file, int line)
{
    char why[160];
    snprintf(why, sizeof why, "%zu does not fit an MPI count (at most %d); the option check should have refused it", n, INT_MAX);
    umb_fatal(what, file, line, why);
}

static void abort_job(int code)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down) MPI_Abort(MPI_COMM_WORLD, code);
}

void umb_mpi_abort_on_fatal(void) { umb_error_on_fatal(abort_job); }
