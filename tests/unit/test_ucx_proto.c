/* UCX's protocol tables (UCX_PROTO_INFO=y) parsed from recorded logs in
   tests/unit/data/ (util/core/ucx_proto.c). */
#include "check.h"
#include "ucx_proto.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int load(const char *name, umb_ucx_table *t, int max)
{
    char path[512];
    const char *src = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/tests/unit/data/%s", src ? src : ".", name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    int n = umb_ucx_proto_parse(f, t, max);
    fclose(f);
    return n;
}

static void sizes(void)
{
    size_t v;
    CHECK(umb_ucx_size_parse("2007", &v) == 0 && v == 2007);
    CHECK(umb_ucx_size_parse(" 8K", &v) == 0 && v == 8192);
    CHECK(umb_ucx_size_parse("1M", &v) == 0 && v == 1048576);
    CHECK(umb_ucx_size_parse("248M", &v) == 0 && v == (size_t)248 << 20);
    CHECK(umb_ucx_size_parse("inf", &v) == 0 && v == SIZE_MAX);
    CHECK(umb_ucx_size_parse("x1", &v) != 0);
    CHECK(umb_ucx_size_parse("12Q", &v) != 0);
}

/* The table of UCX's pull request that added it (UCX 1.13, InfiniBand). */
static void infiniband(void)
{
    static umb_ucx_table t[8];
    int n = load("ucx-proto-1.13-ib.txt", t, 8);
    CHECK(n == 1);
    if (n != 1) return;
    CHECK(!strcmp(t[0].memtype, "host"));
    CHECK(t[0].nranges == 4);
    const umb_ucx_range *r = umb_ucx_proto_find(t, n, "ucp_tag_send", "host", 8);
    CHECK(r && !strcmp(r->proto, "eager short") && !strcmp(r->via, "rc_mlx5/mlx5_0:1"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "host", 2008);
    CHECK(r && !strcmp(r->proto, "eager zero-copy copy-out"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "host", (size_t)4 << 20);
    CHECK(r && strstr(r->proto, "rendezvous zero-copy read"));
    CHECK(umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda", 8) == NULL);
    CHECK(umb_ucx_proto_find(t, n, "ucp_put", "host", 8) == NULL);
}

/* UCX 1.22 with CUDA (the libucx-cu13 wheel), two ranks on one H200,
   recorded by tests/gpu/run-all: the endpoint and the operation on rows
   of their own, and the loopback ("self") endpoint's tables first. */
static void cuda(void)
{
    static umb_ucx_table t[64];
    int n = load("ucx-proto-1.22-cuda.txt", t, 64);
    CHECK(n >= 3);
    const umb_ucx_range *r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda-managed", 8);
    CHECK(r && !strcmp(r->proto, "eager copy-in copy-out") && !strcmp(r->via, "sysv/memory"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda-managed", 0);
    CHECK(r && !strcmp(r->proto, "eager short"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda-managed", 65536);
    CHECK(r && strstr(r->proto, "rendezvous cuda_copy") && strstr(r->proto, "frag host"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda-managed", (size_t)4 << 20);
    CHECK(r && strstr(r->proto, "rendezvous pipeline cuda_copy") && strstr(r->proto, "frag host"));
    CHECK(r && r->lo == 524289 && r->hi == 248090417);
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda-managed", (size_t)256 << 20);
    CHECK(r && strstr(r->proto, "frag cuda") && !strcmp(r->via, "cuda_ipc/cuda"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda", 4096);
    CHECK(r && !strcmp(r->proto, "eager copy-in copy-out"));
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "cuda", 8192);
    CHECK(r && strstr(r->proto, "rendezvous zero-copy") && !strcmp(r->via, "cuda_ipc/cuda"));
    /* host memory: the intra-node endpoint's table, not the loopback's */
    r = umb_ucx_proto_find(t, n, "ucp_tag_send", "host", 8);
    CHECK(r && strcmp(r->via, "self/memory"));
    int self = 0;
    for (int i = 0; i < n; i++) self += strstr(t[i].ep, " self ") != NULL;
    CHECK(self > 0);
}

int main(void)
{
    sizes();
    infiniband();
    cuda();
    return check_done("test_ucx_proto");
}
