/* What the parsed options mean (options.h): buffer kinds and lists, which
   kinds are in use, placement, precision, the loop, window buffers,
   iteration counts, each rank's kind and the kinds as given, the pairs'
   files; the parsing itself is options_parse.c's. */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int umb_buffer_kind_parse(const char *s, umb_kind *k, int *was_m)
{
    if (was_m) *was_m = 0;
    if (umb_kind_parse(s, UMB_KINDS_MPI | UMB_KIND_BIT(UMB_M), k)) return -1;
    if (*k == UMB_M) {  /* OMB's M: managed, on the host */
        *k = UMB_MH;
        if (was_m) *was_m = 1;
    }
    return 0;
}

int umb_list_kind(const char *list, int i, umb_kind *k)
{
    const char *p = list;
    for (; i > 0 && p; i--) p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    if (!p || !*p) return -1;
    char tok[24];
    size_t len = strcspn(p, ",");
    if (len >= sizeof tok) return -1;
    memcpy(tok, p, len);
    tok[len] = '\0';
    return umb_buffer_kind_parse(tok, k, NULL);
}

int umb_list_length(const char *list)
{
    int n = 1;
    for (const char *p = list; *p; p++) n += *p == ',';
    return n;
}

int umb_options_uses(const umb_options *o, int (*pred)(umb_kind))
{
    for (int k = 0; k < UMB_NKINDS; k++)
        if ((o->used_kinds & 1u << k) && pred((umb_kind)k)) return 1;
    return 0;
}

int umb_options_place_each(const umb_options *o)
{
    return o->place_when == UMB_PLACE_EACH && umb_options_uses(o, umb_kind_is_managed);
}

double umb_options_precision(const umb_options *o)
{
    if (o->precision_given) return o->precision;
    return umb_options_place_each(o) && !o->iters_given ? UMB_DEFAULT_MANAGED_PRECISION : 0;
}

/* --launch-budget shares the launch's time out over its precision loops
   (umb-run --within gives it; docs/method.md, "The set's time shared
   out"): a pair without --precision P% has no loop to share (OMB's fixed
   counts, or the managed default's, which -i turns off), and -i or -x fix
   counts that take what they take (-i 3000000 took 274 s of a 10 s
   --within; adversarial pass 10). */
int umb_options_check_shared(const umb_options *o, char *err, size_t n)
{
    if (!(o->launch_budget > 0) || (o->precision_given > 0 && !o->iters_given && !o->skip_given)) return 0;
    if (o->iters_given || o->skip_given)
        return umb_errf(err, n, "--launch-budget %g shares the launch's time out over its precision loops (umb-run "
                        "--within gives it); %s fixes a count that takes what it takes: give one or the other",
                        o->launch_budget, o->iters_given ? "-i" : "-x");
    return umb_errf(err, n, "--launch-budget %g shares the launch's time out over its precision loops (umb-run "
                    "--within gives it): it needs --precision P%% (without it, or with off, OMB's fixed counts take "
                    "what they take)", o->launch_budget);
}

int umb_options_checks_placement(const umb_options *o)
{
    return umb_options_uses(o, umb_kind_is_managed) && o->place_check != UMB_CHECK_OFF;
}

int umb_options_handshake(const umb_options *o)
{
    if (o->loop != UMB_LOOP_AUTO) return o->loop == UMB_LOOP_HANDSHAKE;
    return umb_options_place_each(o) || o->validate;
}

int umb_window_buffers(const umb_options *o)
{
    if (o->window <= 0) return 1;
    if (o->validate) return o->window;
    if (umb_options_uses(o, umb_kind_is_managed)) return o->window;
    return 1;
}

size_t umb_largest_size(const umb_cli *cli)
{
    return (size_t)INT_MAX * (cli->min_size > 1 ? cli->min_size : 1);
}

void umb_iterations(const umb_options *o, const umb_cli *cli, size_t size, long *iters, long *skip)
{
    int large = size > cli->large_size;
    *iters = large ? o->iters_large : o->iters;
    *skip = large ? o->skip_large : o->skip;
    /* With a precision, a first attempt; the precision observer asks for more. */
    if (umb_options_precision(o) && !o->iters_given && *iters > UMB_PRECISION_FIRST_ITERS) *iters = UMB_PRECISION_FIRST_ITERS;
}

umb_kind umb_kind_of_rank(const umb_options *o, int rank, int nranks, int collective)
{
    umb_kind k;
    if (collective) {
        if (o->buffer_list) return umb_list_kind(o->buffer_list, rank, &k) == 0 ? k : UMB_H;
        return !o->root_rotate && rank == o->root ? o->root_kind : o->other_kind;
    }
    if (o->nkinds < 2) return o->nkinds ? o->kinds[0] : UMB_H;
    return rank < nranks / 2 ? o->kinds[0] : o->kinds[1];
}

void umb_describe_buffers(const umb_options *o, int collective, char *buf, size_t n)
{
    if (!collective)
        snprintf(buf, n, "%s%s%s", umb_kind_name(o->kinds[0]), o->nkinds > 1 ? " " : "",
                 o->nkinds > 1 ? umb_kind_name(o->kinds[1]) : "");
    else if (o->buffer_list)
        snprintf(buf, n, "%s", o->buffer_list);
    else if (o->root_kind == o->other_kind)
        snprintf(buf, n, "all %s", umb_kind_name(o->other_kind));
    else
        snprintf(buf, n, "root %s, others %s", umb_kind_name(o->root_kind), umb_kind_name(o->other_kind));
}

void umb_options_select_pair(umb_options *o, int k)
{
    if (o->nkinds != 2 || k < 0 || k >= o->npairs) return;
    o->pair = k;
    o->kinds[0] = o->pairs[k][0];
    o->kinds[1] = o->pairs[k][1];
    o->used_kinds = 1u << o->kinds[0] | 1u << o->kinds[1];
}

int umb_pair_file_name(const umb_options *o, int k, char *buf, size_t n)
{
    return snprintf(buf, n, "%s%d-%s-%s", o->pair_files, k + 1, umb_kind_name(o->pairs[k][0]),
                    umb_kind_name(o->pairs[k][1]));
}

/* Checked before MPI_Init on every rank, so that --check-options refuses it
   too; rank 0 makes the files (pairs.c), where one that still cannot be
   made ends the launch. */
int umb_pair_files_check(const umb_options *o, const umb_cli *cli, char *err, size_t n)
{
    char path[PATH_MAX];
    if (!o->pair_files) return 0;
    if (cli->nbuffers != 2)
        return umb_errf(err, n, "--pair-files %s: %s takes no buffer pairs; its output is standard output's",
                        o->pair_files, cli->program);
    if (!*o->pair_files)
        return umb_errf(err, n, "--pair-files '': expected a path prefix (pair 1's output goes to PREFIX1-SRC-DST)");
    for (int k = 0; k < o->npairs; k++)
        if (umb_pair_file_name(o, k, path, sizeof path) >= (int)sizeof path)
            return umb_errf(err, n, "--pair-files %s: pair %d's file name would pass %d characters, a path's most",
                            o->pair_files, k + 1, PATH_MAX - 1);
    /* The folder: the prefix up to its last slash (the files' own names follow it), else the current one. */
    const char *slash = strrchr(o->pair_files, '/');
    int len = slash ? (int)(slash - o->pair_files) + 1 : 1;
    snprintf(path, sizeof path, "%.*s", len, slash ? o->pair_files : ".");
    if (access(path, W_OK | X_OK) != 0)
        return umb_errf(err, n, "--pair-files %s: cannot make files in %s (%s); give a prefix in a folder you can "
                        "write, e.g. results/lat-", o->pair_files, path, strerror(errno));
    return 0;
}
