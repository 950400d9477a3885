/* Errors: one line naming what failed, where, on which rank and host. */
#ifndef UMB_ERROR_H
#define UMB_ERROR_H

#include <stddef.h>

/* Exit statuses (docs/output.md). */
enum {
    UMB_EXIT_OK = 0,
    UMB_EXIT_USAGE = 1,      /* bad input, or a runtime error */
    UMB_EXIT_INVALID = 2,    /* -c found a wrong byte */
    UMB_EXIT_SKIP = 77,      /* a requirement (GPU, CUDA-aware MPI) is missing */
};

/* Names the program, rank and host in every later message. */
void umb_error_context(const char *program, int rank, const char *host);
const char *umb_program(void);

/* Prints "PROGRAM: rank R on HOST: CALL failed at FILE:LINE: WHY" and ends the
   whole job: the hook set with umb_error_on_fatal (the MPI layer's
   MPI_Abort), then exit. Never returns. */
void umb_fatal(const char *call, const char *file, int line, const char *why)
    __attribute__((noreturn));

/* What ends the whole job after a fatal error, besides exit (NULL: nothing). */
void umb_error_on_fatal(void (*end_job)(int code));

/* malloc that reports the size it could not get. */
void *umb_xmalloc(size_t bytes, const char *what);

#endif
