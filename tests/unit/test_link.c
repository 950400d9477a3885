/* util/core/link.c: nominal PCIe and NVLink figures, the link text, PCI
   addresses, and the nvidia-smi topo -m parser on recorded outputs
   (tests/data/topo/, where the shapes come from). */
#include "check.h"
#include "link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int near(double a, double b) { return fabs(a - b) < 0.001; }

static void pcie(void)
{
    char t[160];
    CHECK(near(umb_pcie_gbs("Gen5 x16 (max Gen5 x16)"), 63.015));  /* docs/method.md, "The bound of a path": 63.0 */
    /* An idle GPU trains its link down: the maximum counts. */
    CHECK(near(umb_pcie_gbs("Gen1 x16 (max Gen4 x16)"), 31.508));
    CHECK(near(umb_pcie_gbs("Gen3 x8 (max Gen3 x8)"), 7.877));
    CHECK(near(umb_pcie_gbs("Gen2 x4 (max Gen2 x4)"), 2.0));
    CHECK(near(umb_pcie_gbs("Gen1 x1 (max Gen1 x1)"), 0.25));
    CHECK(near(umb_pcie_gbs("Gen6 x16 (max Gen6 x16)"), 64.0 * 16 * 242 / 256 / 8));
    CHECK(isnan(umb_pcie_gbs("unknown (no link attributes in /sys/bus/pci/devices/x)")));
    CHECK(isnan(umb_pcie_gbs("Gen7 x16 (max Gen7 x16)")));
    CHECK(isnan(umb_pcie_gbs("Gen5 x16 (max Gen5 x0)")));
    CHECK(isnan(umb_pcie_gbs(NULL)));
    umb_pcie_bound_text("Gen5 x16 (max Gen5 x16)", t, sizeof t);
    CHECK(!strcmp(t, "63.0 GB/s per direction (PCIe Gen5 x16: 32 GT/s x 16 lanes x 128/130 / 8)"));
    umb_pcie_bound_text("Gen2 x8 (max Gen2 x8)", t, sizeof t);
    CHECK_CONTAINS(t, "4.0 GB/s per direction (PCIe Gen2 x8: 5 GT/s x 8 lanes x 8/10 / 8)");
    umb_pcie_bound_text("garbage", t, sizeof t);
    CHECK(!strcmp(t, "unknown (PCIe link: garbage)"));
}

static void nvlink(void)
{
    CHECK(umb_nvlink_gbs_per_link(1) == 20);
    CHECK(umb_nvlink_gbs_per_link(2) == 25 && umb_nvlink_gbs_per_link(3) == 25 && umb_nvlink_gbs_per_link(4) == 25);
    CHECK(umb_nvlink_gbs_per_link(5) == 50);
    CHECK(isnan(umb_nvlink_gbs_per_link(0)) && isnan(umb_nvlink_gbs_per_link(6)) && isnan(umb_nvlink_gbs_per_link(-1)));
    /* NVML's enum, not a generation: A100 answers 5 (3.1), H100 6 (4.0). */
    CHECK(umb_nvlink_gen_from_nvml(1) == 1 && umb_nvlink_gen_from_nvml(3) == 2);
    CHECK(umb_nvlink_gen_from_nvml(4) == 3 && umb_nvlink_gen_from_nvml(5) == 3);
    CHECK(umb_nvlink_gen_from_nvml(6) == 4 && umb_nvlink_gen_from_nvml(7) == 5);
    CHECK(umb_nvlink_gen_from_nvml(0) == 0 && umb_nvlink_gen_from_nvml(8) == 0 && umb_nvlink_gen_from_nvml(~0u) == 0);
    CHECK(umb_nvlink_gen_from_cc(9, 0) == 4 && umb_nvlink_gen_from_cc(8, 0) == 3 && umb_nvlink_gen_from_cc(10, 0) == 5);
    CHECK(umb_nvlink_gen_from_cc(7, 0) == 2 && umb_nvlink_gen_from_cc(6, 0) == 1);
    CHECK(umb_nvlink_gen_from_cc(8, 6) == 0 && umb_nvlink_gen_from_cc(12, 0) == 0);
}

static void text(void)
{
    umb_gpu_link l;
    char t[256];
    umb_link_init(&l);
    CHECK(l.kind == UMB_LINK_UNKNOWN && l.peer == -1 && isnan(l.bound_gbs) && l.level == UMB_LEVEL_UNKNOWN);
    snprintf(l.why, sizeof l.why, "no NVML: libnvidia-ml.so.1: cannot open shared object file");
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "unknown (no NVML: libnvidia-ml.so.1: cannot open shared object file)"));
    l.peer = 1;
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "unknown (no NVML: libnvidia-ml.so.1: cannot open shared object file), peer access yes"));
    CHECK(!strcmp(umb_link_kind_name(l.kind), "unknown"));

    umb_link_init(&l);
    l.kind = UMB_LINK_SAME;
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "same GPU") && !strcmp(umb_link_kind_name(l.kind), "same"));

    umb_link_init(&l);
    l.kind = UMB_LINK_NVLINK, l.nvlinks = 18, l.nvlink_gen = 4, l.level = UMB_LEVEL_SYS, l.peer = 1;
    l.bound_gbs = l.nvlinks * umb_nvlink_gbs_per_link(l.nvlink_gen);
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "NV18 (NVLink 4, 18 links, 450 GB/s each way)") && !strcmp(umb_link_kind_name(l.kind), "nvlink"));
    l.nvlinks = 1, l.nvlink_gen = 0, l.bound_gbs = NAN, l.peer = 0;
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "NV1 (NVLink generation unknown, 1 link), peer access no"));

    umb_link_init(&l);
    l.kind = UMB_LINK_PCIE, l.level = UMB_LEVEL_PHB;
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "PCIe, through the host bridge (PHB)") && !strcmp(umb_link_kind_name(l.kind), "pcie"));
    l.peer = 0, l.bound_gbs = umb_pcie_gbs("Gen5 x16 (max Gen5 x16)"), l.level = UMB_LEVEL_SYS;
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "PCIe, across NUMA nodes (the CPUs' interconnect) (SYS), peer access no, 63.0 GB/s each way"));
    /* Cut short, never overrun. */
    char small[12];
    umb_link_format(&l, small, sizeof small);
    CHECK(!strcmp(small, "PCIe, acros"));

    CHECK(!strcmp(umb_pcie_level_name(UMB_LEVEL_PIX), "PIX") && !strcmp(umb_pcie_level_name(UMB_LEVEL_UNKNOWN), "unknown"));
    CHECK(umb_pcie_level_parse("NODE") == UMB_LEVEL_NODE && umb_pcie_level_parse("SOC") == UMB_LEVEL_SYS);
    CHECK(umb_pcie_level_parse("INTERNAL") == UMB_LEVEL_UNKNOWN && umb_pcie_level_parse("phb") == UMB_LEVEL_UNKNOWN);
    CHECK(near(umb_link_share_pct(55.3, 63.015), 87.757));
    CHECK(isnan(umb_link_share_pct(55.3, NAN)) && isnan(umb_link_share_pct(NAN, 63)) && isnan(umb_link_share_pct(1, 0)));
}

static void measured(void)
{
    umb_measured_bound b;
    char t[300];
    umb_measured_init(&b);
    CHECK(isnan(b.htod_gbs) && isnan(b.dtoh_gbs) && isnan(b.peer_gbs) && b.peer_access == -1 && b.gpu == -1);
    umb_measured_format(&b, t, sizeof t);
    CHECK(!strcmp(t, "not measured"));
    snprintf(b.why, sizeof b.why, "host-only build");
    umb_measured_format(&b, t, sizeof t);
    CHECK(!strcmp(t, "not measured: host-only build"));
    b.why[0] = '\0';
    b.gpu = 0, b.htod_gbs = 55.31, b.dtoh_gbs = 55.24, b.bytes = 64 << 20, b.copies = 4, b.reps = 5;
    umb_measured_format(&b, t, sizeof t);
    CHECK(!strcmp(t, "GPU 0 pinned HtoD 55.3 GB/s, DtoH 55.2 GB/s; 64 MiB x 4 copies, median of 5"));
    b.peer_from = 0, b.peer_to = 1, b.peer_access = 1, b.peer_gbs = 389.12;
    umb_measured_format(&b, t, sizeof t);
    CHECK(!strcmp(t, "GPU 0 pinned HtoD 55.3 GB/s, DtoH 55.2 GB/s; peer 0->1 (peer access) 389.1 GB/s; 64 MiB x 4 copies, median of 5"));
    b.htod_gbs = b.dtoh_gbs = NAN, b.peer_access = 0;
    snprintf(b.why, sizeof b.why, "pinned memory on GPU 0: out of memory");
    umb_measured_format(&b, t, sizeof t);
    CHECK(!strcmp(t, "peer 0->1 (staged by the driver) 389.1 GB/s; 64 MiB x 4 copies, median of 5; not measured: pinned memory on GPU 0: out of memory"));
    b.peer_to = 0, b.why[0] = '\0';
    umb_measured_format(&b, t, sizeof t);
    CHECK_CONTAINS(t, "peer 0->0 (within the GPU) 389.1 GB/s");
}

static void pci(void)
{
    unsigned d, b, v, f;
    CHECK(umb_pci_addr_parse("0000:19:00.0", &d, &b, &v, &f) == 0 && d == 0 && b == 0x19 && v == 0 && f == 0);
    CHECK(umb_pci_addr_parse("00000001:C7:1f.3", &d, &b, &v, &f) == 0 && d == 1 && b == 0xc7 && v == 0x1f && f == 3);
    CHECK(umb_pci_addr_parse("9A:00.0", &d, &b, &v, &f) == 0 && d == 0 && b == 0x9a && v == 0);
    CHECK(umb_pci_addr_parse("0000:19:00", &d, &b, &v, &f) == -1);
    CHECK(umb_pci_addr_parse("0000:19:20.0", &d, &b, &v, &f) == -1);   /* device > 0x1f */
    CHECK(umb_pci_addr_parse("0000:119:00.0", &d, &b, &v, &f) == -1);
    CHECK(umb_pci_addr_parse("0000:19:00.0x", &d, &b, &v, &f) == -1);
    CHECK(umb_pci_addr_parse("", &d, &b, &v, &f) == -1 && umb_pci_addr_parse(NULL, &d, &b, &v, &f) == -1);
    /* CUDA's lower-case four-digit domain against NVML's eight upper-case digits. */
    CHECK(umb_pci_addr_same("0000:9a:00.0", "00000000:9A:00.0"));
    CHECK(!umb_pci_addr_same("0000:9a:00.0", "0000:9b:00.0"));
    CHECK(!umb_pci_addr_same("0000:9a:00.0", "0001:9a:00.0"));
    CHECK(!umb_pci_addr_same("0000:9a:00.0", "unknown"));
}

static char *slurp(const char *name)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/topo/%s", top ? top : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "test_link: cannot open %s (set top_srcdir)\n", path);
        exit(1);
    }
    static char buf[65536];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static umb_topo_matrix m;  /* 48 KiB: not on the stack */

static int parse_file(const char *name)
{
    char why[200] = "";
    int rc = umb_topo_parse(slurp(name), &m, why, sizeof why);
    if (rc) fprintf(stderr, "%s: %s\n", name, why);
    return rc;
}

/* Every off-diagonal entry of the matrix has this kind, links and level. */
static int all_off_diagonal(umb_link_kind kind, int nvlinks, umb_pcie_level level)
{
    for (int i = 0; i < m.ngpus; i++)
        for (int j = 0; j < m.ngpus; j++) {
            const umb_topo_entry *e = &m.e[i][j];
            if (i == j ? e->kind != UMB_LINK_SAME : e->kind != kind || e->nvlinks != nvlinks || e->level != level)
                return 0;
        }
    return 1;
}

static void topo_files(void)
{
    umb_gpu_link l;
    char t[200];
    CHECK(parse_file("hgx_h100_8gpu_nv18.txt") == 0);
    CHECK(m.ngpus == 8 && all_off_diagonal(UMB_LINK_NVLINK, 18, UMB_LEVEL_UNKNOWN));
    umb_topo_entry_link(&m.e[0][7], &l);
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "NV18 (NVLink generation unknown, 18 links)"));

    CHECK(parse_file("h100_2gpu_nv18.txt") == 0);
    CHECK(m.ngpus == 2 && all_off_diagonal(UMB_LINK_NVLINK, 18, UMB_LEVEL_UNKNOWN));

    /* The topo -p2p matrix after it (GPU0 X GNS) is not read as a second table. */
    CHECK(parse_file("pcie_2gpu_phb.txt") == 0);
    CHECK(m.ngpus == 2 && all_off_diagonal(UMB_LINK_PCIE, 0, UMB_LEVEL_PHB));
    umb_topo_entry_link(&m.e[1][0], &l);
    umb_link_format(&l, t, sizeof t);
    CHECK(!strcmp(t, "PCIe, through the host bridge (PHB)"));

    CHECK(parse_file("pcie_2gpu_sys.txt") == 0);  /* CRLF */
    CHECK(m.ngpus == 2 && all_off_diagonal(UMB_LINK_PCIE, 0, UMB_LEVEL_SYS));

    CHECK(parse_file("pcie_8gpu_pix_phb_sys.txt") == 0);
    CHECK(m.ngpus == 8);
    CHECK(m.e[0][1].kind == UMB_LINK_PCIE && m.e[0][1].level == UMB_LEVEL_PIX);
    CHECK(m.e[0][2].level == UMB_LEVEL_PHB && m.e[2][3].level == UMB_LEVEL_PIX && m.e[3][4].level == UMB_LEVEL_SYS);
    CHECK(m.e[7][6].level == UMB_LEVEL_PIX && m.e[7][7].kind == UMB_LINK_SAME);
}

/* The two GPUs farthest apart (issue 52's umb_bw between them). */
static void topo_farthest(void)
{
    char why[200];
    int a, b;
    CHECK(parse_file("hgx_h100_8gpu_nv18.txt") == 0);
    umb_topo_farthest(&m, &a, &b);
    CHECK(a == 0 && b == 7);  /* every pair NV18: the widest apart, across the board's sockets */
    CHECK(parse_file("pcie_8gpu_pix_phb_sys.txt") == 0);
    umb_topo_farthest(&m, &a, &b);
    CHECK(a >= 0 && b > a && m.e[a][b].level == UMB_LEVEL_SYS);
    for (int i = 0; i < m.ngpus; i++)  /* no SYS pair further apart in index */
        for (int j = i + 1; j < m.ngpus; j++) CHECK(m.e[i][j].level != UMB_LEVEL_SYS || j - i <= b - a);
    CHECK(parse_file("pcie_2gpu_phb.txt") == 0);
    umb_topo_farthest(&m, &a, &b);
    CHECK(a == 0 && b == 1);
    /* The fewest NVLinks, and PCIe beyond any NVLink. */
    CHECK(umb_topo_parse("\tGPU0\tGPU1\tGPU2\nGPU0\t X \tNV4\tNV2\nGPU1\tNV4\t X \tNV4\nGPU2\tNV2\tNV4\t X \n", &m, why, sizeof why) == 0);
    umb_topo_farthest(&m, &a, &b);
    CHECK(a == 0 && b == 2);
    CHECK(umb_topo_parse("\tGPU0\tGPU1\tGPU2\nGPU0\t X \tPHB\tNV12\nGPU1\tPHB\t X \tNV12\nGPU2\tNV12\tNV12\t X \n", &m, why, sizeof why) == 0);
    umb_topo_farthest(&m, &a, &b);
    CHECK(a == 0 && b == 1);
    CHECK(umb_topo_parse("\tGPU0\tCPU Affinity\nGPU0\t X \t0-15\n", &m, why, sizeof why) == 0);
    umb_topo_farthest(&m, &a, &b);
    CHECK(a == -1 && b == -1);
}

/* Bad tables: -1 and a line naming the fault. */
static void topo_bad(void)
{
    char why[200];
    struct {
        const char *text, *names;
    } bad[] = {
        {"", "no header line naming GPU0"},
        {"Fri Nov 21 10:00:00 2025\nNVIDIA-SMI has failed\n", "no header line naming GPU0"},
        {"\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\n", "no row for GPU1"},
        {"\tGPU0\tGPU1\nGPU0\t X \tNVX\nGPU1\tNV4\t X \n", "row GPU0, column GPU1: 'NVX'"},
        {"\tGPU0\tGPU1\nGPU0\t X \tFOO\nGPU1\tFOO\t X \n", "'FOO' is not a topology entry"},
        {"\tGPU0\tGPU1\nGPU0\tPHB\tPHB\nGPU1\tPHB\t X \n", "'PHB' on the diagonal"},
        {"\tGPU0\tGPU1\nGPU0\t X \t X \nGPU1\tPHB\t X \n", "'X' is X off the diagonal"},
        {"\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV2\t X \n", "GPU1 to GPU0 and GPU0 to GPU1 differ"},
        {"\tGPU0\tGPU1\tGPU2\nGPU0\t X \tPHB\nGPU1\tPHB\t X \tSYS\nGPU2\tSYS\tSYS\t X \n", "row GPU0 has 2 entries; the header names 3 GPUs"},
        {"\tGPU0\tGPU1\nGPU0\t X \tPHB\nGPU0\t X \tPHB\nGPU1\tPHB\t X \n", "row GPU0 appears twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        CHECK(umb_topo_parse(bad[i].text, &m, why, sizeof why) == -1);
        CHECK_CONTAINS(why, bad[i].names);
    }
    /* One GPU, as nvidia-smi prints it: the header underlined with terminal escapes. */
    CHECK(umb_topo_parse("\033[4m\tGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\033[0m\nGPU0\t X \t0-15\t0\t\tN/A\n",
                         &m, why, sizeof why) == 0);
    CHECK(m.ngpus == 1 && m.e[0][0].kind == UMB_LINK_SAME);
    umb_topo_entry e;
    CHECK(umb_topo_entry_parse("NV0", &e) == -1 && umb_topo_entry_parse("NV", &e) == -1 && umb_topo_entry_parse("NV2a", &e) == -1);
    CHECK(umb_topo_entry_parse("SOC", &e) == 0 && e.kind == UMB_LINK_PCIE && e.level == UMB_LEVEL_SYS);
    CHECK(umb_topo_entry_parse("NV12", &e) == 0 && e.kind == UMB_LINK_NVLINK && e.nvlinks == 12);
}

int main(void)
{
    pcie();
    nvlink();
    text();
    measured();
    pci();
    topo_files();
    topo_farthest();
    topo_bad();
    return check_done("test_link");
}
