/* What the header says about the MPI library. Call after MPI_Init. */
#ifndef UMB_MPI_INFO_H
#define UMB_MPI_INFO_H

#include "aware.h"

#include <stddef.h>

/* First line of MPI_Get_library_version. */
void umb_mpi_library(char *buf, size_t n);
/* Asks the library at run time (MPIX_GPU_query_support, MPIX_Query_cuda_support);
   how names the query that answered. */
umb_cuda_aware umb_mpi_cuda_aware(const char **how);
const char *umb_cuda_aware_name(umb_cuda_aware a);
/* The OMPI_MCA_*, UCX_*, MPIR_CVAR_*, FI_* ... variables in effect, space-separated, or "none". */
void umb_mpi_env(char *buf, size_t n);
/* What umb_aware_verdict needs, read from this process: the library's
   answer, UCX (loaded, version, CUDA transports, UCX_TLS) and Open MPI's
   pml (its selected component, else OMPI_MCA_pml). The strings live in
   the buffers given (ucx_version, pml: at least 32 bytes each). */
void umb_mpi_aware_facts(umb_aware_facts *f, char *ucx_version, char *pml);

#endif
