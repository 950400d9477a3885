/* Writes a header and rows with awkward strings in the given format; the
   script tests/unit/output_json.sh checks them. `test_output shown`: the
   one rule that shows a value on a line (strbuf.h), over every byte. */
#include "output.h"
#include "parse.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* What the rule makes of "a" C "z", C one character of 1 or 2 bytes. */
static void expect(const char *c, char *want, size_t n)
{
    const unsigned char *u = (const unsigned char *)c;
    int raw = u[1] ? u[0] == 0xc2 && u[1] >= 0xa0 : u[0] >= 0x20 && u[0] < 0x7f;
    if (raw) snprintf(want, n, "a%sz", c);
    else snprintf(want, n, "a\\x%02xz", u[1] ? u[1] : u[0]);  /* a C1 control by its code point */
}

/* A header line and a JSON string with C in their value: one line, no raw control byte. */
static void check_writers(const char *value)
{
    umb_header h;
    memset(&h, 0, sizeof h);
    umb_header_str(&h, "mpi_env", "MPI environment", "OMPI_MCA_x=%s", value);
    CHECK(h.text.len && strchr(h.text.s, '\n') == h.text.s + h.text.len - 1);
    for (size_t i = 0; i < h.text.len; i++) {
        unsigned char b = (unsigned char)h.text.s[i];
        CHECK((b >= 0x20 && b != 0x7f) || (b == '\n' && i == h.text.len - 1));
        CHECK(!(b == 0xc2 && i + 1 < h.text.len && (unsigned char)h.text.s[i + 1] < 0xa0));
    }
    for (size_t i = 0; i < h.json.len; i++) {
        unsigned char b = (unsigned char)h.json.s[i];
        CHECK(b >= 0x20 && b != 0x7f && !(b == 0xc2 && (unsigned char)h.json.s[i + 1] < 0xa0));
    }
    umb_header_free(&h);
}

static int shown_all(void)
{
    char c[3] = {0}, value[8], want[16], got[64];
    for (int pass = 0; pass < 2; pass++)  /* every byte alone, then U+0080 to U+00BF */
        for (int x = pass ? 0x80 : 1; x < (pass ? 0xc0 : 0x100); x++) {
            c[0] = (char)(pass ? 0xc2 : x), c[1] = (char)(pass ? x : 0);
            snprintf(value, sizeof value, "a%sz", c);
            expect(c, want, sizeof want);
            CHECK(!strcmp(umb_show(value, got, sizeof got), want));
            umb_shown(value, got, sizeof got);  /* an error line: the same rule */
            CHECK(!strcmp(got, want));
            umb_strbuf b = {0};
            umb_sb_shown(&b, value);
            CHECK(b.s && !strcmp(b.s, want));
            umb_sb_free(&b);
            if (strcmp(got, want)) fprintf(stderr, "  byte(s) %02x %02x: got %s\n", (unsigned char)c[0], (unsigned char)c[1], got);
            check_writers(value);
        }
    CHECK(!strcmp(umb_show("\x1b[31mred\x1b[0m", got, sizeof got), "\\x1b[31mred\\x1b[0m"));
    CHECK(!strcmp(umb_show("abcdefghij", got, 8), "abcd...")); /* cut short: says so */
    CHECK(!strcmp(umb_show("a\nbcdefgh", got, 8), "a..."));   /* never inside \x0a */
    CHECK(!strcmp(umb_show("abcdefg", got, 8), "abcdefg"));
    return check_done("test_output shown");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "shown")) return shown_all();
    umb_format f = argc > 1 && !strcmp(argv[1], "csv") ? UMB_FMT_CSV
                 : argc > 1 && !strcmp(argv[1], "table") ? UMB_FMT_TABLE : UMB_FMT_JSON;
    umb_header h;
    memset(&h, 0, sizeof h);
    umb_header_str(&h, "program", "Program", "umb_test \"quoted\" back\\slash tab\there");
    umb_header_str(&h, "control", "Control", "bell\a newline-free");
    umb_header_num(&h, "nranks", "Ranks", 2);
    umb_header_json(&h, "ranks", "[{\"rank\":0},{\"rank\":1}]", "# Rank 0\n# Rank 1\n");
    umb_header_print(&h, f, stdout);
    umb_header_free(&h);

    umb_output o = {.format = f, .full = 1, .validate = 1, .program = "umb_test", .buffers = "MD MH", .out = stdout};
    umb_stats s = {.n = 10, .avg = 1.5, .min = 1, .max = 2, .p50 = 1.5, .p99 = 2};
    umb_col cols[8];
    const umb_metric lat = {"Avg Latency(us)", "Latency(us)", "latency_us"};
    int n = umb_stats_cols(&s, &lat, cols);
    umb_text_col(&cols[n++], "Memory", "memory", "write-combined");
    umb_out_columns(&o, cols, n);
    umb_out_row(&o, 8, cols, n, 1);
    s.avg = 1.0 / 0.0;  /* a non-finite value must still give valid JSON */
    s.n = 1234567;  /* a count of a million or more, written whole ("%.6g" wrote 1.23457e+06) */
    n = umb_stats_cols(&s, &lat, cols);
    umb_text_col(&cols[n++], "Memory", "memory", "pinned");
    umb_out_row(&o, 4194304, cols, n, 0);
    return 0;
}
