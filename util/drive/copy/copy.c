/* The copy family (copy.h): the command line it adds to the drivers'
   harness, the run over combinations, GPUs and sizes, and the output; the
   common command line, sizes, NUMA and the header are util/drive/drive.c's,
   the buffers util/gpu/buffer.c's. */
#include "copy.h"
#include "copy_combos.h"
#include "copy_measure.h"
#include "counters.h"
#include "drive.h"
#include "error.h"
#include "gpu.h"
#include "output.h"
#include "placement.h"
#include "residency.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the command line ------------------------------------------------- */

enum { OPT_MEMORY = 1000, OPT_DIRECTION, OPT_METHOD, OPT_COPIES };

/* The option lists in the order of copy_parse's lists, then --copies. */
static int own_parse(void *ctx, int val, const char *name, const char *arg, char *err, size_t n)
{
    copy_run *r = ctx;
    if (val < OPT_MEMORY || val > OPT_COPIES) return 1;
    return copy_parse(&r->opt, val - OPT_MEMORY, name, arg, err, n);
}

static int own_check(void *ctx, char *err, size_t n)
{
    copy_run *r = ctx;
    return copy_choose(&r->opt, 1, r->combos, COPY_MAX_COMBOS, &r->ncombos, err, n);
}

static const struct option own_options[] = {
    {"memory", required_argument, 0, OPT_MEMORY},
    {"kinds", required_argument, 0, OPT_MEMORY},
    {"direction", required_argument, 0, OPT_DIRECTION},
    {"method", required_argument, 0, OPT_METHOD},
    {"copies", required_argument, 0, OPT_COPIES},
    {0, 0, 0, 0}};

static const umb_drive_cli cli_template = {
    .own = own_options,
    .own_parse = own_parse,
    .own_check = own_check,
    .own_usage =
        "What to measure (comma-separated lists, or all; default: the matrix below):\n"
        "      --memory LIST             pageable (malloc), pinned (cudaMallocHost), wc (write-combined\n"
        "                                pinned), registered (cudaHostRegister), managed-host, managed-device\n"
        "                                (cudaMallocManaged, placed there before every repetition), device;\n"
        "                                or by their short names H, P, WC, REG, MH, MD, D\n"
        "      --direction LIST          htod, dtoh, dtod, bidir (htod and dtoh at once, two streams),\n"
        "                                peer (GPU to GPU, peer access on and off)\n"
        "      --method LIST             ce (cudaMemcpyAsync, copy engine), sm (copy kernel),\n"
        "                                prefetch (cudaMemPrefetchAsync), demand (page faults)\n"
        "      --copies N                copies per timed batch (default: 256 MiB worth, 2..64; managed 1)\n"
        "  Combinations that make no sense are skipped; a value given that fits none is refused.\n"
        "  Default: pageable, pinned, wc, registered, managed-host x htod, dtoh with ce; managed\n"
        "  prefetch and demand both ways; pinned bidir; device dtod; peer where there are 2+ GPUs.\n",
};

/* ---- output ----------------------------------------------------------- */

/* What names a row: memory, direction, method (peer: -p2p, -nop2p), GPU. */
typedef struct {
    const char *memory, *dir, *meth, *gpu;
} row_names;

static int row_cols(const copy_run *r, umb_col *cols, const row_names *rn, const umb_stats *s, double limit,
                    double cpu, const copy_result *res)
{
    char t[32], k[32];
    const char *u = umb_drive_unit(&r->drv), *ku = r->drv.gib ? "gibs" : "gbs";
    int n = 0;
    umb_text_col(&cols[n++], "        Memory", "memory", rn->memory);  /* as wide as managed-device */
    umb_text_col(&cols[n++], "Direction", "direction", rn->dir);
    umb_text_col(&cols[n++], "Method", "method", rn->meth);
    umb_text_col(&cols[n++], "GPU", "gpu", rn->gpu);
    snprintf(t, sizeof t, "Median %s", u);
    snprintf(k, sizeof k, "median_%s", ku);
    umb_num_col(&cols[n++], t, k, s->p50, 2);
    snprintf(t, sizeof t, "Min %s", u);
    snprintf(k, sizeof k, "min_%s", ku);
    umb_num_col(&cols[n++], t, k, s->min, 2);
    snprintf(t, sizeof t, "Max %s", u);
    snprintf(k, sizeof k, "max_%s", ku);
    umb_num_col(&cols[n++], t, k, s->max, 2);
    umb_num_col(&cols[n++], "CV %", "cv_pct", s->avg > 0 ? 100 * s->stddev / s->avg : NAN, 2);
    umb_num_col(&cols[n++], "% of link", "link_pct", limit > 0 ? 100 * s->p50 / limit : NAN, 1);
    if (r->drv.cputiming) {
        snprintf(t, sizeof t, "CPU %s", u);
        snprintf(k, sizeof k, "cpu_median_%s", ku);
        umb_num_col(&cols[n++], t, k, cpu, 2);
    }
    umb_num_col(&cols[n++], "Copies", "copies", (double)res->copies, 0);
    umb_num_col(&cols[n++], "Repetitions", "repetitions", (double)s->n, 0);
    /* Managed memory: how often the prefetch before a repetition held (pagemap). */
    umb_num_col(&cols[n++], "Placed %", "placed_pct",
            res->movable && res->reps && res->checked == res->reps ? 100.0 * (double)res->held / (double)res->reps : NAN, 1);
    if (r->drv.counters) n += umb_drive_counter_cols(&res->moved, &res->placed, s->n, cols + n);
    return n;
}

static void emit(copy_run *r, size_t size, const row_names *rn, const umb_stats *s, double limit_gbs, double cpu,
                 const copy_result *res)
{
    umb_col cols[32];
    double unit = umb_drive_unit_bytes(&r->drv);
    double limit = limit_gbs > 0 ? limit_gbs * 1e9 / unit : 0;  /* in the unit */
    int n = row_cols(r, cols, rn, s, limit, cpu, res);
    r->out.buffers = rn->memory;
    if (!r->header_done) {
        umb_out_columns(&r->out, cols, n);
        r->header_done = 1;
    }
    umb_out_row(&r->out, size, cols, n, res->valid);
    /* The fastest repetition, and the host clock, never above the link. */
    double top = s->max;
    if (cpu > top) top = cpu;  /* NaN (no host timing) compares false */
    if (limit > 0 && top > limit) {
        fprintf(stderr, "%s: warning: %s %s %s GPU %s, %zu bytes: %.2f %s is above the PCIe limit of %.2f %s (a measuring bug)\n",
                umb_program(), rn->memory, rn->dir, rn->meth, rn->gpu, size, top, umb_drive_unit(&r->drv), limit, umb_drive_unit(&r->drv));
        r->above_limit = 1;
    }
}

/* ---- the run ---------------------------------------------------------- */

static int run_combo(copy_run *r, int ci, const copy_combo *c, int gpu, int peer)
{
    copy_setup u;
    size_t most = 0;
    int valid = 1;
    for (int i = 0; i < r->drv.nsizes; i++) if (r->drv.sizes[i] > most) most = r->drv.sizes[i];
    copy_check_memory(c, gpu, peer, most);
    if (c->dir == COPY_PEER) umb_gpu_peer_access(gpu, peer, c->p2p);
    memset(&u, 0, sizeof u);
    u.gpu = gpu;
    u.peer = peer;
    copy_setup_alloc(r, c, &u, most);
    copy_gpu *st = copy_use_gpu(r, gpu);
    int crosses = c->dir == COPY_HTOD || c->dir == COPY_DTOH || c->dir == COPY_BIDIR;
    double limit = crosses ? st->limit : 0;
    char gname[32], meth[16];
    if (c->dir == COPY_PEER) snprintf(gname, sizeof gname, "%d->%d", gpu, peer);
    else snprintf(gname, sizeof gname, "%d", gpu);
    if (c->dir == COPY_PEER) snprintf(meth, sizeof meth, "%s-%s", copy_meth_name(c->meth), c->p2p ? "p2p" : "nop2p");
    else snprintf(meth, sizeof meth, "%s", copy_meth_name(c->meth));
    row_names rn = {umb_kind_long(c->kind), copy_dir_name(c->dir), meth, gname};
    for (int i = 0; i < r->drv.nsizes; i++) {
        copy_result res;
        size_t size = r->drv.sizes[i];
        copy_measure(r, ci, c, &u, size, &res);
        valid &= res.valid;
        if (c->dir == COPY_BIDIR) {
            row_names each = rn;
            each.dir = "bidir-htod";
            emit(r, size, &each, &res.rate[0], limit, NAN, &res);
            each.dir = "bidir-dtoh";
            emit(r, size, &each, &res.rate[1], limit, NAN, &res);
            emit(r, size, &rn, &res.rate[2], 2 * limit, res.cpu, &res);
        } else {
            emit(r, size, &rn, &res.rate[2], limit, res.cpu, &res);
        }
    }
    copy_setup_free(&u);
    return valid;
}

/* Peer pairs: among the GPUs chosen, or from the one chosen to every other. */
typedef struct {
    int n;
    int ab[UMB_DRIVE_MAX_GPUS * 4][2];
} peer_pairs;

static void find_pairs(const umb_drive *d, int visible, peer_pairs *p)
{
    p->n = 0;
    for (int i = 0; i < visible && i < UMB_DRIVE_MAX_GPUS; i++)
        for (int j = 0; j < visible && j < UMB_DRIVE_MAX_GPUS; j++) {
            int chosen_i = d->all_devices || i == d->device, chosen_j = d->all_devices || j == d->device;
            if (i != j && (d->all_devices ? chosen_i && chosen_j : chosen_i || chosen_j) &&
                p->n < UMB_DRIVE_MAX_GPUS * 4) {
                p->ab[p->n][0] = i;
                p->ab[p->n][1] = j;
                p->n++;
            }
        }
}

static void header_lists(umb_header *h, const copy_run *r, const peer_pairs *pp)
{
    char list[1900] = "";  /* the header keeps 2 KiB per value */
    for (int i = 0; i < r->ncombos && strlen(list) < sizeof list - 64; i++) {
        const copy_combo *c = &r->combos[i];
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s %s %s%s", i ? ", " : "",
                 umb_kind_long(c->kind), copy_dir_name(c->dir), copy_meth_name(c->meth),
                 c->dir == COPY_PEER ? (c->p2p ? " (peer access on)" : " (peer access off)") : "");
    }
    umb_header_str(h, "combinations", "Combinations", "%s", list);
    if (pp->n) {
        char p[1024] = "";
        for (int i = 0; i < pp->n && strlen(p) < sizeof p - 32; i++)
            snprintf(p + strlen(p), sizeof p - strlen(p), "%s%d->%d %s", i ? ", " : "", pp->ab[i][0], pp->ab[i][1],
                     umb_gpu_can_peer(pp->ab[i][0], pp->ab[i][1]) ? "possible" : "not possible");
        umb_header_str(h, "peer_access", "Peer access", "%s", p);
    }
}

static void print_header(const copy_run *r, const umb_drive_cli *cli, const peer_pairs *pp)
{
    umb_header h;
    char pm_why[160];
    umb_drive_header(&h, &r->drv, cli);
    header_lists(&h, r, pp);
    umb_header_str(&h, "timing", "Timing",
                   "CUDA events around a batch of copies; page-locked, device and kernel batches are queued behind a spin kernel and released together (no launch gaps measured); "
                   "managed: one move per repetition, placed before each (untimed); demand dtoh: CPU reads, host clock%s",
                   r->drv.cputiming ? "; CPU column: host clock from release to the last event" : "");
    if (umb_residency_open(pm_why, sizeof pm_why) == 0)
        umb_header_str(&h, "placement_check", "Placement check",
                       "managed memory: after each placement, the present bit of every page in %.200s is read "
                       "(managed-host: all on the host, managed-device: none); placed again up to %d times where it did not "
                       "hold; a repetition still not placed is left out; Placed %%: first placements that held",
                       umb_residency_file(), UMB_REPLACE_TRIES);
    else
        umb_header_str(&h, "placement_check", "Placement check", "unavailable (%s): managed placement is not verified", pm_why);
    umb_header_str(&h, "units", "Units", "%s = %s bytes per second, median over repetitions; bidir counts both directions; %% of link: of the PCIe limit per direction (bidir: of twice it); CV = stddev / mean",
                   umb_drive_unit(&r->drv), r->drv.gib ? "2^30" : "10^9");
    umb_header_str(&h, "validation", "Validation", "every byte of the destination after the last repetition of each size");
    umb_counters_header(&h, "per timed repetition", r->drv.counters_note);
    umb_header_print(&h, r->drv.format, stdout);
    umb_header_free(&h);
}

/* Every combination on every GPU chosen (peer: every pair); 1 when all validated. */
static int run_all(copy_run *r, const peer_pairs *pp)
{
    int valid = 1;
    for (int i = 0; i < r->ncombos; i++) {
        const copy_combo *c = &r->combos[i];
        if (c->dir != COPY_PEER) {
            for (int g = 0; g < r->drv.ndevices; g++) valid &= run_combo(r, i, c, r->drv.devices[g], -1);
            continue;
        }
        for (int p = 0; p < pp->n; p++) {
            if (c->p2p && !umb_gpu_can_peer(pp->ab[p][0], pp->ab[p][1])) continue;  /* the header says so */
            valid &= run_combo(r, i, c, pp->ab[p][0], pp->ab[p][1]);
        }
    }
    return valid;
}

int umb_copy_main(const umb_copy *p, int argc, char **argv)
{
    copy_run run;
    umb_drive_cli cli = cli_template;
    peer_pairs pairs;
    char why[256], err[512];
    memset(&run, 0, sizeof run);
    cli.program = p->program;
    cli.summary = p->summary;
    cli.quick = p->quick;
    cli.repeat = p->repeat;
    cli.ctx = &run;
    umb_drive_start(&run.drv, &cli, argc, argv);
    int visible = umb_gpu_count(why, sizeof why);
    find_pairs(&run.drv, visible, &pairs);
    if ((run.opt.named[COPY_OPT_DIRECTION] >> COPY_PEER & 1) && !pairs.n) {
        fprintf(stderr, "%s: --direction peer needs 2 GPUs; this machine has %d\n", p->program, visible);
        exit(UMB_EXIT_SKIP);
    }
    if (copy_choose(&run.opt, pairs.n > 0, run.combos, COPY_MAX_COMBOS, &run.ncombos, err, sizeof err))
        umb_fatal("copy_choose", __FILE__, __LINE__, err);  /* checked at start */
    copy_hold_open(&run);
    print_header(&run, &cli, &pairs);
    run.out.format = run.drv.format;
    run.out.full = 1;
    run.out.validate = 1;
    run.out.program = p->program;
    run.out.out = stdout;
    int valid = run_all(&run, &pairs);
    copy_hold_close(&run);
    umb_counters_footer(run.drv.format, stdout);
    return umb_output_end(p->program, run.drv.format, 1, !valid ? UMB_EXIT_INVALID : run.above_limit ? UMB_EXIT_USAGE : 0);
}
