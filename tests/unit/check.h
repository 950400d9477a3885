/* Minimal checks for the unit tests: count failures, exit 1 if any. */
#ifndef UMB_CHECK_H
#define UMB_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond)                                                              \
    do {                                                                         \
        check_count++;                                                           \
        if (!(cond)) {                                                           \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_CONTAINS(text, part)                                               \
    do {                                                                         \
        check_count++;                                                           \
        if (!strstr((text), (part))) {                                           \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, (text), (part)); \
        }                                                                        \
    } while (0)

static inline int check_done(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

/* Splits "umb_test " + line at spaces into argv (at most 31 words, in
   copy); returns argc. */
static inline int check_argv(const char *line, char *copy, size_t n, char **argv)
{
    int argc = 0;
    snprintf(copy, n, "umb_test %s", line);
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    return argc;
}

#endif
