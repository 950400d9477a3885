#include "output.h"

#include "error.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIZE_WIDTH 10   /* OMB's column widths */
#define FIELD_WIDTH 18
#define COUNT_WIDTH 12

/* Why the first flush of the header failed: later flushes of a stream in
   error may not say. */
static int first_write_errno;

static void json_key(umb_header *h, const char *key)
{
    umb_sb_printf(&h->json, "%s", h->json.len ? "," : "{\"type\":\"header\",");
    umb_sb_json_string(&h->json, key);
    umb_sb_printf(&h->json, ":");
}

void umb_header_str(umb_header *h, const char *key, const char *label, const char *fmt, ...)
{
    char value[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    umb_sb_printf(&h->text, "# %s: ", label);
    umb_sb_shown(&h->text, value);  /* an OMPI_MCA_ value's newline would start a line of its own */
    umb_sb_printf(&h->text, "\n");
    json_key(h, key);
    umb_sb_json_string(&h->json, value);
}

void umb_header_num(umb_header *h, const char *key, const char *label, double v)
{
    umb_sb_printf(&h->text, "# %s: %.10g\n", label, v);
    json_key(h, key);
    umb_sb_json_number(&h->json, v);
}

void umb_header_json(umb_header *h, const char *key, const char *json, const char *table_lines)
{
    umb_sb_printf(&h->text, "%s", table_lines);
    json_key(h, key);
    umb_sb_printf(&h->json, "%s", json);
}

void umb_header_print(umb_header *h, umb_format f, FILE *out)
{
    if (f == UMB_FMT_JSON) fprintf(out, "%s}\n", h->json.s ? h->json.s : "{\"type\":\"header\"");
    else if (h->text.s) fputs(h->text.s, out);
    if (fflush(out) != 0 && !first_write_errno) first_write_errno = errno;
}

void umb_output_require(const char *program)
{
    if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF) return;
    fprintf(stderr, "%s: standard output is closed: nowhere to write the results\n", program);
    exit(UMB_EXIT_USAGE);
}

int umb_output_end(const char *program, umb_format f, int last, int status)
{
    return umb_output_end_pair(program, f, last, status, NULL, NULL);
}

int umb_output_end_pair(const char *program, umb_format f, int last, int status, const char *buffers, const char *skipped)
{
    if (last && f == UMB_FMT_JSON) {
        umb_strbuf b = {0};
        umb_sb_printf(&b, "{\"type\":\"end\"");
        umb_sb_json_field(&b, "program", program);
        if (buffers) umb_sb_json_field(&b, "buffers", buffers);
        if (skipped) umb_sb_json_field(&b, "skipped", skipped);
        umb_sb_printf(&b, ",\"status\":%d}\n", status);
        fputs(b.s, stdout);
        umb_sb_free(&b);
    } else if (last && skipped) {
        printf("# %s %s: skipped: %s\n", program, buffers ? buffers : "", UMB_SHOWN(skipped));
    }
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return status;
    int why = errno ? errno : first_write_errno;
    fprintf(stderr, "%s: cannot write the results to standard output: %s\n", program, why ? strerror(why) : "a write failed");
    return UMB_EXIT_USAGE;
}

void umb_header_free(umb_header *h)
{
    umb_sb_free(&h->text);
    umb_sb_free(&h->json);
}

static void set_col(umb_col *c, const char *prefix, const char *title, const char *kprefix,
                    const char *key, double v, int decimals, int full_only)
{
    c->text[0] = 0;
    snprintf(c->title, sizeof c->title, "%s%s", prefix, title);
    snprintf(c->key, sizeof c->key, "%s%s", kprefix, key);
    c->value = v;
    c->decimals = decimals;
    c->full_only = full_only;
}

int umb_stats_cols(const umb_stats *s, const umb_metric *m, umb_col *c)
{
    const char *title = m->title, *key = m->key;
    set_col(&c[0], "", m->avg_title, "avg_", key, s->avg, 2, 0);
    set_col(&c[1], "Min ", title, "min_", key, s->min, 2, 1);
    set_col(&c[2], "Max ", title, "max_", key, s->max, 2, 1);
    set_col(&c[3], "P50 ", title, "p50_", key, s->p50, 2, 1);
    set_col(&c[4], "P99 ", title, "p99_", key, s->p99, 2, 1);
    set_col(&c[5], "", "Iterations", "", "iterations", (double)s->n, 0, 1);
    return 6;
}

void umb_text_col(umb_col *c, const char *title, const char *key, const char *text)
{
    memset(c, 0, sizeof *c);
    snprintf(c->title, sizeof c->title, "%s", title);
    snprintf(c->key, sizeof c->key, "%s", key);
    snprintf(c->text, sizeof c->text, "%s", text);
}

void umb_num_col(umb_col *c, const char *title, const char *key, double value, int decimals)
{
    memset(c, 0, sizeof *c);
    snprintf(c->title, sizeof c->title, "%s", title);
    snprintf(c->key, sizeof c->key, "%s", key);
    c->value = value;
    c->decimals = decimals;
}

static int shown(const umb_output *o, const umb_col *c) { return o->full || !c->full_only; }

/* OMB's widths, widened where a title would touch its neighbour. */
static int width(const umb_col *c)
{
    int w = c->decimals ? FIELD_WIDTH : COUNT_WIDTH, t = (int)strlen(c->title) + 2;
    if (c->text[0]) {
        int v = (int)strlen(c->text) + 2;
        w = v > 12 ? v : 12;
    }
    return t > w ? t : w;
}

void umb_out_columns(const umb_output *o, const umb_col *cols, int n)
{
    if (o->format == UMB_FMT_JSON) return;
    if (o->format == UMB_FMT_CSV) {
        fprintf(o->out, "size");
        for (int i = 0; i < n; i++) fprintf(o->out, ",%s", cols[i].key);
        fprintf(o->out, ",validation\n");
    } else {
        fprintf(o->out, "%-*s", SIZE_WIDTH, "# Size");
        for (int i = 0; i < n; i++)
            if (shown(o, &cols[i]))
                fprintf(o->out, "%*s", width(&cols[i]), cols[i].title);
        if (o->validate) fprintf(o->out, "%*s", COUNT_WIDTH, "Validation");
        fprintf(o->out, "\n");
    }
    fflush(o->out);
}

void umb_out_row(const umb_output *o, size_t size, const umb_col *cols, int n, int valid)
{
    const char *v = !o->validate ? "off" : valid ? "pass" : "fail";
    if (o->format == UMB_FMT_JSON) {
        umb_strbuf b = {0};
        umb_sb_printf(&b, "{\"type\":\"result\",\"program\":");
        umb_sb_json_string(&b, o->program);
        umb_sb_json_field(&b, "buffers", o->buffers);
        umb_sb_printf(&b, ",\"size\":%zu", size);
        for (int i = 0; i < n; i++) {
            umb_sb_printf(&b, ",\"%s\":", cols[i].key);
            if (cols[i].text[0]) umb_sb_json_string(&b, cols[i].text);
            else umb_sb_json_number(&b, cols[i].value);
        }
        umb_sb_printf(&b, ",\"validation\":\"%s\"}\n", v);
        fputs(b.s, o->out);
        umb_sb_free(&b);
    } else if (o->format == UMB_FMT_CSV) {
        fprintf(o->out, "%zu", size);
        for (int i = 0; i < n; i++)
            if (cols[i].text[0]) fprintf(o->out, ",%s", cols[i].text);
            else if (!isfinite(cols[i].value)) fprintf(o->out, ",");  /* no value: not measured */
            else fprintf(o->out, ",%.*f", cols[i].decimals ? 3 : 0, cols[i].value);
        fprintf(o->out, ",%s\n", v);
    } else {
        fprintf(o->out, "%-*zu", SIZE_WIDTH, size);
        for (int i = 0; i < n; i++)
            if (!shown(o, &cols[i])) continue;
            else if (cols[i].text[0]) fprintf(o->out, "%*s", width(&cols[i]), cols[i].text);
            else if (isnan(cols[i].value)) fprintf(o->out, "%*s", width(&cols[i]), "n/a");
            else fprintf(o->out, "%*.*f", width(&cols[i]), cols[i].decimals, cols[i].value);
        if (o->validate) fprintf(o->out, "%*s", COUNT_WIDTH, valid ? "Pass" : "Fail");
        fprintf(o->out, "\n");
    }
    fflush(o->out);
}

int umb_format_parse(const char *s, umb_format *f, char *err, size_t n)
{
    if (!strcmp(s, "table")) *f = UMB_FMT_TABLE;
    else if (!strcmp(s, "csv")) *f = UMB_FMT_CSV;
    else if (!strcmp(s, "json")) *f = UMB_FMT_JSON;
    else return umb_errf(err, n, "--format %s: accepted: table, csv, json", s);
    return 0;
}
