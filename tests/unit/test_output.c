/* Writes a header and rows with awkward strings in the given format; the
   script tests/unit/output_json.sh checks them. */
#include "output.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    umb_format f = argc > 1 && !strcmp(argv[1], "csv") ? UMB_FMT_CSV
                 : argc > 1 && !strcmp(argv[1], "table") ? UMB_FMT_TABLE : UMB_FMT_JSON;
    umb_header h;
    memset(&h, 0, sizeof h);
    umb_header_str(&h, "program", "Program", "umb_test \"quoted\" back\\slash tab\there");
    umb_header_str(&h, "control", "Control", "bell\a newline-free");
    umb_header_num(&h, "nranks", "Ranks", 2);
    umb_header_json(&h, "ranks", "[{\"rank\":0},{\"rank\":1}]", "# Rank 0\n# Rank 1\n");
    umb_header_print(&h, f, stdout);
    umb_header_free(&h);

    umb_output o = {.format = f, .full = 1, .validate = 1, .program = "umb_test", .buffers = "MD MH", .out = stdout};
    umb_stats s = {.n = 10, .avg = 1.5, .min = 1, .max = 2, .p50 = 1.5, .p99 = 2};
    umb_col cols[8];
    const umb_metric lat = {"Avg Latency(us)", "Latency(us)", "latency_us"};
    int n = umb_stats_cols(&s, &lat, cols);
    umb_text_col(&cols[n++], "Memory", "memory", "write-combined");
    umb_out_columns(&o, cols, n);
    umb_out_row(&o, 8, cols, n, 1);
    s.avg = 1.0 / 0.0;  /* a non-finite value must still give valid JSON */
    n = umb_stats_cols(&s, &lat, cols);
    umb_text_col(&cols[n++], "Memory", "memory", "pinned");
    umb_out_row(&o, 4194304, cols, n, 0);
    return 0;
}
