/* --path's UCX protocol tables (path_ucx.h). */
#include "path_ucx.h"

#include "error.h"
#include "strbuf.h"
#include "ucx_proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESTARTED "UMB_PATH_UCX_LOG"  /* set across the restart: the log file */

void umb_path_ucx_ask(char **argv, char *log, size_t n)
{
    const char *ours = getenv(RESTARTED);
    log[0] = '\0';
    if (ours) {
        snprintf(log, n, "%s", ours);
        unsetenv(RESTARTED);
        return;
    }
    if (getenv("UCX_PROTO_INFO") || getenv("UCX_LOG_FILE")) return;
    char file[256];
    const char *tmp = getenv("TMPDIR");
    snprintf(file, sizeof file, "%s/umb-ucx-%ld.log", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    setenv("UCX_PROTO_INFO", "y", 1);
    setenv("UCX_LOG_FILE", file, 1);
    setenv(RESTARTED, file, 1);
    execv("/proc/self/exe", argv);
    /* No restart: run without UCX's tables. */
    unsetenv("UCX_PROTO_INFO");
    unsetenv("UCX_LOG_FILE");
    unsetenv(RESTARTED);
}

void umb_path_ucx_tables(const char *log, const char *memtype, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!log[0]) return;
    fflush(NULL);  /* UCX's log is a stream of this process: what it holds reaches the file */
    FILE *f = fopen(log, "r");
    if (!f) return;
    static umb_ucx_table t[128];
    int k = umb_ucx_proto_parse(f, t, 128);
    fclose(f);
    size_t used = 0;
    for (int i = 0; i < k; i++) {
        if (!strstr(t[i].what, "ucp_tag_send") || strcmp(t[i].memtype, memtype) || strstr(t[i].ep, " self "))
            continue;
        int seen = 0;  /* every endpoint configuration prints its own copy */
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(t[j].what, t[i].what) && !strstr(t[j].ep, " self ");
        for (int r = 0; !seen && r < t[i].nranges && used < n; r++)
            used += (size_t)snprintf(buf + used, n - used, "%s|%zu|%zu|%s|%s\n", t[i].what, t[i].ranges[r].lo,
                                     t[i].ranges[r].hi, t[i].ranges[r].proto, t[i].ranges[r].via);
    }
    if (used >= n && n > 1) buf[n - 1] = '\0';
}

/* One UCX table line of a rank: "what|lo|hi|protocol|via", cut in place. */
static int ucx_fields(char *line, char *f[5])
{
    f[0] = line;
    for (int k = 1; k < 5; k++) {
        f[k] = strchr(f[k - 1], '|');
        if (!f[k]) return 0;
        *f[k]++ = '\0';
    }
    return 1;
}

static void print_ucx_line(const umb_bench *b, int rank, char *const f[5], int first_of_table)
{
    const char *hi = strcmp(f[2], "18446744073709551615") ? f[2] : "inf";
    if (b->opt.format == UMB_FMT_TABLE) {
        /* UCX's words as shown (strbuf.h): they come from a file. */
        if (first_of_table) printf("#   %s (rank %d)\n", UMB_SHOWN(f[0]), rank);
        printf("#     %12s..%-12s %s%s%s\n", UMB_SHOWN(f[1]), UMB_SHOWN(hi), UMB_SHOWN(f[3]), f[4][0] ? " | " : "",
               UMB_SHOWN(f[4]));
    } else if (b->opt.format == UMB_FMT_CSV) {
        printf("%d,\"%s\",%s,%s,\"%s\",%s\n", rank, UMB_SHOWN(f[0]), UMB_SHOWN(f[1]), UMB_SHOWN(hi), UMB_SHOWN(f[3]),
               UMB_SHOWN(f[4]));
    } else {
        umb_strbuf j = {0};
        umb_sb_printf(&j, "{\"type\":\"ucx_protocol\",\"program\":");
        umb_sb_json_string(&j, b->cli->program);
        umb_sb_printf(&j, ",\"rank\":%d", rank);
        umb_sb_json_field(&j, "operation", f[0]);
        umb_sb_printf(&j, ",\"from_bytes\":%s,\"to_bytes\":%s", f[1], strcmp(hi, "inf") ? hi : "null");
        umb_sb_json_field(&j, "protocol", f[3]);
        umb_sb_json_field(&j, "via", f[4]);
        printf("%s}\n", j.s);
        umb_sb_free(&j);
    }
}

void umb_path_ucx_print(const umb_bench *b, const char *all, size_t stride, const char *log)
{
    int any = 0;
    char last[200] = "";
    for (int r = 0; r < b->nranks; r++) {
        char *copy = strdup(all + (size_t)r * stride), *save = NULL, *f[5];
        if (!copy) umb_fatal("strdup", __FILE__, __LINE__, "out of memory for UCX's tables");
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (!ucx_fields(line, f)) continue;
            int dup = 0;  /* the same table from a lower rank */
            for (int q = 0; q < r && !dup; q++) dup = strstr(all + (size_t)q * stride, f[0]) != NULL;
            if (dup) continue;
            if (!any++) {
                if (b->opt.format == UMB_FMT_TABLE) printf("# UCX protocols, as UCX printed them (UCX_PROTO_INFO), for the ranks' sends\n");
                if (b->opt.format == UMB_FMT_CSV) printf("# UCX protocols\nrank,operation,from_bytes,to_bytes,protocol,via\n");
            }
            print_ucx_line(b, r, f, strcmp(last, f[0]) != 0);
            snprintf(last, sizeof last, "%s", f[0]);
        }
        free(copy);
    }
    if (!any && b->opt.format == UMB_FMT_TABLE && b->facts.ucx_loaded)
        printf("# UCX protocols: %s\n", log[0] ? "UCX printed no table for the ranks' sends" : "not read");
}

void umb_path_ucx_done(const char *log)
{
    if (!log[0]) return;
    FILE *f = fopen(log, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, " WARN ") || strstr(line, " ERROR ")) fputs(line, stderr);
    if (f) fclose(f);
    unlink(log);
}
