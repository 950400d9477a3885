#include "bench.h"

#include "config.h"
#include "counters.h"
#include "cupti_um.h"
#include "error.h"
#include "gpu.h"
#include "pattern.h"
#include "placement.h"
#include "sysinfo.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 512

void umb_agree(int code, const char *message)
{
    int rank, nranks, first, worst, mine;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    mine = code ? rank : nranks;
    UMB_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (!worst) return;
    if (rank == first && message && *message) {
        fprintf(stderr, "%s\n", message);
        fflush(stderr);
    }
    MPI_Finalize();
    exit(worst);
}

static int any_kind(const umb_options *o, int (*pred)(umb_kind))
{
    for (int k = 0; k < UMB_NKINDS; k++)
        if ((o->used_kinds & 1u << k) && pred((umb_kind)k)) return 1;
    return 0;
}

static int is_device(umb_kind k) { return k == UMB_D; }
static int is_on_device_managed(umb_kind k) { return k == UMB_MD; }

/* Point-to-point: ranks in the first half take the first kind, the rest the
   second (OMB). Collectives: the --buffers list, else the root's kind for a
   fixed root and the others' kind for everyone else. */
static umb_kind kind_of_rank(const umb_options *o, int rank, int nranks, int collective)
{
    umb_kind k;
    if (collective) {
        if (o->buffer_list) return umb_list_kind(o->buffer_list, rank, &k) == 0 ? k : UMB_H;
        return !o->root_rotate && rank == o->root ? o->root_kind : o->other_kind;
    }
    if (o->nkinds < 2) return o->nkinds ? o->kinds[0] : UMB_H;
    return rank < nranks / 2 ? o->kinds[0] : o->kinds[1];
}

/* "MD MH" (point-to-point), or for collectives "all MH", "root MD, others MH", "MD,MH,MH,MD". */
static void describe_buffers(const umb_options *o, int collective, char *buf, size_t n)
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

static int choose_gpu(umb_bench *b, int local_rank, const char *from, int count, char *msg)
{
    if (b->opt.device >= 0) {
        if (b->opt.device >= count) {
            snprintf(msg, LINE, "%s: --device %d: rank %d on %s sees %d GPU(s), numbered 0..%d",
                     b->cli->program, b->opt.device, b->rank, b->host, count, count - 1);
            return UMB_EXIT_USAGE;
        }
        b->gpu = b->opt.device;
        snprintf(b->gpu_from, sizeof b->gpu_from, "--device");
    } else {
        b->gpu = local_rank % count;
        snprintf(b->gpu_from, sizeof b->gpu_from, "local rank %d (%s)", local_rank, from);
    }
    umb_gpu_use(b->gpu);
    return 0;
}

void umb_bench_init(umb_bench *b, const umb_cli *cli, int ranks, int argc, char **argv)
{
    umb_mpi_abort_on_fatal();
    char err[LINE], msg[2 * LINE], gpu_msg[2 * LINE] = "", why[LINE] = "";
    memset(b, 0, sizeof *b);
    b->cli = cli;
    b->gpu = -1;
    int bad = umb_options_parse(&b->opt, cli, argc, argv, err, sizeof err);
    int needs_gpu = !bad && !b->opt.help && !b->opt.version && any_kind(&b->opt, umb_kind_needs_gpu);

    /* --counters: CUPTI starts before any CUDA context, so it sees all of it. */
    if (!bad && b->opt.counters == UMB_COUNTERS_FULL && !b->opt.help && !b->opt.version && umb_cupti_built()) {
        char none[LINE] = "";
        int with_gpu = umb_gpu_count(none, sizeof none) > 0;
        if (!with_gpu) snprintf(b->counters_note, sizeof b->counters_note, "no GPU here (%.200s)", none);
        umb_counters_start(with_gpu, b->counters_note, sizeof b->counters_note);
    }
    if (!bad && b->opt.counters == UMB_COUNTERS_LIGHT) {
        snprintf(b->counters_note, sizeof b->counters_note, "light: getrusage faults and the placement check, no CUPTI");
        umb_counters_start(0, NULL, 0);
    }
    umb_placement_set_mode(b->opt.place_check);

    /* CUDA-aware libraries want the GPU chosen before MPI_Init: use the
       launcher's local rank when it gives one. */
    const char *from = NULL;
    int local_rank = umb_launcher_local_rank(&from);
    int gpus = needs_gpu ? umb_gpu_count(why, sizeof why) : 0;
    int gpu_code = 0;
    /* A bad --device is reported after MPI_Init, where rank and host are known. */
    if (needs_gpu && gpus > 0 && local_rank >= 0 && b->opt.device < gpus)
        gpu_code = choose_gpu(b, local_rank, from, gpus, gpu_msg);

    UMB_MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->nranks);
    umb_hostname(b->host, sizeof b->host);
    umb_error_context(cli->program, b->rank, b->host);

    if (b->opt.help || b->opt.version) {
        if (b->rank == 0) {
            if (b->opt.help) umb_usage(cli, stdout);
            else printf("%s (umbench) %s\n", cli->program, PACKAGE_VERSION);
        }
        MPI_Finalize();
        exit(0);
    }
    if (bad) {
        snprintf(msg, sizeof msg, "%s: %s", cli->program, err);
        if (bad == 2 && b->rank == 0) {  /* an unknown option: the line, then the usage */
            fprintf(stderr, "%s\n", msg);
            umb_usage(cli, stderr);
            msg[0] = '\0';
        }
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if ((ranks > 0 && b->nranks != ranks) || (ranks < 0 && b->nranks % -ranks != 0)) {
        if (ranks > 0)
            snprintf(msg, sizeof msg, "%s: needs exactly %d ranks, got %d (mpirun -np %d %s ...)",
                     cli->program, ranks, b->nranks, ranks, cli->program);
        else
            snprintf(msg, sizeof msg, "%s: needs a multiple of %d ranks, got %d", cli->program, -ranks, b->nranks);
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if (cli->collective) {
        const umb_options *o = &b->opt;
        if (o->buffer_list && umb_list_length(o->buffer_list) != b->nranks)
            snprintf(msg, sizeof msg, "%s: --buffers %s: %d kinds for %d ranks; give one per rank", cli->program,
                     o->buffer_list, umb_list_length(o->buffer_list), b->nranks);
        else if (!o->root_rotate && o->root >= b->nranks)
            snprintf(msg, sizeof msg, "%s: -k fixed:%d: no such rank; ranks are 0..%d", cli->program, o->root, b->nranks - 1);
        else
            msg[0] = '\0';
        umb_agree(b->rank == 0 && msg[0] ? UMB_EXIT_USAGE : 0, msg);
    }
    if (b->opt.counters == UMB_COUNTERS_FULL && !umb_cupti_built()) {
        snprintf(msg, sizeof msg, "%s: --counters needs CUPTI, but this build has none (configure found no "
                 "cupti.h/libcupti.so; --with-cupti=DIR names it)", cli->program);
        umb_agree(b->rank == 0 ? UMB_EXIT_USAGE : 0, msg);
    }
    if (b->opt.counters == UMB_COUNTERS_FULL && !umb_counters_cupti() && b->rank == 0) {
        /* One line, then on with the getrusage counters. */
        fprintf(stderr, "%s: note: --counters: %s; counting getrusage faults only\n", cli->program, b->counters_note);
        fflush(stderr);
    }
    b->kind = kind_of_rank(&b->opt, b->rank, b->nranks, cli->collective);
    describe_buffers(&b->opt, cli->collective, b->buffers, sizeof b->buffers);

    if (needs_gpu) {
        /* Collective on every rank (so no rank waits alone): the rank within
           this node's shared-memory group, for when no launcher variable said. */
        MPI_Comm node;
        int node_rank;
        UMB_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
        MPI_Comm_rank(node, &node_rank);
        MPI_Comm_free(&node);
        if (gpus == 0) {
            /* A GPU buffer without a GPU: exit 77 (skipped), from every rank. */
            snprintf(gpu_msg, sizeof gpu_msg, "%s: buffers %s need a CUDA GPU, but rank %d on %s has none: %s",
                     cli->program, b->buffers, b->rank, b->host, why);
            gpu_code = UMB_EXIT_SKIP;
        } else if (b->gpu < 0 && !gpu_code) {
            gpu_code = choose_gpu(b, node_rank, "MPI_COMM_TYPE_SHARED", gpus, gpu_msg);
        }
    }
    umb_agree(gpu_code, gpu_msg);

    umb_mpi_aware_facts(&b->facts, b->ucx_version, b->pml);
    b->aware = umb_aware_verdict(&b->facts, b->aware_why, sizeof b->aware_why);
    if (any_kind(&b->opt, is_device) && b->aware == UMB_VERDICT_NOT_AWARE && !b->opt.assume_cuda_aware) {
        char lib[LINE];
        umb_mpi_library(lib, sizeof lib);
        snprintf(msg, sizeof msg, "%s: buffer D needs a CUDA-aware MPI, but %.160s is not: %.300s; "
                 "use MD or MH, or --assume-cuda-aware if you know better", cli->program, lib, b->aware_why);
        umb_agree(b->rank == 0 ? UMB_EXIT_SKIP : 0, msg);
    }

    b->out.format = b->opt.format;
    b->out.full = b->opt.full;
    b->out.validate = b->opt.validate;
    b->out.program = cli->program;
    b->out.buffers = b->buffers;
    b->out.out = stdout;
    umb_watchdog_start(b->opt.timeout, b->rank, b->host);
}

void umb_bench_alloc(umb_bench *b, umb_buffer *buf, size_t bytes) { umb_bench_alloc_kind(b, buf, b->kind, bytes); }

void umb_bench_alloc_kind(umb_bench *b, umb_buffer *buf, umb_kind kind, size_t bytes)
{
    char why[LINE] = "", msg[LINE + 128] = "";
    int rc = umb_buffer_alloc(buf, kind, bytes, b->opt.advise, b->opt.allow_oversubscription, why, sizeof why);
    if (rc) snprintf(msg, sizeof msg, "%s: rank %d on %s: %s", b->cli->program, b->rank, b->host, why);
    umb_agree(rc ? UMB_EXIT_USAGE : 0, msg);
}

int umb_bench_place_each(const umb_bench *b)
{
    return b->opt.place_when == UMB_PLACE_EACH && any_kind(&b->opt, umb_kind_is_managed);
}

int umb_bench_handshake(const umb_bench *b)
{
    if (b->opt.loop != UMB_LOOP_AUTO) return b->opt.loop == UMB_LOOP_HANDSHAKE;
    return umb_bench_place_each(b) || b->opt.validate;
}

void umb_laps_init(umb_laps *l, double *times, long skip)
{
    l->prev = 0;
    l->times = times;
    l->skip = skip;
}

void umb_laps_close(umb_laps *l, long iters)
{
    if (iters > 0) l->times[iters - 1] = MPI_Wtime() - l->prev;
}

void umb_bench_sweep(umb_bench *b, const umb_sweep *sw, void *ctx)
{
    umb_col extra[2], more[2 * UMB_NCTRS + 16], counters[2 * UMB_NCTRS];
    memcpy(extra, sw->extra, sizeof extra);
    int nplace = umb_bench_place_titles(b, sw->metric, more);
    int ncounters = umb_bench_counter_cols(b, (size_t)-1, 0, more + nplace);
    umb_bench_columns(b, sw->metric, extra, sw->nextra, more, nplace + ncounters);
    long most = b->opt.iters > b->opt.iters_large ? b->opt.iters : b->opt.iters_large;
    double *times = umb_xmalloc(sizeof(double) * (size_t)most, "iteration times");
    umb_progress_phase(sw->phase);
    for (size_t size = b->opt.min_size; size <= b->opt.max_size; size = umb_size_next(size)) {
        long iters, skip;
        umb_stats s;
        umb_iterations(&b->opt, b->cli, size, &iters, &skip);
        umb_counters_size_begin(skip);
        if (umb_bench_tracks_placement(b)) umb_placement_size_begin(skip, iters);  /* a record per timed iteration */
        umb_progress_size(size);
        if (!umb_bench_place_each(b)) sw->place(b, ctx, size);
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        int valid = 1;
        if (umb_bench_handshake(b)) valid = sw->handshake(b, ctx, size, iters, skip, times);
        else sw->classic(b, ctx, size, iters, skip, times);
        ncounters = umb_bench_counter_cols(b, size, iters, counters);  /* first: the counts end with the loop */
        valid = umb_bench_all_valid(b, valid);
        nplace = 0;
        if (umb_bench_tracks_placement(b)) nplace = umb_bench_place_summarize(b, sw, ctx, size, times, iters, &s, extra, more);
        else sw->summarize(b, ctx, size, times, iters, &s, extra);
        memcpy(more + nplace, counters, sizeof *counters * (size_t)ncounters);
        umb_bench_row(b, size, &s, sw->metric, extra, sw->nextra, more, nplace + ncounters, valid);
    }
    free(times);
    umb_bench_place_report(b);
    umb_bench_counters_report(b);
}

void umb_bench_run(umb_bench *b, umb_header *h, const umb_sweep *sw, void *ctx)
{
    if (b->rank == 0) {
        umb_header_str(h, "loop", "Loop", "%s", umb_bench_handshake(b) ? sw->loop_handshake : sw->loop_classic);
        umb_header_str(h, "units", "Units", "%s", sw->units);
    }
    umb_bench_counters_header(b, h);
    umb_bench_header_print(b, h);
    umb_bench_sweep(b, sw, ctx);
}

/* What each rank tells rank 0 for the header. */
typedef struct {
    char host[64], cpus[96], numa[32], gpu_from[64], gpu_name[96], pci_bus[32], link[64], local_from[40];
    int gpu, gpu_numa, kind, local_rank;
} rank_info;

static void my_rank_info(const umb_bench *b, rank_info *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->host, sizeof r->host, "%.63s", b->host);
    umb_cpu_binding(r->cpus, sizeof r->cpus);
    umb_cpu_numa(r->numa, sizeof r->numa);
    r->gpu = b->gpu;
    r->kind = b->kind;
    r->gpu_numa = -1;
    const char *from = NULL;
    r->local_rank = umb_launcher_local_rank(&from);  /* -1: the launcher did not say */
    snprintf(r->local_from, sizeof r->local_from, "%s", from ? from : "");
    if (b->gpu >= 0) {
        umb_gpu_desc d;
        umb_gpu_describe(b->gpu, &d);
        snprintf(r->gpu_name, sizeof r->gpu_name, "%.95s", d.name);
        snprintf(r->pci_bus, sizeof r->pci_bus, "%s", d.pci_bus);
        snprintf(r->gpu_from, sizeof r->gpu_from, "%s", b->gpu_from);
        umb_pcie_link(d.pci_bus, r->link, sizeof r->link);
        r->gpu_numa = umb_pci_numa_node(d.pci_bus);
    }
}

static void add_ranks(umb_header *h, const rank_info *all, int n)
{
    umb_strbuf json = {0}, text = {0};
    umb_sb_printf(&json, "[");
    for (int i = 0; i < n; i++) {
        const rank_info *r = &all[i];
        umb_sb_printf(&json, "%s{\"rank\":%d,\"host\":", i ? "," : "", i);
        umb_sb_json_string(&json, r->host);
        umb_sb_printf(&json, ",\"cpus\":");
        umb_sb_json_string(&json, r->cpus);
        umb_sb_printf(&json, ",\"cpu_numa\":");
        umb_sb_json_string(&json, r->numa);
        umb_sb_printf(&json, ",\"local_rank\":%d,\"local_rank_from\":", r->local_rank);
        umb_sb_json_string(&json, r->local_from);
        umb_sb_printf(&json, ",\"buffer\":\"%s\",\"gpu\":%d", umb_kind_name((umb_kind)r->kind), r->gpu);
        umb_sb_printf(&text, "# Rank %d: host %s, CPUs %s (NUMA %s), ", i, r->host, r->cpus, r->numa);
        if (r->local_rank >= 0) umb_sb_printf(&text, "local rank %d (%s), ", r->local_rank, r->local_from);
        umb_sb_printf(&text, "buffer %s", umb_kind_name((umb_kind)r->kind));
        if (r->gpu >= 0) {
            umb_sb_printf(&json, ",\"gpu_name\":");
            umb_sb_json_string(&json, r->gpu_name);
            umb_sb_printf(&json, ",\"gpu_pci_bus\":");
            umb_sb_json_string(&json, r->pci_bus);
            umb_sb_printf(&json, ",\"gpu_pcie\":");
            umb_sb_json_string(&json, r->link);
            umb_sb_printf(&json, ",\"gpu_numa\":%d,\"gpu_chosen_by\":", r->gpu_numa);
            umb_sb_json_string(&json, r->gpu_from);
            umb_sb_printf(&text, ", GPU %d %s (%s, PCIe %s, NUMA %d) chosen by %s", r->gpu, r->gpu_name,
                          r->pci_bus, r->link, r->gpu_numa, r->gpu_from);
        } else {
            umb_sb_printf(&text, ", no GPU");
        }
        umb_sb_printf(&json, "}");
        umb_sb_printf(&text, "\n");
    }
    umb_sb_printf(&json, "]");
    umb_header_json(h, "ranks", json.s, text.s);
    umb_sb_free(&json);
    umb_sb_free(&text);
}

/* JSON only: the facts behind the CUDA-aware line, for scripts (run.json). */
static void add_awareness(umb_header *h, const umb_bench *b)
{
    const umb_aware_facts *f = &b->facts;
    umb_strbuf j = {0};
    umb_sb_printf(&j, "{\"verdict\":\"%s\",\"library\":\"%s\",\"library_query\":", umb_verdict_name(b->aware),
                  umb_cuda_aware_name(f->library));
    umb_sb_json_string(&j, f->library_how ? f->library_how : "");
    umb_sb_printf(&j, ",\"pml\":");
    umb_sb_json_string(&j, f->pml);
    umb_sb_printf(&j, ",\"pml_from\":");
    umb_sb_json_string(&j, f->pml_how ? f->pml_how : "");
    umb_sb_printf(&j, ",\"ucx_loaded\":%s,\"ucx_version\":", f->ucx_loaded ? "true" : "false");
    umb_sb_json_string(&j, f->ucx_version);
    umb_sb_printf(&j, ",\"ucx_cuda_transports\":%s,\"ucx_tls\":", f->ucx_cuda ? "true" : "false");
    if (f->ucx_tls) umb_sb_json_string(&j, f->ucx_tls);
    else umb_sb_printf(&j, "null");
    umb_sb_printf(&j, ",\"ucx_memtype_cache\":");
    if (f->ucx_memtype_cache) umb_sb_json_string(&j, f->ucx_memtype_cache);
    else umb_sb_printf(&j, "null");
    umb_sb_printf(&j, ",\"assume_cuda_aware\":%s}", b->opt.assume_cuda_aware ? "true" : "false");
    umb_header_json(h, "cuda_awareness", j.s, "");
    umb_sb_free(&j);
}

void umb_bench_header(umb_bench *b, umb_header *h)
{
    rank_info mine, *all = NULL;
    my_rank_info(b, &mine);
    if (b->rank == 0) all = umb_xmalloc(sizeof *all * (size_t)b->nranks, "rank information");
    UMB_MPI_CHECK(MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD));
    umb_bench_place_agree(b);
    if (b->rank != 0) return;

    const umb_options *o = &b->opt;
    char s[LINE * 4], t[LINE];
    time_t now = time(NULL);
    memset(h, 0, sizeof *h);
    umb_header_str(h, "program", "Program", "%s (umbench %s): %s", b->cli->program, PACKAGE_VERSION, b->cli->summary);
    strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    umb_header_str(h, "date", "Date", "%s", t);
    umb_mpi_library(s, sizeof s);
    umb_header_str(h, "mpi_library", "MPI library", "%s", s);
    umb_header_str(h, "cuda_aware", "CUDA-aware MPI", "%s (%s)%s", umb_verdict_name(b->aware), b->aware_why,
                   o->assume_cuda_aware ? ", overridden by --assume-cuda-aware" : "");
    add_awareness(h, b);
    umb_mpi_env(s, sizeof s);
    umb_header_str(h, "mpi_env", "MPI environment", "%s", s);
    if (b->facts.ucx_loaded)
        umb_header_str(h, "ucx", "UCX", "%s (libucp loaded), CUDA transports %s; UCX_TLS %s, UCX_MEMTYPE_CACHE %s",
                       *b->ucx_version ? b->ucx_version : "unknown version", b->facts.ucx_cuda ? "loaded" : "not loaded",
                       b->facts.ucx_tls ? b->facts.ucx_tls : "unset",
                       b->facts.ucx_memtype_cache ? b->facts.ucx_memtype_cache : "unset");
    else
        umb_header_str(h, "ucx", "UCX", "not loaded");
    if (b->gpu >= 0) {
        umb_gpu_versions(s, sizeof s);
        umb_nvidia_driver(t, sizeof t);
        umb_header_str(h, "cuda", "CUDA", "%s; NVIDIA kernel driver %s", s, t);
    } else {
        umb_header_str(h, "cuda", "CUDA", "not used (host buffers only)%s", umb_gpu_built() ? "" : "; host-only build");
    }
    umb_header_num(h, "nranks", "Ranks", b->nranks);
    add_ranks(h, all, b->nranks);
    free(all);

    umb_header_str(h, "buffers", "Buffers", "%s", b->buffers);
    if (b->opt.m_given) umb_header_str(h, "note", "Note", "buffer M is read as MH (managed, placed on the host), as OMB does");
    if (any_kind(o, umb_kind_is_managed)) {
        umb_header_str(h, "placement", "Placement", "%s, %s; never inside the timed region",
                       o->place_with == UMB_PLACE_KERNEL ? "kernel (a GPU kernel writes every page for MD, the CPU for MH)"
                                                          : "prefetch (cudaMemPrefetchAsync)",
                       o->place_when == UMB_PLACE_EACH ? "before every measured operation" : "once per message size, before warm-up");
        umb_advise_string(o->advise, t, sizeof t);
        umb_header_str(h, "hints", "Hints", "%s", t);
        if (any_kind(o, is_on_device_managed) && o->place_with == UMB_PLACE_KERNEL)
            umb_header_str(h, "placement_note", "Placement note",
                           "the driver may leave MD pages that bounce between CPU and GPU on the host after a touch "
                           "kernel; the check finds them%s (docs/method.md)",
                           o->place_check == UMB_CHECK_ENFORCE ? " and prefetch places them (Re-placed)"
                           : o->place_check == UMB_CHECK_OBSERVE ? " and the row shows them (Placed %, Not-held)" : " only when on");
        umb_bench_place_header(b, h);
    } else {
        umb_header_str(h, "placement", "Placement", "none (no managed buffers)");
        umb_header_str(h, "hints", "Hints", "none");
    }
    umb_header_str(h, "iterations", "Iterations", "%ld (warm-up %ld); above %zu bytes: %ld (warm-up %ld)",
                   o->iters, o->skip, b->cli->large_size, o->iters_large, o->skip_large);
    umb_header_str(h, "validation", "Validation", "%s", o->validate ? "on: every byte of every message" : "off");
    if (o->timeout > 0) umb_header_str(h, "timeout", "Timeout", "%.0f s without progress ends the job", o->timeout);
    if (any_kind(o, is_device) && b->aware == UMB_VERDICT_UNKNOWN && !o->assume_cuda_aware)
        umb_header_str(h, "warning", "Warning", "cannot tell whether this MPI is CUDA-aware; D buffers may crash it "
                       "(--assume-cuda-aware silences this)");
}

void umb_bench_header_print(umb_bench *b, umb_header *h)
{
    if (b->rank != 0) return;
    umb_header_print(h, b->opt.format, stdout);
    umb_header_free(h);
}

/* Avg, the extra columns, the full-only statistics, then --counters'. */
static int row_cols(const umb_stats *s, const umb_metric *m, const umb_col *extra, int nextra, const umb_col *more,
                    int nmore, umb_col *cols)
{
    umb_col stats[8];
    int n = umb_stats_cols(s, m, stats), k = 0;
    cols[k++] = stats[0];
    for (int i = 0; i < nextra; i++) cols[k++] = extra[i];
    for (int i = 1; i < n; i++) cols[k++] = stats[i];
    for (int i = 0; i < nmore; i++) cols[k++] = more[i];
    return k;
}

void umb_bench_columns(umb_bench *b, const umb_metric *m, const umb_col *extra, int nextra, const umb_col *more,
                       int nmore)
{
    umb_stats none = {0};
    umb_col cols[48];
    if (b->rank != 0) return;
    int n = row_cols(&none, m, extra, nextra, more, nmore, cols);
    umb_out_columns(&b->out, cols, n);
}

void umb_bench_row(umb_bench *b, size_t size, const umb_stats *s, const umb_metric *m,
                   const umb_col *extra, int nextra, const umb_col *more, int nmore, int valid)
{
    umb_col cols[48];
    if (b->rank != 0) return;
    int n = row_cols(s, m, extra, nextra, more, nmore, cols);
    umb_out_row(&b->out, size, cols, n, valid);
}

int umb_bench_check(umb_bench *b, umb_buffer *buf, size_t offset, size_t size, long iteration, int key)
{
    unsigned got, want;
    long at = umb_buffer_check(buf, offset, size, umb_pattern_seed(iteration, size, key), &got, &want);
    if (at < 0) return 1;
    fprintf(stderr, "%s: rank %d on %s: size %zu, message %ld (key %d) at offset %zu: byte %ld is 0x%02x, expected 0x%02x\n",
            b->cli->program, b->rank, b->host, size, iteration, key, offset, at, got, want);
    return 0;
}

int umb_bench_all_valid(umb_bench *b, int my_valid)
{
    int all;
    UMB_MPI_CHECK(MPI_Allreduce(&my_valid, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    if (!all) b->exit_code = UMB_EXIT_INVALID;
    return all;
}

int umb_bench_finish(umb_bench *b)
{
    MPI_Finalize();
    return b->exit_code;
}
