#include "mpi_info.h"

#include "config.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#ifdef HAVE_MPI_EXT_H
#include <mpi-ext.h>
#endif

extern char **environ;

void umb_mpi_library(char *buf, size_t n)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(v, &len);
    v[strcspn(v, "\n")] = '\0';
    for (char *c = v; *c; c++)
        if (*c == '\t') *c = ' ';  /* MPICH: "MPICH Version:<TAB>4.0.2" */
    /* Trim the trailing commas and spaces some libraries print. */
    for (size_t l = strlen(v); l && (v[l - 1] == ',' || v[l - 1] == ' '); l--) v[l - 1] = '\0';
    snprintf(buf, n, "%s", v);
}

umb_cuda_aware umb_mpi_cuda_aware(const char **how)
{
#if HAVE_DECL_MPIX_GPU_QUERY_SUPPORT && defined(MPIX_GPU_SUPPORT_CUDA)
    int yes = 0;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS) {
        *how = "MPIX_GPU_query_support";
        return yes ? UMB_AWARE_YES : UMB_AWARE_NO;
    }
#endif
#if HAVE_DECL_MPIX_QUERY_CUDA_SUPPORT
    *how = "MPIX_Query_cuda_support";
    return MPIX_Query_cuda_support() ? UMB_AWARE_YES : UMB_AWARE_NO;
#else
    *how = "no query in this MPI library";
    return UMB_AWARE_UNKNOWN;
#endif
}

const char *umb_cuda_aware_name(umb_cuda_aware a)
{
    return a == UMB_AWARE_YES ? "yes" : a == UMB_AWARE_NO ? "no" : "unknown";
}

void umb_mpi_env(char *buf, size_t n)
{
    static const char *const prefixes[] = {"OMPI_MCA_", "UCX_", "MPIR_CVAR_", "MV2_", "I_MPI_", "FI_", "PSM2_"};
    size_t used = 0;
    buf[0] = '\0';
    for (char **e = environ; *e; e++) {
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            if (strncmp(*e, prefixes[i], strlen(prefixes[i])) != 0) continue;
            /* Open MPI's launcher passes its own plumbing as OMPI_MCA_ too: skip it. */
            if (!strncmp(*e, "OMPI_MCA_orte_", 14) || !strncmp(*e, "OMPI_MCA_ess", 12) ||
                !strncmp(*e, "OMPI_MCA_pmix", 13) || !strncmp(*e, "OMPI_MCA_initial_wdir", 21) ||
                !strncmp(*e, "OMPI_MCA_mpi_oversubscribe", 26) || !strncmp(*e, "OMPI_MCA_shmem_RUNTIME", 22))
                break;
            if (used < n) used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "", *e);
            break;
        }
    }
    if (!used) snprintf(buf, n, "none");
}

void umb_ucx_version(char *buf, size_t n)
{
    /* RTLD_NOLOAD: only ask a UCX that the MPI library already loaded. */
    void *h = dlopen("libucp.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (!h) {
        snprintf(buf, n, "not loaded");
        return;
    }
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "ucp_get_version_string");
    snprintf(buf, n, "%s (libucp loaded)", version ? version() : "unknown version");
    dlclose(h);
}
