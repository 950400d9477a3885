/* What the header says about the MPI library. Call after MPI_Init. */
#ifndef UMB_MPI_INFO_H
#define UMB_MPI_INFO_H

#include <stddef.h>

typedef enum { UMB_AWARE_NO, UMB_AWARE_YES, UMB_AWARE_UNKNOWN } umb_cuda_aware;

/* First line of MPI_Get_library_version. */
void umb_mpi_library(char *buf, size_t n);
/* Asks the library at run time (MPIX_GPU_query_support, MPIX_Query_cuda_support);
   how names the query that answered. */
umb_cuda_aware umb_mpi_cuda_aware(const char **how);
const char *umb_cuda_aware_name(umb_cuda_aware a);
/* The OMPI_MCA_*, UCX_*, MPIR_CVAR_*, FI_* ... variables in effect, space-separated, or "none". */
void umb_mpi_env(char *buf, size_t n);
/* UCX version when libucp is loaded in this process, else "not loaded". */
void umb_ucx_version(char *buf, size_t n);

#endif
