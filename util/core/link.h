/* The bound of a path (docs/method.md, "The bound of a path"): nominal
   one-direction figures of a PCIe link and of NVLink, the link between two
   GPUs as nvidia-smi topo -m and NVML name it, and a parser of
   `nvidia-smi topo -m`. Pure: no CUDA, no NVML, no MPI (util/gpu/topo.h
   reads the links of a machine). Every GB/s here is 10^9 bytes/s. */
#ifndef UMB_LINK_H
#define UMB_LINK_H

#include <stddef.h>

/* One direction of the link text umb_pcie_link writes ("Gen5 x16 (max
   Gen5 x16)"): GT/s x lanes x encoding / 8 at the maximum generation and
   width (an idle GPU trains its link down; sysinfo.c): 8b/10b for Gen1-2,
   128b/130b for Gen3-5, 242/256 for Gen6's FLIT mode. Gen5 x16: 63.0.
   NAN when the text has no "max GenG xW". */
double umb_pcie_gbs(const char *link);
/* "63.0 GB/s per direction (PCIe Gen5 x16: 32 GT/s x 16 lanes x 128/130 / 8)",
   or "unknown (PCIe link: TEXT)". */
void umb_pcie_bound_text(const char *link, char *buf, size_t n);

/* One NVLink, one direction, by generation (1-5): 20, 25, 25, 25, 50;
   NAN for any other. */
double umb_nvlink_gbs_per_link(int generation);
/* nvmlDeviceGetNvLinkVersion answers an nvmlNvlinkVersion_t, not a
   generation: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1, 6 = 4.0, 7 = 5.0.
   The generation (1-5), or 0 for an unknown value. */
int umb_nvlink_gen_from_nvml(unsigned nvml_version);
/* The NVLink generation of a data-center GPU architecture: 6.0 (P100) 1,
   7.0 (V100) 2, 8.0 (A100) 3, 9.0 (H100, H200) 4, 10.0 (B200) 5; 0 for
   others (no NVLink, or a generation this table does not know). */
int umb_nvlink_gen_from_cc(int cc_major, int cc_minor);

/* How two GPUs are connected. */
typedef enum {
    UMB_LINK_UNKNOWN = 0,
    UMB_LINK_SAME,    /* one GPU: both ends are the same device */
    UMB_LINK_NVLINK,  /* NVLink, directly or through NVSwitch */
    UMB_LINK_PCIE     /* PCIe: peer to peer through bridges, or through the host */
} umb_link_kind;

/* The PCIe path between two GPUs: the values of NVML's
   nvmlGpuTopologyLevel_t, the names nvidia-smi topo -m prints. */
typedef enum {
    UMB_LEVEL_UNKNOWN = -1,
    UMB_LEVEL_INTERNAL = 0,     /* one board (Tesla K80) */
    UMB_LEVEL_PIX = 10,         /* NVML SINGLE: at most one PCIe bridge */
    UMB_LEVEL_PXB = 20,         /* NVML MULTIPLE: several bridges, not the host bridge */
    UMB_LEVEL_PHB = 30,         /* NVML HOSTBRIDGE: through the host bridge */
    UMB_LEVEL_NODE = 40,        /* NVML NODE: between host bridges of one NUMA node */
    UMB_LEVEL_SYS = 50          /* NVML SYSTEM: across NUMA nodes */
} umb_pcie_level;

/* "PIX", ... ("INTERNAL", "unknown"). */
const char *umb_pcie_level_name(umb_pcie_level level);
/* "through the host bridge", ... */
const char *umb_pcie_level_words(umb_pcie_level level);
/* A name nvidia-smi prints (SOC, its old name for SYS, too): the level,
   or UMB_LEVEL_UNKNOWN. */
umb_pcie_level umb_pcie_level_parse(const char *name);

typedef struct {
    umb_link_kind kind;
    int nvlinks;           /* NVLink: links between the two GPUs (nvidia-smi's NV#) */
    int nvlink_gen;        /* NVLink: generation 1-5, 0 unknown */
    umb_pcie_level level;  /* the PCIe path (also known for NVLink pairs) */
    int peer;              /* peer access between the two: 1 yes, 0 no, -1 unknown */
    double bound_gbs;      /* nominal GB/s per direction of this link, NAN unknown */
    char why[256];         /* unknown: the reason; else empty or a note */
} umb_gpu_link;

/* An empty link: kind unknown, level unknown, peer -1, bound NAN. */
void umb_link_init(umb_gpu_link *l);
/* "same", "nvlink", "pcie", "unknown": a value for JSON and CSV. */
const char *umb_link_kind_name(umb_link_kind kind);
/* One line:
     "same GPU"
     "NV18 (NVLink 4, 18 links, 450 GB/s each way)"
     "PCIe, through the host bridge (PHB), peer access no, 63.0 GB/s each way"
     "unknown (no NVML: ...), peer access yes"                               */
void umb_link_format(const umb_gpu_link *l, char *buf, size_t n);
/* 100 x gbs / bound, NAN when either is unknown or the bound is not > 0. */
double umb_link_share_pct(double gbs, double bound_gbs);

/* The bound measured in the same run (util/gpu/bound.h, --measure-bound):
   median GB/s of pinned copies between host and one GPU, and of device
   copies from one GPU to another (or within one). */
typedef struct {
    double htod_gbs, dtoh_gbs;  /* NAN: not measured */
    double peer_gbs;            /* NAN: not measured */
    int gpu, peer_from, peer_to;
    int peer_access;            /* the peer copy: 1 GPU to GPU, 0 staged by the driver, -1 not measured */
    size_t bytes;               /* per copy */
    int copies, reps;           /* copies per repetition; timed repetitions */
    char why[192];              /* what was not measured, and why; empty when all was */
} umb_measured_bound;

/* Nothing measured: NANs, -1s, empty why. */
void umb_measured_init(umb_measured_bound *b);
/* "GPU 0 pinned HtoD 55.3 GB/s, DtoH 55.2 GB/s; peer 0->1 (peer access)
   389.1 GB/s; 64 MiB x 4 copies, median of 5", what was measured, with
   "not measured (why)" where nothing was. */
void umb_measured_format(const umb_measured_bound *b, char *buf, size_t n);

/* PCI addresses as umb_gpu_desc and NVML write them ("0000:19:00.0",
   "00000000:19:00.0", "19:00.0"; hex, any case): 0 and the parts, or -1. */
int umb_pci_addr_parse(const char *s, unsigned *domain, unsigned *bus, unsigned *dev, unsigned *fn);
/* 1 when both parse and name the same device (the function is ignored,
   as NVML's remote PCI info reports function 0). */
int umb_pci_addr_same(const char *a, const char *b);

/* ---- nvidia-smi topo -m ------------------------------------------------ */

#define UMB_TOPO_MAX_GPUS 64

typedef struct {
    umb_link_kind kind;    /* SAME for X, NVLINK for NV#, PCIE for the levels */
    umb_pcie_level level;  /* PCIE: the level */
    int nvlinks;           /* NVLINK: the # */
} umb_topo_entry;

typedef struct {
    int ngpus;
    umb_topo_entry e[UMB_TOPO_MAX_GPUS][UMB_TOPO_MAX_GPUS];
} umb_topo_matrix;

/* One entry of the matrix ("X", "NV18", "PHB", ...): 0, or -1. */
int umb_topo_entry_parse(const char *token, umb_topo_entry *e);
/* The GPU-to-GPU part of `nvidia-smi topo -m` output (tabs or spaces; the
   NIC columns and rows, affinities and legends are skipped): 0, or -1 with
   one line in why naming what is wrong. Checks the diagonal (X and only
   there), that every GPU has its row, and that the matrix is symmetric. */
int umb_topo_parse(const char *text, umb_topo_matrix *m, char *why, size_t n);
/* An entry as a link: kind, nvlinks and level (no generation, no bound;
   nvidia-smi topo -m prints neither). */
void umb_topo_entry_link(const umb_topo_entry *e, umb_gpu_link *l);
/* The two GPUs farthest apart in the table, a < b: PCIe before NVLink,
   the highest PCIe level, the fewest NVLinks; among pairs alike (NVSwitch:
   every pair NV18), the pair furthest apart in index, the first such (0
   and the last: on an HGX board, across its two sockets). -1, -1 with
   fewer than two GPUs. link_topo.c. */
void umb_topo_farthest(const umb_topo_matrix *m, int *a, int *b);

#endif
