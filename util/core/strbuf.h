/* A growable string, JSON string escaping, and the one way a value is
   shown on a line of text. */
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

/* How a program shows a value from the environment, the system or the user
   on a line (a '#' line, a CSV field, an error): a C0 control (below 0x20),
   DEL, a C1 control (U+0080 to U+009F) and a byte that is not UTF-8 as \xNN;
   everything else as it is. A newline in an OMPI_MCA_ value forged a data
   row, an escape sequence reached the terminal. The scripts' rule is the
   same (scripts/umbench/shown.py, escaped). */
/* The first character of non-empty P as shown, into piece; the bytes it took. */
size_t umb_show_char(const char *p, char piece[8]);
/* Appends TEXT as shown. */
void umb_sb_shown(umb_strbuf *b, const char *text);
/* TEXT as shown in out[0..n), never cut inside a character: one cut short
   ends in "...". Returns out. */
const char *umb_show(const char *text, char *out, size_t n);
/* TEXT as shown, for one printf: in a buffer that lasts to the end of the
   block. Values are short (a host name, a GPU's); a longer one ends "...". */
#define UMB_SHOWN_MAX 1024
#define UMB_SHOWN(text) umb_show((text), (char[UMB_SHOWN_MAX]){0}, UMB_SHOWN_MAX)

#endif
