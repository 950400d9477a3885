/* Every numeric option's range at both edges, from its own refusal (issue
   70): a value out of range draws the message, the message states the
   range ("from A to B", "A..B", "A to B", "above A and at most B"), and then A and B
   are accepted, one past each edge refused, each refusal naming the value
   (so the message's range is the one enforced: a window of 65536 refused
   while the message names 65536 fails here). One past an edge is the next
   integer, or 0.001 beyond it where fractions are allowed. */
#include "options.h"
#include "check.h"

#include <stdlib.h>

static const umb_cli bw_cli = {
    .program = "umb_bwtest", .summary = "test", .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = 1 << 22, .buffers_per_rank = 1, .window = 64,
};

static const umb_cli coll_cli = {
    .program = "umb_colltest", .summary = "test", .nbuffers = 1,
    .iters = 1000, .skip = 200, .iters_large = 100, .skip_large = 10, .large_size = 8192,
    .max_size = 1 << 20, .buffers_per_rank = 1, .collective = 1,
};
static const umb_cli *under = &bw_cli;

static char err[512];

/* -m's range is of MIN and MAX: an edge is tried as V:V (-m 0 alone is
   MIN 1 above MAX 0, another rule); -k's as fixed:V. */
static int pair;
static const char *prefix = "";

/* 0: the option took the value; 1: refused by the option's own message
   ("FLAG VALUE: ..."); -1: refused for another reason (another option's rule). */
static int try(const char *flag, const char *v)
{
    char line[256], copy[512], *argv[32], own[256], value[140];
    umb_options o;
    if (!strcmp(v, "x")) snprintf(value, sizeof value, "%s", v);
    else if (pair) snprintf(value, sizeof value, "%s:%s", v, v);
    else snprintf(value, sizeof value, "%s%s", prefix, v);
    snprintf(line, sizeof line, "%s %s", flag, value);
    int argc = check_argv(line, copy, sizeof copy, argv);
    if (umb_options_parse(&o, under, argc, argv, err, sizeof err) == 0) return 0;
    snprintf(own, sizeof own, "%s %s:", flag, value);
    return strncmp(err, own, strlen(own)) ? -1 : 1;
}

/* A decimal digit string plus (+1) or minus (-1) one; "" below 0. */
static void step(const char *digits, int by, char *out, size_t n)
{
    size_t len = strlen(digits);
    char buf[64] = "0";
    memcpy(buf + 1, digits, len + 1);
    for (size_t i = len; ; i--) {
        if (by > 0 && buf[i] == '9') buf[i] = '0';
        else if (by < 0 && buf[i] == '0') buf[i] = '9';
        else {
            buf[i] = (char)(buf[i] + by);
            break;
        }
        if (i == 0) {
            out[0] = '\0';
            return;
        }
    }
    const char *p = buf;
    while (p[0] == '0' && p[1]) p++;
    snprintf(out, n, "%s", p);
}

/* The range the message states: lo, hi as digit strings; *open_lo: lo itself is refused. */
static int stated(const char *msg, char *lo, char *hi, int *open_lo)
{
    const char *forms[] = {"from %63[0-9] to %63[0-9]", "above %63[0-9] and at most %63[0-9]", "%63[0-9]..%63[0-9]",
                           "%63[0-9] to %63[0-9]"};
    for (const char *p = msg; *p; p++)
        for (int f = 0; f < 4; f++)
            if (sscanf(p, forms[f], lo, hi) == 2 && (p == msg || p[-1] == ' ')) {
                *open_lo = f == 1;
                return 0;
            }
    return -1;
}

static void edges(const char *flag, const char *probe)
{
    char lo[80], hi[64], below[80], above[80];
    int open_lo;
    CHECK(try(flag, probe) == 1);
    if (stated(err, lo, hi, &open_lo)) {
        printf("%s %s: no range in its message: %s\n", flag, probe, err);
        CHECK(0);
        return;
    }
    int fractions = strstr(err, "fractions allowed") != NULL || !strcmp(flag, "--precision");
    if (fractions) {
        char less[64];
        step(lo, -1, less, sizeof less);
        if (open_lo) snprintf(below, sizeof below, "%s", lo), strcat(lo, ".001");  /* lo: at most 63 digits */
        else snprintf(below, sizeof below, "%s.999", less);
        snprintf(above, sizeof above, "%s.001", hi);
    } else {
        step(lo, -1, below, sizeof below);
        step(hi, 1, above, sizeof above);
    }
    int at_lo = try(flag, lo), at_hi = try(flag, hi), out_lo = below[0] ? try(flag, below) : 1, out_hi = try(flag, above);
    if (at_lo == 1 || at_hi == 1 || out_lo != 1 || out_hi != 1)
        printf("%s: the message states %s%s to %s; %s %s, %s %s, %s %s, %s %s\n", flag, open_lo ? "above " : "", lo, hi,
               lo, at_lo == 1 ? "refused" : "taken", hi, at_hi == 1 ? "refused" : "taken",
               below, out_lo == 1 ? "refused" : "taken", above, out_hi == 1 ? "refused" : "taken");
    CHECK(at_lo != 1 && at_hi != 1 && out_lo == 1 && out_hi == 1);
}

int main(void)
{
    pair = 1;
    edges("-m", "x");
    pair = 0;
    edges("-i", "x");
    edges("-x", "x");
    edges("-M", "x");
    edges("-W", "x");
    edges("--device", "x");
    edges("--timeout", "x");
    edges("--size-budget", "x");
    edges("--launch-budget", "x");
    edges("--precision", "x");
    under = &coll_cli;
    prefix = "fixed:";
    edges("-k", "x");
    /* The stepping itself. */
    char s[64];
    step("65536", 1, s, sizeof s);
    CHECK(!strcmp(s, "65537"));
    step("1000", -1, s, sizeof s);
    CHECK(!strcmp(s, "999"));
    step("0", -1, s, sizeof s);
    CHECK(!strcmp(s, ""));
    step("9223372036854775807", 1, s, sizeof s);
    CHECK(!strcmp(s, "9223372036854775808"));
    return check_done("test_option_edges");
}
