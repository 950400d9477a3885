/* The single-node drivers' sizes (util/drive/drive.h): a list or the quick
   set (--size), a range (--start/--end with --step or --grow), or -m
   MIN:MAX as the MPI programs take it (util/core/parse.h: one parser of -m,
   one rule of the sizes between). */
#include "drive_sizes.h"
#include "parse.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 with the line in err where s is above the most a driver takes. */
static int too_large(const umb_drive *d, size_t s, char *err, size_t n)
{
    if (s <= UMB_DRIVE_MAX_SIZE) return 0;
    return umb_errf(err, n, "size %zu bytes (%s): above the most a driver takes; accepted: 1 to %zu bytes (1 PiB)", s,
                    d->sizes_given, UMB_DRIVE_MAX_SIZE);
}

static int add_size(umb_drive *d, size_t s, char *err, size_t n)
{
    if (too_large(d, s, err, n)) return 1;
    d->sizes[d->nsizes++] = s;
    return 0;
}

int umb_drive_size_list(umb_drive *d, const char *list, const char *quick, char *err, size_t n)
{
    char copy[1024], *items[256];
    int count;
    if (!strcmp(list, "quick")) list = quick;
    if (strlen(list) >= sizeof copy) return umb_errf(err, n, "--size: list too long");
    d->nsizes = 0;
    int how = umb_list_items(list, copy, sizeof copy, items, 256, &count);
    if (how == -2) return umb_errf(err, n, "--size %s: more than 256 sizes", list);
    if (how) goto bad;
    for (int i = 0; i < count; i++) {
        size_t s;
        if (umb_parse_bytes(items[i], &s)) goto bad;
        if (s == 0) return umb_errf(err, n, "--size %s: sizes must be at least 1 byte", list);
        /* A size twice is two rows of one size, which every reader refuses. */
        for (int k = 0; k < i; k++)
            if (d->sizes[k] == s)
                return umb_errf(err, n, "--size %s: %s and %s are the same size (%zu bytes); give each size once",
                                list, items[k], items[i], s);
        if (add_size(d, s, err, n)) return 1;
    }
    return 0;
bad:
    return umb_errf(err, n, "--size %s: expected quick or bytes from 1 to %zu, comma-separated (K, M, G suffixes), e.g. --size 4K,1M,1G",
                    list, UMB_DRIVE_MAX_SIZE);
}

int umb_drive_size_range(umb_drive *d, size_t start, size_t end, size_t step, double factor,
                         char *err, size_t n)
{
    d->nsizes = 0;
    if (start == 0) return umb_errf(err, n, "--start 0: sizes must be at least 1 byte");
    if (end < start) return umb_errf(err, n, "--end %zu is smaller than --start %zu", end, start);
    if (too_large(d, end, err, n)) return 1;  /* before the sizes below it are listed */
    for (size_t s = start;; s = umb_size_after(s, end, step, factor)) {  /* ends with end, always */
        /* Only a range reaches the limit: a list holds 256 sizes, -m's powers of two 51. */
        if (d->nsizes >= UMB_DRIVE_MAX_SIZES) {
            char by[64];
            if (step) snprintf(by, sizeof by, "--step %zu", step);
            else snprintf(by, sizeof by, "--grow %g", factor);
            return umb_errf(err, n, "--start %zu --end %zu %s: more than %d sizes; accepted: at most %d sizes a run "
                            "(a larger --step or --grow, or a narrower range)", start, end, by, UMB_DRIVE_MAX_SIZES,
                            UMB_DRIVE_MAX_SIZES);
        }
        if (add_size(d, s, err, n)) return 1;
        if (s == end) return 0;
    }
}

/* -m MAX, MIN:MAX or MIN: from MIN (default 1 byte) to MAX (default the
   largest quick size), the powers of two between: what --start MIN --end
   MAX measures. */
static int size_m(umb_drive *d, const char *quick, const char *m, char *err, size_t n)
{
    size_t lo = 1, hi = 0;
    if (umb_drive_size_list(d, "quick", quick, err, n)) return 1;
    for (int i = 0; i < d->nsizes; i++)
        if (d->sizes[i] > hi) hi = d->sizes[i];
    if (umb_parse_size_range(m, 1, UMB_DRIVE_MAX_SIZE, "4K:1G", &lo, &hi, err, n)) return 1;  /* 1 or 2: the line says it */
    snprintf(d->sizes_given, sizeof d->sizes_given, "-m %.60s (%zu to %zu, the powers of two between)", m, lo, hi);
    return umb_drive_size_range(d, lo, hi, 0, 2, err, n);
}

int umb_drive_sizes(umb_drive *d, const char *quick, const umb_drive_size_args *a, char *err, size_t n)
{
    int range = a->start || a->end || a->step || a->grow;
    if (a->m && (a->size || range)) return umb_errf(err, n, "-m %s: give one of -m, --size or --start/--end", a->m);
    if (a->m) return size_m(d, quick, a->m, err, n);
    if (a->size && range) return umb_errf(err, n, "--size %s: give either --size or --start/--end, not both", a->size);
    if (range) {
        size_t start = 0, end = 0, step = 0;
        double factor = 2;
        if (!a->start || !a->end) return umb_errf(err, n, "a size range needs both --start and --end (with --step or --grow)");
        if (a->step && a->grow) return umb_errf(err, n, "--step %s --grow %s: give one of them", a->step, a->grow);
        if (umb_parse_bytes(a->start, &start)) return umb_errf(err, n, "--start %s: expected bytes from 1 to %zu (K, M, G suffixes)", a->start, UMB_DRIVE_MAX_SIZE);
        if (umb_parse_bytes(a->end, &end)) return umb_errf(err, n, "--end %s: expected bytes from 1 to %zu (K, M, G suffixes)", a->end, UMB_DRIVE_MAX_SIZE);
        if (a->step && (umb_parse_bytes(a->step, &step) || step == 0))
            return umb_errf(err, n, "--step %s: expected bytes from 1 to %zu (K, M, G suffixes)", a->step, (size_t)SIZE_MAX);
        if (a->grow) {
            if (umb_parse_decimal(a->grow, 1, &factor) || !(factor > 1) || factor > 1e6)
                return umb_errf(err, n, "--grow %s: expected a number above 1 and at most 1000000, e.g. 2", a->grow);
        }
        snprintf(d->sizes_given, sizeof d->sizes_given, "%s to %s, %s %s", a->start, a->end,
                 a->step ? "step" : "grow", a->step ? a->step : a->grow ? a->grow : "2");
        return umb_drive_size_range(d, start, end, step, factor, err, n);
    }
    const char *size = a->size ? a->size : "quick";
    snprintf(d->sizes_given, sizeof d->sizes_given, "%s", size);
    if (!strcmp(size, "quick")) snprintf(d->sizes_given, sizeof d->sizes_given, "quick (%.140s)", quick);
    return umb_drive_size_list(d, size, quick, err, n);
}

