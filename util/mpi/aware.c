#include "aware.h"

#include <stdio.h>
#include <string.h>

const char *umb_verdict_name(umb_verdict v)
{
    return v == UMB_VERDICT_AWARE ? "yes" : v == UMB_VERDICT_NOT_AWARE ? "no" : v == UMB_VERDICT_UCX_CARRIES ? "ucx" : "unknown";
}

int umb_verdict_allows_d(umb_verdict v) { return v == UMB_VERDICT_AWARE || v == UMB_VERDICT_UCX_CARRIES; }

/* Whether a comma-separated list names UCX's CUDA copy transport: cuda
   (its alias for cuda_copy, cuda_ipc and gdr_copy) or cuda_copy, which
   every CUDA memory transfer needs; or all. */
static int names_cuda(const char *list, int count_all)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (!strcmp(t, "cuda") || !strcmp(t, "cuda_copy") || (count_all && !strcmp(t, "all"))) return 1;
    return 0;
}

int umb_ucx_tls_has_cuda(const char *tls)
{
    if (!tls || !*tls) return 1;
    if (tls[0] == '^') return !names_cuda(tls + 1, 0);  /* a list of exclusions */
    return names_cuda(tls, 1);
}

umb_verdict umb_aware_verdict(const umb_aware_facts *f, char *why, size_t n)
{
    char ucx[160];
    int tls_cuda = umb_ucx_tls_has_cuda(f->ucx_tls);
    int pml_ucx = f->pml && !strcmp(f->pml, "ucx");
    if (!f->ucx_loaded) snprintf(ucx, sizeof ucx, "UCX not loaded");
    else
        snprintf(ucx, sizeof ucx, "UCX %s %s%s%s", f->ucx_version && *f->ucx_version ? f->ucx_version : "(version unknown)",
                 f->ucx_cuda ? "with CUDA transports" : "without CUDA transports",
                 f->ucx_tls ? ", UCX_TLS=" : "", f->ucx_tls ? f->ucx_tls : "");
    const char *lib = f->library == UMB_AWARE_YES ? "yes" : f->library == UMB_AWARE_NO ? "no" : "cannot tell";
    char pml[96] = "";
    if (f->pml && *f->pml) snprintf(pml, sizeof pml, "; pml %s (%s)", f->pml, f->pml_how ? f->pml_how : "?");
    snprintf(why, n, "the library says %s (%s)%s; %s", lib, f->library_how ? f->library_how : "no query", pml, ucx);

    /* UCX moves the pml's messages: it decides, whatever the library was built with. */
    if (pml_ucx && f->ucx_loaded) {
        if (f->ucx_cuda && tls_cuda) return f->library == UMB_AWARE_YES ? UMB_VERDICT_AWARE : UMB_VERDICT_UCX_CARRIES;
        return UMB_VERDICT_NOT_AWARE;
    }
    if (f->library == UMB_AWARE_YES) return UMB_VERDICT_AWARE;
    if (f->library == UMB_AWARE_NO) return UMB_VERDICT_NOT_AWARE;
    return UMB_VERDICT_UNKNOWN;
}
