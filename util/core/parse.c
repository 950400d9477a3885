#define _GNU_SOURCE  /* vasprintf */
#include "parse.h"

#include "strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A word (a run without blanks) longer than this is shortened in the middle. */
#define SHOWN_WORD 64

/* Appends piece to out[0..n) at *k while it fits whole; 0 once it does not. */
static int put(char *out, size_t n, size_t *k, const char *piece)
{
    size_t len = strlen(piece);
    if (*k + len >= n) return 0;
    memcpy(out + *k, piece, len);
    *k += len;
    return 1;
}

void umb_shown(const char *in, char *out, size_t n)
{
    size_t k = 0;
    if (!n) return;
    for (int more = 1; *in && more;) {
        size_t bare = strcspn(in, " "), word = bare + strspn(in + bare, " ");  /* a word, then its blanks */
        for (size_t i = 0; i < word && more;) {
            char piece[8];
            if (bare > SHOWN_WORD && i >= SHOWN_WORD / 2 && i < bare - SHOWN_WORD / 4) {  /* a long value: its ends stay */
                more = put(out, n, &k, "...");
                for (i = bare - SHOWN_WORD / 4; (in[i] & 0xc0) == 0x80; i++) continue;  /* at a character's start */
                continue;
            }
            i += umb_show_char(in + i, piece);  /* the one rule (strbuf.h) */
            more = more && put(out, n, &k, piece);
        }
        in += word;
    }
    out[k] = '\0';
}

int umb_errf(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    char *whole = NULL;
    va_start(ap, fmt);
    int len = vasprintf(&whole, fmt, ap);
    va_end(ap);
    if (len < 0) snprintf(err, n, "%s", fmt);  /* no memory: the line's words without its values */
    else umb_shown(whole, err, n);
    free(whole);
    return 1;
}

int umb_parse_long(const char *s, long lo, long hi, long *v)
{
    char *end;
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    errno = 0;
    *v = strtol(s, &end, 10);
    return errno || *end || *v < lo || *v > hi ? -1 : 0;
}

int umb_parse_decimal(const char *s, int exponent, double *v)
{
    const char *p = s;
    int digits = 0;
    if (!s) return -1;
    while (isdigit((unsigned char)*p)) p++, digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++) digits++;
    if (!digits) return -1;
    if (exponent && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!isdigit((unsigned char)*p)) return -1;
        while (isdigit((unsigned char)*p)) p++;
    }
    if (*p) return -1;
    errno = 0;
    *v = strtod(s, NULL);
    return errno || !isfinite(*v) ? -1 : 0;
}

int umb_list_items(const char *list, char *copy, size_t n, char **items, int max, int *count)
{
    *count = 0;
    if (!list) return -1;
    if (strlen(list) >= n) return -2;
    strcpy(copy, list);
    for (char *p = copy;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (!*p) return -1;
        if (*count >= max) return -2;
        items[(*count)++] = p;
        if (!comma) return 0;
        p = comma + 1;
    }
}

int umb_list_repeat(char *const *items, int count)
{
    for (int i = 1; i < count; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(items[i], items[j])) return i;
    return -1;
}

int umb_parse_bytes(const char *s, size_t *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    default: break;
    }
    if (*end != '\0') return -1;
    if (shift && v > (SIZE_MAX >> shift)) return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* The forms alone: 0, or -1. */
/* -m's forms; *given: 1 for MIN, 2 for MAX, as arg gives them. */
static int size_range_form(const char *arg, size_t *lo, size_t *hi, int *given)
{
    const char *colon = strchr(arg, ':');
    *given = 2;
    if (!colon) return umb_parse_bytes(arg, hi);
    char first[64];
    size_t len = (size_t)(colon - arg);
    if (len >= sizeof first || (!len && !colon[1])) return -1;
    memcpy(first, arg, len);
    first[len] = '\0';
    *given = (len ? 1 : 0) | (colon[1] ? 2 : 0);
    if (len && umb_parse_bytes(first, lo)) return -1;
    return colon[1] && umb_parse_bytes(colon + 1, hi) ? -1 : 0;
}

int umb_parse_size_range(const char *arg, size_t least, size_t most, const char *example, size_t *lo, size_t *hi,
                         char *err, size_t n)
{
    size_t l = *lo, h = *hi;
    int given;
    if (size_range_form(arg, &l, &h, &given) || l < least || h < least)
        return umb_errf(err, n, "-m %s: expected MAX, MIN:MAX or MIN: in bytes from %zu to %zu (K, M, G suffixes allowed), e.g. -m %s",
                        arg, least, most, example);
    if (l > most || h > most)
        return 1 + umb_errf(err, n, "-m %s: %zu bytes is above %zu, the largest size accepted", arg, l > most ? l : h, most);
    if (l > h && given == 2)
        return umb_errf(err, n, "-m %s: MAX (%zu) is below %zu, the first size when MIN is not given; give MIN:MAX", arg, h, l);
    if (l > h && given == 1)
        return umb_errf(err, n, "-m %s: MIN (%zu) is above the default MAX (%zu); give MIN:MAX", arg, l, h);
    if (l > h) return umb_errf(err, n, "-m %s: MIN (%zu) is larger than MAX (%zu)", arg, l, h);
    *lo = l;
    *hi = h;
    return 0;
}

int umb_parse_word(const char *opt, const char *a, const char *const words[], int *v, char *err, size_t n)
{
    char list[128] = "";
    for (int i = 0; words[i]; i++) {
        if (!strcmp(a, words[i])) {
            *v = i;
            return 0;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", words[i]);
    }
    return umb_errf(err, n, "%s %s: accepted: %s", opt, a, list);
}

int umb_size_next(size_t *size, size_t max)
{
    if (*size >= max) return -1;
    size_t p = 1;
    while (p <= *size && p <= max / 2) p <<= 1;  /* the first power of two above *size, without passing max */
    *size = p > *size && p < max ? p : max;
    return 0;
}

size_t umb_size_after(size_t s, size_t end, size_t step, double factor)
{
    if (s >= end) return end;
    if (step) return end - s > step ? s + step : end;
    if (factor == 2) {
        umb_size_next(&s, end);
        return s;
    }
    double f = (double)s * factor;
    if (!(f < (double)end)) return end;  /* also where s * factor passes SIZE_MAX */
    size_t next = (size_t)f;
    if (next <= s) next = s + 1;  /* a factor near 1 still moves on */
    return next < end ? next : end;
}

int umb_getopt_no_value(int optopt, const char *shorts)
{
    return optopt >= 128 || (optopt > 0 && !isprint(optopt)) || (optopt != ':' && optopt > 0 && strchr(shorts, optopt));
}
