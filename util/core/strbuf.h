/* A growable string, and JSON string escaping. */
#ifndef UMB_STRBUF_H
#define UMB_STRBUF_H

#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
} umb_strbuf;

void umb_sb_printf(umb_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends "text" with JSON escapes, quotes included. */
void umb_sb_json_string(umb_strbuf *b, const char *text);
/* Appends ,"key":"text" (text escaped as above): one field of an open object. */
void umb_sb_json_field(umb_strbuf *b, const char *key, const char *text);
/* Appends a JSON number; non-finite values become null. */
void umb_sb_json_number(umb_strbuf *b, double v);
void umb_sb_free(umb_strbuf *b);

#endif
