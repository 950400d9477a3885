#include "strbuf.h"

#include "error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(umb_strbuf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) umb_fatal("realloc", __FILE__, __LINE__, "out of host memory for output text");
    b->s = s;
    b->cap = cap;
}

void umb_sb_printf(umb_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) return;
    reserve(b, (size_t)need);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

/* The length of the valid UTF-8 sequence at p (2 to 4 bytes), else 0:
   no overlong form, no surrogate, nothing above U+10FFFF. */
static int utf8_length(const unsigned char *p)
{
    int len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (!len || p[0] > 0xf4) return 0;
    for (int i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) || (p[0] == 0xf0 && p[1] < 0x90) ||
        (p[0] == 0xf4 && p[1] > 0x8f))
        return 0;
    return len;
}

/* A C1 control (U+0080 to U+009F) as UTF-8: U+009B opens a sequence, as ESC [ does. */
static int is_c1(const unsigned char *p, int len) { return len == 2 && p[0] == 0xc2 && p[1] < 0xa0; }

size_t umb_show_char(const char *s, char piece[8])
{
    const unsigned char *p = (const unsigned char *)s;
    int len = *p >= 0x80 ? utf8_length(p) : 1;
    if (is_c1(p, len)) snprintf(piece, 8, "\\x%02x", p[1]);
    else if (!len || *p < 0x20 || *p == 0x7f) snprintf(piece, 8, "\\x%02x", *p), len = 1;
    else memcpy(piece, s, (size_t)len), piece[len] = '\0';
    return (size_t)len;
}

void umb_sb_shown(umb_strbuf *b, const char *text)
{
    char piece[8];
    for (const char *p = text ? text : ""; *p;) {
        p += umb_show_char(p, piece);
        umb_sb_printf(b, "%s", piece);
    }
}

const char *umb_show(const char *text, char *out, size_t n)
{
    char piece[8];
    size_t need = 1, k = 0;
    const char *p;
    if (!n) return out;
    for (p = text ? text : ""; *p;) p += umb_show_char(p, piece), need += strlen(piece);
    for (p = text ? text : ""; *p; k += strlen(piece)) {
        p += umb_show_char(p, piece);
        if (need > n && k + strlen(piece) + 4 > n) {  /* cut short: "..." says so */
            snprintf(out + k, n - k, "...");
            return out;
        }
        memcpy(out + k, piece, strlen(piece));
    }
    out[k] = '\0';
    return out;
}

/* Every string a program writes into its JSON, escaped, and valid UTF-8
   whatever it was given: a byte that is not (an environment value such as
   OMPI_MCA_x=a\xffb in the header) is written as U+FFFD, where it made the
   whole header line one that every reader refused. A C1 control is
   escaped as \u00NN, as C0 ones are: it is a control on a terminal too. */
void umb_sb_json_string(umb_strbuf *b, const char *t)
{
    umb_sb_printf(b, "\"");
    for (const unsigned char *p = (const unsigned char *)(t ? t : ""); *p; p++) {
        if (*p >= 0x80) {
            int len = utf8_length(p);
            if (is_c1(p, len)) umb_sb_printf(b, "\\u%04x", p[1]), p++;
            else if (len) umb_sb_printf(b, "%.*s", len, (const char *)p), p += len - 1;
            else umb_sb_printf(b, "\\ufffd");
            continue;
        }
        switch (*p) {
        case '"': umb_sb_printf(b, "\\\""); break;
        case '\\': umb_sb_printf(b, "\\\\"); break;
        case '\n': umb_sb_printf(b, "\\n"); break;
        case '\r': umb_sb_printf(b, "\\r"); break;
        case '\t': umb_sb_printf(b, "\\t"); break;
        default:
            if (*p < 0x20 || *p == 0x7f) umb_sb_printf(b, "\\u%04x", *p);
            else umb_sb_printf(b, "%c", *p);
        }
    }
    umb_sb_printf(b, "\"");
}

void umb_sb_json_field(umb_strbuf *b, const char *key, const char *text)
{
    umb_sb_printf(b, ",\"%s\":", key);
    umb_sb_json_string(b, text);
}

void umb_sb_json_number(umb_strbuf *b, double v)
{
    /* A whole number (a count: iterations, pages) is written whole and
     * exact: "%.6g" made 1000000 into 1e+06, a float that the readers'
     * schema refuses where it asks for an integer (the run was dropped),
     * and 1234567 into 1.23457e+06, a wrong count. 2^53: past it a
     * double holds no odd whole number, so the digits would claim more
     * than the value holds. */
    if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0) umb_sb_printf(b, "%.0f", v == 0 ? 0.0 : v);
    else if (isfinite(v)) umb_sb_printf(b, "%.6g", v);
    else umb_sb_printf(b, "null");
}

void umb_sb_free(umb_strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}
