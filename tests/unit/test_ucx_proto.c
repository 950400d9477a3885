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

int main(void)
{
    sizes();
    infiniband();
    return check_done("test_ucx_proto");
}
