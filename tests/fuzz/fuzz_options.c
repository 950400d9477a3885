/* libFuzzer target: the option parser and the buffer-spec parsers
   (util/mpi/options_parse.c) on arbitrary command lines, for a point-to-point, a
   windowed and a collective program. A parse must end with 0, or 1 or 2
   and one line of error text; nothing may read or write out of bounds.
   Build and run: tests/fuzz/run SECONDS (docs/hardening.md). */
#include "options.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const umb_cli programs[] = {
    {.program = "pt2pt", .summary = "s", .nbuffers = 2, .iters = 10000, .skip = 100, .iters_large = 1000,
     .skip_large = 10, .large_size = 8192, .max_size = 1 << 22, .buffers_per_rank = 2},
    {.program = "bw", .summary = "s", .nbuffers = 2, .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2,
     .large_size = 8192, .max_size = 1 << 22, .buffers_per_rank = 1, .window = 64},
    {.program = "coll", .summary = "s", .iters = 1000, .skip = 200, .iters_large = 100, .skip_large = 10,
     .large_size = 8192, .max_size = 1 << 20, .buffers_per_rank = 2, .collective = 1, .min_size = 4},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Arguments are the input split at NUL and newline bytes. */
    char *text = malloc(size + 1), *argv[34];
    int argc = 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[argc++] = "prog";
    for (char *p = text, *end = text + size; p <= end && argc < 33;) {
        size_t len = strcspn(p, "\n");
        p[len] = '\0';
        argv[argc++] = p;
        p += len + 1;
    }
    argv[argc] = NULL;

    for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
        umb_options o;
        char err[512];
        char *copy[34];
        memcpy(copy, argv, sizeof(char *) * (size_t)(argc + 1));  /* getopt permutes argv */
        int rc = umb_options_parse(&o, &programs[k], argc, copy, err, sizeof err);
        if (rc < 0 || rc > 2) abort();
        if (rc && (!err[0] || strchr(err, '\n'))) abort();  /* one line, never empty */
        if (rc == 0 && !o.help && !o.version) {
            long it, sk;
            umb_iterations(&o, &programs[k], o.max_size, &it, &sk);
            if (it <= 0 || sk < 0 || o.min_size > o.max_size || umb_window_buffers(&o) < 1) abort();
            if (o.buffer_list) {
                umb_kind kind;
                int n = umb_list_length(o.buffer_list);
                for (int i = 0; i < n; i++)
                    if (umb_list_kind(o.buffer_list, i, &kind) != 0) abort();
            }
        }
    }
    for (int i = 1; i < argc; i++) {
        umb_kind kind;
        size_t bytes;
        umb_buffer_kind_parse(argv[i], &kind, NULL);
        umb_parse_bytes(argv[i], &bytes);
        umb_list_kind(argv[i], i, &kind);
        umb_list_length(argv[i]);
    }
    free(text);
    return 0;
}
