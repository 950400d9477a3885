#include "mpi_info.h"

#include "config.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Whether s starts with one of the n prefixes. */
static int starts_with_any(const char *s, const char *const *prefixes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(s, prefixes[i], strlen(prefixes[i]))) return 1;
    return 0;
}

void umb_mpi_env(char *buf, size_t n)
{
    /* umbench's own UMB_* too: a variable that may change a figure
       (UMB_LAPS_CLOCK, the tests' UMB_PAGEMAP) is in the header it changed. */
    static const char *const prefixes[] = {"OMPI_MCA_", "UCX_", "MPIR_CVAR_", "MV2_", "I_MPI_", "FI_", "PSM2_", "HWLOC_", "UMB_"};
    /* Open MPI's launchers pass their own plumbing as OMPI_MCA_ too. */
    static const char *const plumbing[] = {
        "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir", "OMPI_MCA_mpi_oversubscribe",
        "OMPI_MCA_shmem_RUNTIME", "OMPI_MCA_PREFIXES", "OMPI_MCA_num_procs", "OMPI_MCA_cpu_type"};
    size_t used = 0;
    buf[0] = '\0';
    for (char **e = environ; *e; e++) {
        if (!starts_with_any(*e, prefixes, sizeof prefixes / sizeof prefixes[0]) ||
            starts_with_any(*e, plumbing, sizeof plumbing / sizeof plumbing[0]))
            continue;
        if (used < n) used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "", *e);
    }
    if (!used) snprintf(buf, n, "none");
}

/* Whether a shared object whose path contains `name` is mapped here. */
static int mapped(const char *name)
{
    char line[1024];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

/* Open MPI's selected pml: mca_pml_base_selected_component starts with
   an mca_base_component_t (opal/mca/mca.h, the same in 4.x and 5.x):
   three ints, the project name (16 bytes), three ints, the framework name
   (32 bytes), three ints, the component name. Read only when the project
   and framework names say it is what we think it is. */
static int ompi_selected_pml(char *pml)
{
    const char *c = dlsym(RTLD_DEFAULT, "mca_pml_base_selected_component");
    if (!c || strncmp(c + 12, "ompi", 16) || strncmp(c + 40, "pml", 32) || !c[84]) return 0;
    snprintf(pml, 32, "%.31s", c + 84);
    return 1;
}

void umb_mpi_aware_facts(umb_aware_facts *f, char *ucx_version, char *pml)
{
    memset(f, 0, sizeof *f);
    f->library = umb_mpi_cuda_aware(&f->library_how);
    ucx_version[0] = pml[0] = '\0';
    void *h = dlopen("libucp.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (h) {
        const char *(*version)(void) = (const char *(*)(void))dlsym(h, "ucp_get_version_string");
        f->ucx_loaded = 1;
        snprintf(ucx_version, 32, "%.31s", version ? version() : "");
        dlclose(h);
    }
    f->ucx_version = ucx_version;
    f->ucx_cuda = mapped("libuct_cuda.so");
    f->ucx_tls = getenv("UCX_TLS");
    f->ucx_memtype_cache = getenv("UCX_MEMTYPE_CACHE");
    f->pml = pml;
    if (ompi_selected_pml(pml)) f->pml_how = "selected component";
    else if (getenv("OMPI_MCA_pml")) {
        snprintf(pml, 32, "%.31s", getenv("OMPI_MCA_pml"));
        f->pml_how = "OMPI_MCA_pml";
    }
}
