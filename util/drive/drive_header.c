/* The single-node drivers' report (drive.h): the header (with the PCIe
   limit of util/core/link.h), the counter columns and the end of a run. */
#include "drive_header.h"

#include "counters.h"
#include "cupti_um.h"

#include "config.h"
#include "env.h"
#include "error.h"
#include "gpu.h"
#include "link.h"
#include "strbuf.h"
#include "sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* `gpus`: an object per GPU in JSON, two '#' lines each in the table (with
   HMM, whether the GPU may read pageable memory, where `hmm` is set). */
static void header_gpus(umb_header *h, const umb_drive *d, int hmm)
{
    umb_strbuf json = {0}, text = {0};
    umb_sb_printf(&json, "[");
    for (int i = 0; i < d->ndevices; i++) {
        umb_gpu_desc g;
        char link[128], limit_desc[160];
        umb_gpu_describe(d->devices[i], &g);
        umb_pcie_link(g.pci_bus, link, sizeof link);
        double limit = umb_pcie_gbs(link);
        umb_pcie_bound_text(link, limit_desc, sizeof limit_desc);
        int node = umb_pci_numa_node(g.pci_bus);
        umb_sb_printf(&json, "%s{\"gpu\":%d,\"name\":", i ? "," : "", d->devices[i]);
        umb_sb_json_string(&json, g.name);
        umb_sb_json_field(&json, "pci_bus", g.pci_bus);
        umb_sb_json_field(&json, "pcie", link);
        umb_sb_printf(&json, ",\"link_limit_gbs\":");
        umb_sb_json_number(&json, limit > 0 ? limit : NAN);
        umb_sb_printf(&json, ",\"numa\":%d,\"memory\":%zu,\"pageable_access\":%d}", node, g.total_memory,
                      g.pageable_access);
        umb_sb_printf(&text, "# GPU %d: %s (%s, PCIe %s, NUMA node %d, %.1f GiB%s)\n# Link limit GPU %d: %s\n",
                      d->devices[i], UMB_SHOWN(g.name), UMB_SHOWN(g.pci_bus), UMB_SHOWN(link), node,
                      (double)g.total_memory / 1073741824.0, !hmm ? "" : g.pageable_access ? ", HMM yes" : ", HMM no",
                      d->devices[i], UMB_SHOWN(limit_desc));
    }
    umb_sb_printf(&json, "]");
    umb_header_json(h, "gpus", json.s, text.s ? text.s : "");
    umb_sb_free(&json);
    umb_sb_free(&text);
}

void umb_drive_header(umb_header *h, const umb_drive *d, const umb_drive_cli *cli)
{
    char host[256], cpus[256], numa[64], ver[256], drv[64], t[64];
    unsigned g = cli->common ? cli->common : UMB_DRIVE_COPY;
    time_t now = time(NULL);
    memset(h, 0, sizeof *h);
    umb_hostname(host, sizeof host);
    umb_cpu_binding(cpus, sizeof cpus);
    umb_cpu_numa(numa, sizeof numa);
    umb_gpu_versions(ver, sizeof ver);
    umb_nvidia_driver(drv, sizeof drv);
    strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    umb_header_str(h, "program", "Program", "%s (umbench %s): %s", cli->program, PACKAGE_VERSION, cli->summary);
    umb_header_str(h, "date", "Date", "%s", t);
    umb_header_str(h, "host", "Host", "%s", host);
    umb_header_str(h, "cpus", "CPUs", "%s (NUMA %s)", cpus, numa);
    if ((g & UMB_DRIVE_HOST) && d->numa_node >= 0)
        umb_header_str(h, "numa_binding", "NUMA binding", "node %d: process runs there, host buffers allocated there (--numa-node)", d->numa_node);
    else if (g & UMB_DRIVE_HOST)
        umb_header_str(h, "numa_binding", "NUMA binding", "none (the kernel's default policy)");
    umb_header_str(h, "cuda", "CUDA", "%s, NVIDIA kernel driver %s", ver, drv);
    header_gpus(h, d, (g & UMB_DRIVE_KERNEL) != 0);
    if (g & UMB_DRIVE_SIZES) umb_header_str(h, "sizes", "Sizes", "%s", d->sizes_given);
    if (g & UMB_DRIVE_REPEAT) umb_header_num(h, "repetitions", "Repetitions", (double)d->repeat);
    if (g & UMB_DRIVE_HOST)
        umb_header_str(h, "flush", "Cache flush", "%s", d->flush ? "on: a buffer larger than the last-level cache is written before every repetition" : "off");
}

int umb_drive_counter_cols(const umb_counts *moved, const umb_counts *placed, long reps, umb_col *cols)
{
    return umb_counter_cols(cols, "", "/rep", "", "_per_rep", moved, placed, reps > 0 ? 1.0 / (double)reps : NAN);
}

void umb_drive_counters_start(const char *program, char *note, size_t n)
{
    char why[256] = "";
    if (!umb_cupti_built()) {
        fprintf(stderr, "%s: --counters needs CUPTI, but this build has none (configure found no "
                "cupti.h/libcupti.so; --with-cupti=DIR names it)\n", program);
        exit(UMB_EXIT_USAGE);
    }
    /* Before any CUDA context, so CUPTI sees all of it. */
    if (umb_gpu_count(why, sizeof why) > 0 && !umb_counters_start(1, note, n))
        fprintf(stderr, "%s: note: --counters: %s; counting getrusage faults only\n", program, note);
}

int umb_drive_end(const umb_drive *d, const umb_drive_cli *cli, const umb_fold_check *check)
{
    static const char *what = "each read pass's sum of the 32-bit words it read equals what was written times "
                              "the words the pattern reads (a word lost, changed, or read more or fewer times fails)";
    if (check->runs && d->format == UMB_FMT_JSON) {
        umb_strbuf b = {0};
        umb_sb_printf(&b, "{\"type\":\"check\"");
        umb_sb_json_field(&b, "program", cli->program);
        umb_sb_json_field(&b, "result", check->failed ? "fail" : "pass");
        umb_sb_printf(&b, ",\"runs\":%ld,\"failed\":%ld", check->runs, check->failed);
        umb_sb_json_field(&b, "first_failure", check->first);
        umb_sb_json_field(&b, "what", what);
        umb_sb_printf(&b, "}\n");
        fputs(b.s, stdout);
        umb_sb_free(&b);
    } else if (check->runs && !check->failed) {
        printf("# Check: Pass: %ld runs; %s\n", check->runs, what);
    } else if (check->runs) {
        printf("# Check: Fail: %ld of %ld runs; first %s\n", check->failed, check->runs, check->first);
    }
    umb_counters_footer(d->format, stdout);
    if (check->failed) fprintf(stderr, "%s: read check failed: %s\n", cli->program, check->first);
    return umb_output_end(cli->program, d->format, 1, check->failed ? UMB_EXIT_INVALID : UMB_EXIT_OK);
}

void umb_drive_corrupt(void *p, size_t bytes)
{
#ifndef UMB_TEST_HOOKS
    (void)p, (void)bytes;  /* an installed driver reads no test variable */
#else
    long w;
    char err[256];
    umb_env_state st = umb_env_long("UMB_TEST_CORRUPT_WORD", 0, (long)(bytes / 4) - 1, &w, err, sizeof err);
    if (st == UMB_ENV_ABSENT) return;
    if (st == UMB_ENV_BAD) {
        fprintf(stderr, "%s\n", err);
        exit(UMB_EXIT_USAGE);
    }
    umb_access_corrupt_word(p, (size_t)w);
#endif
}
