/* --path's reading of UCX's own protocol tables (UCX_PROTO_INFO): the
   restart that asks UCX for them, each rank's tables for its sends, and
   rank 0's printing of every distinct table (docs/method.md, "The path of
   a row"). */
#ifndef UMB_PATH_UCX_H
#define UMB_PATH_UCX_H

#include "bench_state.h"

#include <stddef.h>

/* Asks UCX to print its protocol choices (UCX_PROTO_INFO=y) into a file of
   ours (UCX_LOG_FILE), unless the user set either. UCX reads UCX_LOG_FILE
   when its libraries load, before main where the MPI library links them
   (Open MPI 5), so the program starts again, once, with both set. In the
   restarted program, log names the file; elsewhere it is "" (the user's
   settings, or no restart). */
void umb_path_ucx_ask(char **argv, char *log, size_t n);

/* This rank's tables for its sends ("ucp_tag_send*" from memtype, to
   another process) from log, one line per range: "what|lo|hi|protocol|via". */
void umb_path_ucx_tables(const char *log, const char *memtype, char *buf, size_t n);

/* Rank 0: every rank's tables (all: nranks texts of `stride` bytes), each
   distinct table once, in the run's format; log: "" when none was asked. */
void umb_path_ucx_print(const umb_bench *b, const char *all, size_t stride, const char *log);

/* UCX's warnings and errors from log to stderr; then the file is removed. */
void umb_path_ucx_done(const char *log);

#endif
