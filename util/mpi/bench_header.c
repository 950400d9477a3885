/* The header's common part for the MPI benchmarks: what each rank runs on
   (gathered to rank 0), the MPI library and its CUDA-awareness, CUDA, the
   buffers and their placement. */
#include "bench_header.h"
#include "mpi_check.h"

#include "config.h"
#include "error.h"
#include "gpu.h"
#include "memkind.h"
#include "strbuf.h"
#include "sysinfo.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 512

static int is_device(umb_kind k) { return k == UMB_D; }
static int is_on_device_managed(umb_kind k) { return k == UMB_MD; }

/* What each rank tells rank 0 for the header. */
typedef struct {
    char host[64], cpus[96], numa[32], gpu_from[160], gpu_name[96], pci_bus[32], link[64], local_from[40];
    int gpu, gpu_numa, kind, local_rank, unbound;
} rank_info;

static void my_rank_info(const umb_bench *b, rank_info *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->host, sizeof r->host, "%.63s", b->host);
    umb_cpu_binding(r->cpus, sizeof r->cpus);
    umb_cpu_numa(r->numa, sizeof r->numa);
    r->unbound = umb_cpu_unbound();
    r->gpu = b->gpu;
    r->kind = b->kind;
    r->gpu_numa = -1;
    r->local_rank = b->local_rank;  /* -1: the launcher did not say */
    snprintf(r->local_from, sizeof r->local_from, "%s", b->local_from ? b->local_from : "");
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
        umb_sb_json_field(&json, "cpus", r->cpus);
        umb_sb_json_field(&json, "cpu_numa", r->numa);
        umb_sb_printf(&json, ",\"local_rank\":%d,\"local_rank_from\":", r->local_rank);
        umb_sb_json_string(&json, r->local_from);
        umb_sb_printf(&json, ",\"buffer\":\"%s\",\"gpu\":%d", umb_kind_name((umb_kind)r->kind), r->gpu);
        /* The host's, the GPU's and the launcher's words as shown (strbuf.h). */
        umb_sb_printf(&text, "# Rank %d: host %s, CPUs %s (NUMA %s), ", i, UMB_SHOWN(r->host), UMB_SHOWN(r->cpus),
                      UMB_SHOWN(r->numa));
        if (r->local_rank >= 0) umb_sb_printf(&text, "local rank %d (%s), ", r->local_rank, UMB_SHOWN(r->local_from));
        umb_sb_printf(&text, "buffer %s", umb_kind_name((umb_kind)r->kind));
        if (r->gpu >= 0) {
            umb_sb_json_field(&json, "gpu_name", r->gpu_name);
            umb_sb_json_field(&json, "gpu_pci_bus", r->pci_bus);
            umb_sb_json_field(&json, "gpu_pcie", r->link);
            umb_sb_printf(&json, ",\"gpu_numa\":%d,\"gpu_chosen_by\":", r->gpu_numa);
            umb_sb_json_string(&json, r->gpu_from);
            umb_sb_printf(&text, ", GPU %d %s (%s, PCIe %s, NUMA %d) chosen by %s", r->gpu, UMB_SHOWN(r->gpu_name),
                          UMB_SHOWN(r->pci_bus), UMB_SHOWN(r->link), r->gpu_numa, UMB_SHOWN(r->gpu_from));
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

/* Rank 0 keeps what the findings need of every rank. */
static void keep_rank_facts(umb_bench *b, const rank_info *all)
{
    free(b->ranks);  /* a launch of several pairs writes a header for each (pairs.c) */
    b->ranks = umb_xmalloc(sizeof *b->ranks * (size_t)b->nranks, "rank facts");
    for (int i = 0; i < b->nranks; i++) {
        umb_rank_facts *f = &b->ranks[i];
        const rank_info *r = &all[i];
        memset(f, 0, sizeof *f);
        snprintf(f->host, sizeof f->host, "%s", r->host);
        snprintf(f->gpu_bus, sizeof f->gpu_bus, "%s", r->gpu >= 0 ? r->pci_bus : "");
        snprintf(f->cpus, sizeof f->cpus, "%s", r->cpus);
        snprintf(f->cpu_numa, sizeof f->cpu_numa, "%s", r->numa);
        snprintf(f->pcie, sizeof f->pcie, "%s", r->gpu >= 0 ? r->link : "");
        f->gpu = r->gpu;
        f->gpu_numa = r->gpu_numa;
        f->all_cpus = r->unbound;
        f->managed = umb_kind_is_managed((umb_kind)r->kind);
        f->device = r->kind == UMB_D;
        f->managed_on_gpu = r->kind == UMB_MD;
    }
}

/* JSON only: the facts behind the CUDA-aware line, for scripts (run.json). */
static void add_awareness(umb_header *h, const umb_bench *b)
{
    const umb_aware_facts *f = &b->facts;
    umb_strbuf j = {0};
    umb_sb_printf(&j, "{\"verdict\":\"%s\",\"library\":\"%s\",\"library_query\":", umb_verdict_name(b->aware),
                  umb_cuda_aware_name(f->library));
    umb_sb_json_string(&j, f->library_how ? f->library_how : "");
    umb_sb_json_field(&j, "pml", f->pml);
    umb_sb_json_field(&j, "pml_from", f->pml_how ? f->pml_how : "");
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

/* Rank 0: the program, the date, the MPI library and its CUDA-awareness,
   UCX and CUDA. */
static void add_software(umb_header *h, const umb_bench *b)
{
    const umb_options *o = &b->opt;
    char s[LINE * 4], t[LINE];
    time_t now = time(NULL);
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
}

/* Rank 0: the buffers as given, and how managed ones are placed. */
static void add_buffers(umb_header *h, const umb_bench *b)
{
    const umb_options *o = &b->opt;
    char t[LINE];
    umb_header_str(h, "buffers", "Buffers", "%s", b->buffers);
    if (o->m_given >> o->pair & 1u) umb_header_str(h, "note", "Note", "buffer M is read as MH (managed, placed on the host), as OMB does");
    if (umb_options_uses(o, umb_kind_is_managed)) {
        umb_header_str(h, "placement", "Placement", "%s, %s; never inside the timed region",
                       o->place_with == UMB_PLACE_KERNEL ? "kernel (a GPU kernel writes every page for MD, the CPU for MH)"
                                                          : "prefetch (cudaMemPrefetchAsync)",
                       o->place_when == UMB_PLACE_EACH ? "before every measured operation" : "once per message size, before warm-up");
        umb_advise_string(o->advise, t, sizeof t);
        umb_header_str(h, "hints", "Hints", "%s", t);
        if (umb_options_uses(o, is_on_device_managed) && o->place_with == UMB_PLACE_KERNEL)
            umb_header_str(h, "placement_note", "Placement note",
                           "the driver may leave MD pages that bounce between CPU and GPU on the host after a touch "
                           "kernel; the check finds them%s (docs/method.md)",
                           o->place_check == UMB_CHECK_ENFORCE ? " and prefetch places them (Re-placed)"
                           : o->place_check == UMB_CHECK_OBSERVE ? " and the row shows them (Placed %, Not-held)" : " only when on");
    } else {
        umb_header_str(h, "placement", "Placement", "none (no managed buffers)");
        umb_header_str(h, "hints", "Hints", "none");
    }
}

void umb_header_facts(umb_bench *b, umb_header *h)
{
    rank_info mine, *all = NULL;
    my_rank_info(b, &mine);
    if (b->rank == 0) all = umb_xmalloc(sizeof *all * (size_t)b->nranks, "rank information");
    UMB_MPI_CHECK(MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD));
    if (b->rank != 0) return;
    keep_rank_facts(b, all);
    memset(h, 0, sizeof *h);
    add_software(h, b);
    umb_header_num(h, "nranks", "Ranks", b->nranks);
    add_ranks(h, all, b->nranks);
    free(all);
    add_buffers(h, b);
}

void umb_header_limits(umb_bench *b, umb_header *h)
{
    if (b->rank != 0) return;
    const umb_options *o = &b->opt;
    long first, skip, first_large, skip_large;  /* a precision's first attempt, else the fixed counts */
    umb_iterations(o, b->cli, 1, &first, &skip);
    umb_iterations(o, b->cli, b->cli->large_size + 1, &first_large, &skip_large);
    umb_header_str(h, "iterations", "Iterations", "%s%ld (warm-up %ld); above %zu bytes: %ld (warm-up %ld)",
                   umb_options_precision(o) ? "as the precision needs, from " : "", first, skip,
                   b->cli->large_size, first_large, skip_large);
    umb_header_str(h, "validation", "Validation", "%s", o->validate ? "on: every byte of every message" : "off");
    if (o->timeout > 0) umb_header_str(h, "timeout", "Timeout", "%g s without progress ends the job", o->timeout);
    if (umb_options_uses(o, is_device) && b->aware == UMB_VERDICT_UNKNOWN && !o->assume_cuda_aware)
        umb_header_str(h, "warning", "Warning", "cannot tell whether this MPI is CUDA-aware; D buffers may crash it "
                       "(--assume-cuda-aware silences this)");
}

void umb_bench_header_print(umb_bench *b, umb_header *h)
{
    if (b->rank != 0) return;
    umb_header_print(h, b->opt.format, stdout);
    umb_header_free(h);
}
