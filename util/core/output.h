/* Output: the '#' header and one row per message size, as an OMB-style
   table, CSV or JSON Lines (docs/output.md). Only rank 0 calls these. */
#ifndef UMB_OUTPUT_H
#define UMB_OUTPUT_H

#include "stats.h"
#include "strbuf.h"

#include <stdio.h>

typedef enum { UMB_FMT_TABLE, UMB_FMT_CSV, UMB_FMT_JSON } umb_format;
/* --format's value; 1 with the line in err when it is none of them. */
int umb_format_parse(const char *s, umb_format *f, char *err, size_t n);

/* The header: "# Label: value" lines in table and CSV, one object in JSON. */
typedef struct {
    umb_strbuf text, json;
} umb_header;

void umb_header_str(umb_header *h, const char *key, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void umb_header_num(umb_header *h, const char *key, const char *label, double v);
/* A value already in JSON (an array, say) with its own table lines. */
void umb_header_json(umb_header *h, const char *key, const char *json, const char *table_lines);
void umb_header_print(umb_header *h, umb_format f, FILE *out);
/* Before anything is opened: a program whose standard output is closed
   says so in one line and exits 1 (a file opened next would take its place). */
void umb_output_require(const char *program);
/* The end of a program's output: with JSON and `last`, an "end" record
   (readers tell a whole output from one cut short); then whether every
   write reached standard output. A failed one is one line on stderr and
   UMB_EXIT_USAGE; otherwise `status` comes back as it was. */
int umb_output_end(const char *program, umb_format f, int last, int status);
/* The same for one buffer pair of several in a launch: the end record names
   the pair, and a skipped one its reason (a "# ... skipped" line in text). */
int umb_output_end_pair(const char *program, umb_format f, int last, int status, const char *buffers, const char *skipped);
void umb_header_free(umb_header *h);

/* One column of a result row. */
typedef struct {
    char title[32];   /* table: "Avg Latency(us)" */
    char key[32];     /* csv/json: "avg_latency_us" */
    double value;
    int decimals;     /* 0 prints an integer */
    int full_only;    /* table shows it only with -f; csv/json always */
    char text[32];    /* non-empty: a label column (a memory kind, a direction)
                         printed as this string instead of value */
} umb_col;

/* A label column: title "Memory", key "memory", text "pinned". */
void umb_text_col(umb_col *c, const char *title, const char *key, const char *text);
/* A number column, always shown. */
void umb_num_col(umb_col *c, const char *title, const char *key, double value, int decimals);

/* What a row measures: the avg column's title (OMB's, e.g. "Avg
   Latency(us)" or "Bandwidth (MB/s)"), the stem of the others ("Min " +
   title) and the key stem of CSV/JSON ("avg_" + key). */
typedef struct {
    const char *avg_title, *title, *key;
    int rate;  /* higher is better (bandwidth, messages/s); else a time */
} umb_metric;

/* Avg, Min, Max, P50, P99 and Iterations of one metric. Returns 6. */
int umb_stats_cols(const umb_stats *s, const umb_metric *m, umb_col *cols);

typedef struct {
    umb_format format;
    int full, validate;
    const char *program;
    const char *buffers;   /* "MD MH" */
    FILE *out;
} umb_output;

void umb_out_columns(const umb_output *o, const umb_col *cols, int n);
/* valid: 1 pass, 0 fail (ignored unless -c). */
void umb_out_row(const umb_output *o, size_t size, const umb_col *cols, int n, int valid);

#endif
