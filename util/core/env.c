#include "env.h"
#include "parse.h"

#include <stdlib.h>

umb_env_state umb_env_long(const char *name, long lo, long hi, long *v, char *err, size_t n)
{
    const char *s = getenv(name);
    if (!s || !*s) return UMB_ENV_ABSENT;
    if (umb_parse_long(s, lo, hi, v) == 0) return UMB_ENV_OK;
    umb_errf(err, n, "%s='%s': expected a whole number from %ld to %ld", name, s, lo, hi);
    return UMB_ENV_BAD;
}

int umb_env_local_rank(int *rank, const char **from, char *err, size_t n)
{
    /* The launchers' own names, most specific first: a wrapper may set
       SLURM_LOCALID from Open MPI's (tests/gpu/slurm_per_gpu.sh). */
    static const char *const vars[] = {
        "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
        "SLURM_LOCALID", "JSM_NAMESPACE_LOCAL_RANK", "PALS_LOCAL_RANKID", "FLUX_TASK_LOCAL_ID",
        "PMI_LOCAL_RANK"};
    *rank = -1;
    *from = NULL;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        long r;
        umb_env_state st = umb_env_long(vars[i], 0, UMB_MAX_LOCAL_RANK, &r, err, n);
        if (st == UMB_ENV_ABSENT) continue;
        if (st == UMB_ENV_BAD) return 1;
        *rank = (int)r;  /* within 0..UMB_MAX_LOCAL_RANK: an int holds it */
        *from = vars[i];
        return 0;
    }
    return 0;
}
