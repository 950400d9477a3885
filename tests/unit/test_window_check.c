/* -c fails wherever the corruption is (issue 70): one byte wrong in any
   message of the window (first, middle, last), at any offset (first,
   middle, last byte), from either rank as sender, in any window of the
   run, and umb_window_check (two-sided) and umb_window_check_slots
   (one-sided) say so; with no byte wrong they pass. Host buffers, no MPI
   call: the checks only read memory and write a line on stderr. */
#include "check.h"
#include "window/window.h"
#include "pattern.h"

#include <stdlib.h>
#include <unistd.h>

static umb_cli cli = {.program = "test_window_check"};

static umb_buffer host(size_t bytes)
{
    umb_buffer b = {.kind = UMB_H, .bytes = bytes, .device = -1, .node = -1};
    b.ptr = malloc(bytes ? bytes : 1);
    return b;
}

/* Every (message, offset) of window i of `window` messages of `size` bytes. */
static void two_sided(umb_bench *b, int window, size_t size, long i, int sender)
{
    umb_window w = {.nbuf = window, .window = window, .buf = malloc(sizeof(umb_buffer) * (size_t)window)};
    for (int j = 0; j < window; j++) w.buf[j] = host(size);
    umb_window_fill(&w, size, i, sender);
    CHECK(umb_window_check(b, &w, size, i, sender));
    CHECK(!umb_window_check(b, &w, size, i + 1, sender));  /* another window's pattern */
    size_t at[] = {0, size / 2, size - 1};
    int messages[] = {0, window / 2, window - 1};
    for (int m = 0; m < 3; m++)
        for (int o = 0; o < 3; o++) {
            unsigned char *p = w.buf[messages[m]].ptr + at[o];
            *p ^= 0x5a;
            int caught = !umb_window_check(b, &w, size, i, sender);
            if (!caught)
                printf("two-sided: window %d of %zu bytes, window index %ld, sender %d: byte %zu of message %d not caught\n",
                       window, size, i, sender, at[o], messages[m]);
            CHECK(caught);
            *p ^= 0x5a;
        }
    CHECK(umb_window_check(b, &w, size, i, sender));
    for (int j = 0; j < window; j++) free(w.buf[j].ptr);
    free(w.buf);
}

static void one_sided(umb_bench *b, int ops, size_t size, long i, int sender)
{
    umb_buffer buf = host((size_t)ops * size);
    for (int j = 0; j < ops; j++)
        for (size_t k = 0; k < size; k++)
            buf.ptr[(size_t)j * size + k] = umb_pattern_byte(umb_pattern_seed(i * ops + j, size, sender), k);
    CHECK(umb_window_check_slots(b, &buf, ops, ops, size, i, sender));
    size_t at[] = {0, size / 2, size - 1};
    int messages[] = {0, ops / 2, ops - 1};
    for (int m = 0; m < 3; m++)
        for (int o = 0; o < 3; o++) {
            unsigned char *p = buf.ptr + (size_t)messages[m] * size + at[o];
            *p ^= 0x01;
            int caught = !umb_window_check_slots(b, &buf, ops, ops, size, i, sender);
            if (!caught)
                printf("one-sided: %d operations of %zu bytes, window index %ld, sender %d: byte %zu of operation %d not caught\n",
                       ops, size, i, sender, at[o], messages[m]);
            CHECK(caught);
            *p ^= 0x01;
        }
    free(buf.ptr);
}

int main(void)
{
    umb_bench b;
    memset(&b, 0, sizeof b);
    b.cli = &cli;
    snprintf(b.host, sizeof b.host, "localhost");
    /* Each caught corruption writes its line: not this test's output. */
    int err = dup(2);
    if (!freopen("/dev/null", "w", stderr)) return 1;
    int windows[] = {1, 2, 64}, sizes[] = {1, 3, 4096};
    for (int w = 0; w < 3; w++)
        for (int s = 0; s < 3; s++)
            for (int sender = 0; sender < 2; sender++)
                for (long i = 0; i < 3; i++) {
                    b.rank = 1 - sender;
                    two_sided(&b, windows[w], (size_t)sizes[s], i, sender);
                    one_sided(&b, windows[w], (size_t)sizes[s], i, sender);
                }
    fflush(stderr);
    dup2(err, 2);
    return check_done("test_window_check");
}
