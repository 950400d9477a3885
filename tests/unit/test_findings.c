/* The findings (util/core/findings.c) on recorded rows: each rule fires on
   a case that has it and stays silent on one that does not. The cases are
   the two-GPU measurements of 2026-11-23 (issue: "Why, on every row"). */
#include "check.h"
#include "findings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static umb_rank_facts ranks[2];

static void two_ranks(const char *bus1, int managed, int bound)
{
    memset(ranks, 0, sizeof ranks);
    for (int r = 0; r < 2; r++) {
        snprintf(ranks[r].host, sizeof ranks[r].host, "n1");
        snprintf(ranks[r].gpu_bus, sizeof ranks[r].gpu_bus, "%s", r ? bus1 : "0000:19:00.0");
        snprintf(ranks[r].cpus, sizeof ranks[r].cpus, "%d", r);
        snprintf(ranks[r].cpu_numa, sizeof ranks[r].cpu_numa, "0");
        snprintf(ranks[r].pcie, sizeof ranks[r].pcie, "Gen5 x16 (max Gen5 x16)");
        ranks[r].gpu = r;
        ranks[r].gpu_numa = 0;
        ranks[r].all_cpus = !bound;
        ranks[r].managed = ranks[r].managed_on_gpu = managed;  /* MD */
        ranks[r].device = !managed;
    }
}

static umb_run_facts run_of(int bandwidth)
{
    umb_run_facts run = {.nranks = 2, .ranks = ranks, .lower_is_better = !bandwidth, .bandwidth = bandwidth,
                         .ucx = 1, .thrash_nap_us = 1000, .thrash_enabled = 1};
    return run;
}

static umb_row_facts row(size_t size, double typical, double best, umb_path_class path)
{
    umb_row_facts f;
    umb_row_facts_unknown(&f);
    f.size = size;
    f.typical = typical;
    f.typical_lo = typical * 0.99;  /* a tight interval, as 100 steady iterations give */
    f.typical_hi = typical * 1.01;
    f.quartile_lo = typical * 0.97;  /* and their middle half */
    f.quartile_hi = typical * 1.03;
    f.best = best;
    f.iters = 100;
    f.path = path;
    return f;
}

static const umb_finding *find(const umb_finding *f, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(f[i].id, id)) return &f[i];
    return NULL;
}

/* D D latency through UCX on two NVLinked H200s: 1 B-2 KiB staged through
   host memory at 15-17 us, 4 KiB and up read from the peer GPU at 8 us. The
   finding names the step, 2048 to 4096. */
static void inversion(void)
{
    umb_row_facts rows[16];
    int n = 0;
    for (size_t s = 1; s <= 2048; s *= 2, n++) rows[n] = row(s, 15.3 + (double)(n % 3), 15.0, UMB_PATH_STAGED);
    rows[n++] = row(4096, 8.2, 7.9, UMB_PATH_DIRECT);
    rows[n++] = row(8192, 8.6, 8.3, UMB_PATH_DIRECT);
    rows[n++] = row(65536, 11.0, 10.5, UMB_PATH_DIRECT);
    two_ranks("0000:2a:00.0", 0, 1);
    umb_run_facts run = run_of(0);
    umb_finding f[16];
    int k = umb_findings(&run, rows, n, f, 16);
    const umb_finding *inv = find(f, k, "inversion");
    CHECK(inv != NULL);
    if (inv) {
        CHECK(strcmp(inv->rows, "2048,4096") == 0);
        CHECK(inv->confidence == UMB_REPEATS);
        CHECK_CONTAINS(inv->what, "a step down from size 2048 to the larger 4096");
        CHECK_CONTAINS(inv->what, "stands clear of what moves a median between runs");
        CHECK_CONTAINS(inv->advice, "staged");
        CHECK_CONTAINS(inv->advice, "UCX_RNDV_THRESH");
    }
    CHECK(k == 1);  /* bound ranks, distinct GPUs, no managed buffers: nothing else */

    /* The H100's D D step (issue "Judgments that repeat"): 8 KiB staged at a
       P50 of 32.2 us, 16 KiB direct at 17.6, 10,000 iterations each; one
       iteration of 8 KiB at 20.5 us does not silence it, and the same step
       is named whatever the smaller sizes do. */
    n = 0;
    rows[n++] = row(4096, 30.1, 21.0, UMB_PATH_STAGED);
    rows[n++] = row(8192, 32.2, 20.5, UMB_PATH_STAGED);
    rows[n++] = row(16384, 17.6, 16.0, UMB_PATH_DIRECT);
    rows[n++] = row(32768, 18.4, 17.1, UMB_PATH_DIRECT);
    rows[0].typical_lo = 16.0;  /* a noisy 4 KiB: its interval reaches the larger sizes' */
    k = umb_findings(&run, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && strcmp(inv->rows, "8192,16384") == 0 && inv->confidence == UMB_REPEATS);

    /* Silent: latency that grows with size; a step within the margin; and
       a step whose intervals overlap, however low one iteration went. */
    n = 0;
    for (size_t s = 1; s <= 65536; s *= 4) rows[n++] = row(s, 1.0 + (double)s / 1e4, 0.95 + (double)s / 1e4, UMB_PATH_DIRECT);
    rows[1].typical = rows[2].typical * 1.1;  /* 10% above the next size's median */
    rows[1].typical_lo = rows[1].typical * 0.99, rows[1].typical_hi = rows[1].typical * 1.01;
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") == NULL);
    n = 0;
    rows[n++] = row(8192, 30, 29, UMB_PATH_STAGED);
    rows[n++] = row(16384, 17, 16, UMB_PATH_DIRECT);
    rows[0].typical_lo = 16.5;  /* wide: 16.5-30.3 against 16.8-17.2, the intervals overlap */
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") == NULL);
    rows[0].typical_lo = 29.7;
    rows[0].best = 1;  /* one iteration far below the larger size's median changes nothing */
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") != NULL);
    /* Silent: fewer than 10 iterations in a row say nothing. */
    n = 0;
    rows[n++] = row(8, 20, 19, UMB_PATH_STAGED);
    rows[n++] = row(16, 8, 7, UMB_PATH_STAGED);
    rows[0].iters = 5;
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") == NULL);
    /* Nor do rows without an interval. */
    rows[0].iters = 100;
    rows[0].typical_lo = rows[0].typical_hi = NAN;
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") == NULL);
    /* Without --path the advice asks for it. */
    rows[0] = row(8, 20, 19, UMB_PATH_UNKNOWN);
    rows[1].path = UMB_PATH_UNKNOWN;
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") && strstr(find(f, k, "inversion")->advice, "--path"));
    /* Bandwidth rows compare time per message: 1 MiB at 100 MB/s takes longer than 4 MiB at 40000. */
    umb_run_facts bw = run_of(1);
    n = 0;
    rows[n++] = row(1 << 20, 100, 110, UMB_PATH_STAGED);
    rows[n++] = row(4 << 20, 40000, 41000, UMB_PATH_DIRECT);
    k = umb_findings(&bw, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && strcmp(inv->rows, "1048576,4194304") == 0 && inv->confidence == UMB_REPEATS);
    CHECK_CONTAINS(inv->what, "us per message");
}

/* A single run says how sure it is (issue 44): a step that stands clear of
   both rows' middle halves repeats; one this run shows only at the medians
   is "seen once", with the ratios another run may show. */
static void inversion_confidence(void)
{
    umb_row_facts rows[8];
    umb_finding f[16];
    two_ranks("0000:2a:00.0", 1, 1);
    umb_run_facts run = run_of(0);
    /* Shaped like umb_latency MD MD through ob1 on an H100 (the issue: 32 KiB
       slower than 64 KiB in 5 of 5 runs, 1.05-1.74x), its best run: 1000
       iterations pin each median within 2%, but the iterations are a mix of
       placements held and not, their middle halves wide (0.8-1.35x the
       median here: a shape assumed, no recorded run keeps its quartiles). */
    int n = 0;
    rows[n++] = row(16384, 120.0, 60.0, UMB_PATH_MIGRATED);
    rows[n++] = row(32768, 152.4, 62.0, UMB_PATH_MIGRATED);
    rows[n++] = row(65536, 87.6, 67.5, UMB_PATH_MIGRATED);
    rows[n++] = row(131072, 141.0, 109.0, UMB_PATH_MIGRATED);
    for (int i = 0; i < n; i++) rows[i].quartile_lo = 0.80 * rows[i].typical, rows[i].quartile_hi = 1.35 * rows[i].typical;
    int k = umb_findings(&run, rows, n, f, 16);
    const umb_finding *inv = find(f, k, "inversion");
    CHECK(inv && !strcmp(inv->rows, "32768,65536") && inv->confidence == UMB_SEEN_ONCE);
    if (inv) {
        CHECK_CONTAINS(inv->what, "in this run, a step down from size 32768 to the larger 65536");
        CHECK_CONTAINS(inv->what, "median 152.40 against 87.60 us, 1.74x (95% interval 1.71-1.77x");
        CHECK_CONTAINS(inv->what, "121.92-205.74 and 70.08-118.26, allow 1.03-2.94x");
        CHECK_CONTAINS(inv->what, "one run cannot say the step repeats");
    }
    /* The same step with steady iterations repeats. */
    rows[1].quartile_lo = 0.97 * 152.4, rows[1].quartile_hi = 1.03 * 152.4;
    rows[2].quartile_lo = 0.97 * 87.6, rows[2].quartile_hi = 1.03 * 87.6;
    k = umb_findings(&run, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && inv->confidence == UMB_REPEATS);
}

/* Seen once, nothing, and which step is named. */
static void inversion_levels(void)
{
    umb_row_facts rows[8];
    umb_finding f[16];
    two_ranks("0000:2a:00.0", 1, 1);
    umb_run_facts run = run_of(0);
    /* The point passes, the interval does not clear 20%: seen once. */
    int n = 0, k;
    const umb_finding *inv;
    rows[n++] = row(8192, 30, 29, UMB_PATH_STAGED);
    rows[n++] = row(16384, 17, 16, UMB_PATH_DIRECT);
    rows[0].typical_lo = 19;  /* 19-30.3 against 16.8-17.2 */
    k = umb_findings(&run, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && inv->confidence == UMB_SEEN_ONCE && !strcmp(inv->rows, "8192,16384"));
    /* No step worth naming: 1.05x, however tight (the weakest run). */
    rows[0] = row(8192, 17 * 1.05, 17, UMB_PATH_STAGED);
    k = umb_findings(&run, rows, n, f, 16);
    CHECK(find(f, k, "inversion") == NULL);
    /* Without quartiles a step cannot be shown to repeat, and says why. */
    rows[0] = row(8192, 30, 29, UMB_PATH_STAGED);
    rows[0].quartile_lo = rows[0].quartile_hi = NAN;
    k = umb_findings(&run, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && inv->confidence == UMB_SEEN_ONCE && strstr(inv->what, "spread of their iterations is not known"));
    /* One inversion per run: the first step that repeats comes before an
       earlier one seen once. */
    n = 0;
    rows[n++] = row(8, 30, 20, UMB_PATH_STAGED);
    rows[n++] = row(16, 20, 19, UMB_PATH_STAGED);
    rows[n++] = row(32, 21, 20, UMB_PATH_STAGED);
    rows[n++] = row(64, 10, 9, UMB_PATH_DIRECT);
    rows[0].quartile_lo = 18;  /* 8 B: its iterations reach the next size's */
    k = umb_findings(&run, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && !strcmp(inv->rows, "32,64") && inv->confidence == UMB_REPEATS);
    CHECK(k == 1 + 1);  /* and staged-managed, a fact of the MD ranks */
    CHECK(find(f, k, "staged-managed") && find(f, k, "staged-managed")->confidence == UMB_FACT);
    rows[3] = row(64, 20.5, 19, UMB_PATH_STAGED);  /* no later step: the one seen once is named */
    k = umb_findings(&run, rows, n, f, 16);
    inv = find(f, k, "inversion");
    CHECK(inv && !strcmp(inv->rows, "8,16") && inv->confidence == UMB_SEEN_ONCE);
    CHECK(!strcmp(umb_confidence_name(UMB_SEEN_ONCE), "seen once") && !strcmp(umb_confidence_name(UMB_FACT), "fact"));
}

/* MD MD bandwidth at 4 MiB: 37.9 GB/s through host bounce buffers (DtoH +
   HtoD per message), against a 63 GB/s host link. */
static void staged_managed(void)
{
    umb_row_facts rows[2];
    rows[0] = row(4 << 20, 37900, 38500, UMB_PATH_STAGED);
    rows[0].copy = (umb_copy_bytes){.htod = 268435456, .dtoh = 268435456, .copies = 2048, .migrated = NAN};
    rows[0].payload = 268435456;
    rows[0].bound_gbs = 63.0;
    rows[0].share = 37900 / 63000.0;
    two_ranks("0000:2a:00.0", 1, 1);
    umb_run_facts run = run_of(1);
    umb_finding f[16];
    int k = umb_findings(&run, rows, 1, f, 16);
    const umb_finding *s = find(f, k, "staged-managed");
    CHECK(s != NULL);
    if (s) {
        CHECK_CONTAINS(s->what, "2.0 bytes copied per byte sent");
        CHECK_CONTAINS(s->what, "at 4194304 bytes, 60% of the host link (63.0 GB/s)");
        CHECK_CONTAINS(s->advice, "cuda");
    }
    /* MH MH staged is the host's own path: said only below half of the bound. */
    ranks[0].managed_on_gpu = ranks[1].managed_on_gpu = 0;
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(find(f, k, "staged-managed") == NULL);  /* 60% of the host link */
    rows[0].share = 0.3;
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(find(f, k, "staged-managed") != NULL);  /* 30% */
    umb_run_facts lat = run_of(0);
    k = umb_findings(&lat, rows, 1, f, 16);
    CHECK(find(f, k, "staged-managed") == NULL);  /* a latency row has no share */
    rows[0].share = 37900 / 63000.0;
    ranks[0].managed_on_gpu = ranks[1].managed_on_gpu = 1;
    /* Silent: the same ranks with D buffers, and managed rows that went direct. */
    two_ranks("0000:2a:00.0", 0, 1);
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(find(f, k, "staged-managed") == NULL);
    two_ranks("0000:2a:00.0", 1, 1);
    rows[0].path = UMB_PATH_DIRECT;
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(find(f, k, "staged-managed") == NULL);
}

static void placement(void)
{
    umb_row_facts rows[2];
    rows[0] = row(8, 20, 19, UMB_PATH_UNKNOWN);
    rows[1] = row(16, 21, 20, UMB_PATH_UNKNOWN);
    rows[0].placed_pct = 100, rows[0].replaced = 0, rows[0].place_p50_us = 40;
    rows[1].placed_pct = 16, rows[1].replaced = 0.84, rows[1].place_p50_us = 900;
    two_ranks("0000:2a:00.0", 1, 1);
    umb_run_facts run = run_of(0);
    umb_finding f[16];
    int k = umb_findings(&run, rows, 2, f, 16);
    const umb_finding *r = find(f, k, "re-placed"), *t = find(f, k, "throttled");
    CHECK(r && !strcmp(r->rows, "16") && strstr(r->what, "84%"));
    CHECK(t && !strcmp(t->rows, "16") && strstr(t->advice, "prefetch"));
    CHECK(r && r->confidence == UMB_FACT && t && t->confidence == UMB_REPEATS);
    /* Placing at 550 us against a 1000 us nap: over half of it, not by 20%. */
    rows[1].place_p50_us = 550;
    k = umb_findings(&run, rows, 2, f, 16);
    t = find(f, k, "throttled");
    CHECK(t && t->confidence == UMB_SEEN_ONCE && strstr(t->what, "one run cannot say it repeats"));
    rows[1].place_p50_us = 900;
    /* Silent: placement that held, fast; and no throttle known. */
    rows[1] = rows[0];
    rows[1].size = 16;
    k = umb_findings(&run, rows, 2, f, 16);
    CHECK(!find(f, k, "re-placed") && !find(f, k, "throttled"));
    run.thrash_nap_us = NAN;
    rows[1].place_p50_us = 5000;
    k = umb_findings(&run, rows, 2, f, 16);
    CHECK(!find(f, k, "throttled"));
}

static void ranks_and_binding(void)
{
    umb_row_facts rows[1] = {row(8, 1, 1, UMB_PATH_UNKNOWN)};
    umb_finding f[16];
    two_ranks("0000:19:00.0", 0, 1);  /* both ranks on GPU 0000:19:00.0 */
    umb_run_facts run = run_of(0);
    int k = umb_findings(&run, rows, 1, f, 16);
    const umb_finding *s = find(f, k, "shared-gpu");
    CHECK(s && !strcmp(s->rows, "ranks 0,1") && strstr(s->advice, "MPS"));
    CHECK(!find(f, k, "unbound") && !find(f, k, "numa-far"));
    /* Silent: the same bus on two hosts is two GPUs. */
    snprintf(ranks[1].host, sizeof ranks[1].host, "n2");
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(!find(f, k, "shared-gpu"));
    /* Unbound ranks, and a rank on the other socket from its GPU. */
    two_ranks("0000:2a:00.0", 0, 0);
    snprintf(ranks[1].cpu_numa, sizeof ranks[1].cpu_numa, "1");
    k = umb_findings(&run, rows, 1, f, 16);
    const umb_finding *u = find(f, k, "unbound"), *nf = find(f, k, "numa-far");
    CHECK(u && !strcmp(u->rows, "ranks 0,1") && strstr(u->advice, "--bind-to core"));
    CHECK(nf && !strcmp(nf->rows, "ranks 1") && strstr(nf->what, "rank 1 on NUMA 1, its GPU on 0"));
    /* Silent: CPUs on both nodes include the GPU's; an unknown NUMA says nothing. */
    snprintf(ranks[1].cpu_numa, sizeof ranks[1].cpu_numa, "0-1");
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(!find(f, k, "numa-far"));
    snprintf(ranks[1].cpu_numa, sizeof ranks[1].cpu_numa, "unknown");
    k = umb_findings(&run, rows, 1, f, 16);
    CHECK(!find(f, k, "numa-far"));
}

static void classify(void)
{
    umb_copy_bytes staged = {.htod = 4096, .dtoh = 4096, .copies = 4, .migrated = NAN};
    umb_copy_bytes direct = {.dtod = 8 << 20, .htod = 64, .copies = 3, .migrated = NAN};
    umb_copy_bytes control = {.htod = 8, .copies = 1, .migrated = NAN};
    umb_copy_bytes none = {.copies = 0, .migrated = 0};
    umb_copy_bytes mixed = {.htod = 100, .dtod = 100, .copies = 2, .migrated = NAN};
    umb_copy_bytes unknown = {.copies = NAN};
    umb_copy_bytes faulted = {.copies = 0, .migrated = 16384};  /* MD MD, 8 B, through a library that is not CUDA-aware */
    umb_copy_bytes uncounted = {.copies = 0, .migrated = NAN};
    CHECK(umb_path_classify(&staged, 4096) == UMB_PATH_STAGED);
    CHECK(umb_path_classify(&direct, 8 << 20) == UMB_PATH_DIRECT);
    CHECK(umb_path_classify(&control, 1 << 20) == UMB_PATH_NONE);  /* 8 B of control data for 1 MiB sent */
    CHECK(umb_path_classify(&control, NAN) == UMB_PATH_STAGED);   /* payload unknown: the copies as they are */
    CHECK(umb_path_classify(&none, 64) == UMB_PATH_NONE);
    CHECK(umb_path_classify(&mixed, 200) == UMB_PATH_MIXED);
    CHECK(umb_path_classify(&unknown, 64) == UMB_PATH_UNKNOWN);
    CHECK(umb_path_classify(&faulted, 16) == UMB_PATH_MIGRATED);
    CHECK(umb_path_classify(&uncounted, 16) == UMB_PATH_NONE);
    CHECK(!strcmp(umb_path_name(UMB_PATH_MIGRATED), "migrated"));
    CHECK(!strcmp(umb_path_name(UMB_PATH_STAGED), "staged"));
    char r[32];
    umb_size_range(8, 2048, r, sizeof r);
    CHECK(!strcmp(r, "8-2048"));
    umb_size_range(64, 64, r, sizeof r);
    CHECK(!strcmp(r, "64"));
}

int main(void)
{
    inversion();
    inversion_confidence();
    inversion_levels();
    staged_managed();
    placement();
    ranks_and_binding();
    classify();
    return check_done("test_findings");
}
