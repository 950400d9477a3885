/* topo.h through NVML (NVML API reference: nvmlDeviceGetTopologyCommonAncestor,
   nvmlDeviceGetNvLink*, nvmlDeviceGetP2PStatus), loaded with dlopen as
   util/gpu/cupti_um.c loads CUPTI; the CUDA runtime when NVML is missing. */
#include "topo.h"

#include "sysinfo.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The few declarations of nvml.h used here, with NVML's values (nvml.h is
   not in every CUDA toolkit: it ships with the GPU deployment kit). */
typedef int nvml_return;             /* nvmlReturn_t: NVML_SUCCESS 0 */
typedef struct nvml_device *nvml_device;
typedef struct {                     /* nvmlPciInfo_t */
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvml_pci_info;
enum {
    NVML_SUCCESS = 0,
    NVML_FEATURE_ENABLED = 1,          /* nvmlEnableState_t */
    NVML_P2P_CAPS_INDEX_READ = 0,      /* nvmlGpuP2PCapsIndex_t */
    NVML_P2P_CAPS_INDEX_NVLINK = 2,
    NVML_P2P_STATUS_OK = 0,            /* nvmlGpuP2PStatus_t */
    NVML_NVLINK_DEVICE_TYPE_SWITCH = 2,  /* nvmlIntNvLinkDeviceType_t: GPU 0, IBMNPU 1 */
    NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xff,
};
/* Link indices probed: NVML_NVLINK_MAX_LINKS is 18 in NVML 12 and 36 in
   NVML 13; a GPU answers an error for the indices it does not have. */
#define PROBE_LINKS 36

static struct {
    int tried, ok;
    char why[128];
    nvml_return (*init)(void);
    const char *(*error_string)(nvml_return);
    nvml_return (*by_bus)(const char *, nvml_device *);
    nvml_return (*ancestor)(nvml_device, nvml_device, int *);
    nvml_return (*link_state)(nvml_device, unsigned, int *);
    nvml_return (*link_remote)(nvml_device, unsigned, nvml_pci_info *);
    nvml_return (*link_version)(nvml_device, unsigned, unsigned *);
    nvml_return (*p2p_status)(nvml_device, nvml_device, int, int *);
    /* Optional: older drivers lack them. */
    nvml_return (*link_remote_type)(nvml_device, unsigned, int *);
    nvml_return (*cc)(nvml_device, int *, int *);
} api;

static int load(void)
{
    if (api.tried) return api.ok;
    api.tried = 1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(api.why, sizeof api.why, "cannot load NVML: %s", dlerror());
        return 0;
    }
    static const struct {
        const char *name;
        void **fn;
        int optional;
    } syms[] = {
        {"nvmlInit_v2", (void **)&api.init, 0},
        {"nvmlErrorString", (void **)&api.error_string, 0},
        {"nvmlDeviceGetHandleByPciBusId_v2", (void **)&api.by_bus, 0},
        {"nvmlDeviceGetTopologyCommonAncestor", (void **)&api.ancestor, 0},
        {"nvmlDeviceGetNvLinkState", (void **)&api.link_state, 0},
        {"nvmlDeviceGetNvLinkRemotePciInfo_v2", (void **)&api.link_remote, 0},
        {"nvmlDeviceGetNvLinkVersion", (void **)&api.link_version, 0},
        {"nvmlDeviceGetP2PStatus", (void **)&api.p2p_status, 0},
        {"nvmlDeviceGetNvLinkRemoteDeviceType", (void **)&api.link_remote_type, 1},
        {"nvmlDeviceGetCudaComputeCapability", (void **)&api.cc, 1},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (!(*syms[i].fn = dlsym(lib, syms[i].name)) && !syms[i].optional) {
            snprintf(api.why, sizeof api.why, "NVML has no %s (driver too old)", syms[i].name);
            return 0;
        }
    nvml_return rc = api.init();
    if (rc != NVML_SUCCESS) {
        snprintf(api.why, sizeof api.why, "nvmlInit: %s", api.error_string(rc));
        return 0;
    }
    return api.ok = 1;
}

int umb_topo_nvml(char *why, size_t n)
{
    if (load()) return 1;
    snprintf(why, n, "%s", api.why);
    return 0;
}

/* Links of one GPU: to `other` directly, and to NVSwitches. */
typedef struct {
    int direct, switched;
    int first;  /* a link counted, for its version; -1 none */
} link_count;

static int remote_is(const nvml_pci_info *r, const char *bus)
{
    char addr[48];
    snprintf(addr, sizeof addr, "%x:%x:%x.0", r->domain, r->bus, r->device);
    return umb_pci_addr_same(addr, bus);
}

static void count_links(nvml_device d, const char *other, link_count *c)
{
    memset(c, 0, sizeof *c);
    c->first = -1;
    for (unsigned k = 0; k < PROBE_LINKS; k++) {
        int active = 0, type = -1;
        nvml_pci_info r;
        nvml_device peer;
        if (api.link_state(d, k, &active) != NVML_SUCCESS || active != NVML_FEATURE_ENABLED) continue;
        memset(&r, 0, sizeof r);
        int known = api.link_remote(d, k, &r) == NVML_SUCCESS;
        if (api.link_remote_type && api.link_remote_type(d, k, &type) != NVML_SUCCESS) type = -1;
        if (known && remote_is(&r, other)) c->direct++;
        else if (type == NVML_NVLINK_DEVICE_TYPE_SWITCH) c->switched++;
        else if (type >= 0 && type != NVML_NVLINK_DEVICE_TYPE_UNKNOWN) continue;  /* another GPU, a CPU */
        else if (known && api.by_bus(r.busId[0] ? r.busId : r.busIdLegacy, &peer) == NVML_SUCCESS) continue;
        else c->switched++;  /* a switch NVML cannot name (NCCL reads them so: a VM hides the switches) */
        if (c->first < 0) c->first = (int)k;
    }
}

static const char *p2p_words(int status)
{
    static const char *w[] = {"ok", "chipset not supported", "GPU not supported", "IOH topology not supported",
                              "disabled by regkey", "not supported", "unknown"};
    return status >= 0 && status < (int)(sizeof w / sizeof w[0]) ? w[status] : "unknown";
}

static double pcie_bound(const char *a, const char *b)
{
    char la[128], lb[128];
    umb_pcie_link(a, la, sizeof la);
    umb_pcie_link(b, lb, sizeof lb);
    double x = umb_pcie_gbs(la), y = umb_pcie_gbs(lb);
    return isnan(x) ? y : isnan(y) ? x : x < y ? x : y;
}

static void from_nvml(const char *a, const char *b, umb_gpu_link *l)
{
    nvml_device da, db;
    nvml_return rc;
    int level = -1, status = -1;
    const char *missing = (rc = api.by_bus(a, &da)) != NVML_SUCCESS ? a : (rc = api.by_bus(b, &db)) != NVML_SUCCESS ? b : NULL;
    if (missing) {
        snprintf(l->why, sizeof l->why, "NVML does not know GPU %s: %s", missing, api.error_string(rc));
        return;
    }
    if (api.ancestor(da, db, &level) == NVML_SUCCESS) l->level = (umb_pcie_level)level;
    if (api.p2p_status(da, db, NVML_P2P_CAPS_INDEX_READ, &status) == NVML_SUCCESS) l->peer = status == NVML_P2P_STATUS_OK;

    link_count ca, cb;
    count_links(da, b, &ca);
    count_links(db, a, &cb);
    int nvlinks = ca.direct;
    if (!nvlinks && ca.switched && cb.switched) {
        /* Through NVSwitch: each GPU's switch links; NVML must agree they
           reach each other over NVLink, where it can say. */
        int st = NVML_P2P_STATUS_OK;
        if (api.p2p_status(da, db, NVML_P2P_CAPS_INDEX_NVLINK, &st) != NVML_SUCCESS) st = NVML_P2P_STATUS_OK;
        if (st == NVML_P2P_STATUS_OK) nvlinks = ca.switched < cb.switched ? ca.switched : cb.switched;
    }
    if (nvlinks) {
        unsigned v = 0;
        int major = 0, minor = 0;
        l->kind = UMB_LINK_NVLINK;
        l->nvlinks = nvlinks;
        if (api.link_version(da, (unsigned)ca.first, &v) == NVML_SUCCESS) l->nvlink_gen = umb_nvlink_gen_from_nvml(v);
        /* The version is an enum some drivers have answered out of step
           (docs/method.md): the architecture's generation wins. */
        int by_cc = api.cc && api.cc(da, &major, &minor) == NVML_SUCCESS ? umb_nvlink_gen_from_cc(major, minor) : 0;
        if (by_cc && by_cc != l->nvlink_gen) {
            snprintf(l->why, sizeof l->why, "NVML's NVLink version %u read as NVLink %d, the generation of compute capability %d.%d",
                     v, by_cc, major, minor);
            l->nvlink_gen = by_cc;
        }
        l->bound_gbs = nvlinks * umb_nvlink_gbs_per_link(l->nvlink_gen);
        return;
    }
    if (l->level == UMB_LEVEL_UNKNOWN) {
        snprintf(l->why, sizeof l->why, "no NVLink between them, and NVML does not say how PCIe connects them");
        return;
    }
    l->kind = UMB_LINK_PCIE;
    l->bound_gbs = pcie_bound(a, b);
    if (l->peer == 0) snprintf(l->why, sizeof l->why, "peer read: %s", p2p_words(status));
}

/* Without NVML: what the CUDA runtime says about peer access. */
static void from_cuda(const char *a, const char *b, umb_gpu_link *l)
{
    int da, db, can = 0, rank = 0;
    cudaError_t rc;
    const char *missing = (rc = cudaDeviceGetByPCIBusId(&da, a)) != cudaSuccess   ? a
                          : (rc = cudaDeviceGetByPCIBusId(&db, b)) != cudaSuccess ? b
                                                                                  : NULL;
    if (missing) {
        cudaGetLastError();
        snprintf(l->why, sizeof l->why, "%s; CUDA does not see GPU %s either: %s", api.why, missing, cudaGetErrorString(rc));
        return;
    }
    if ((rc = cudaDeviceCanAccessPeer(&can, da, db)) != cudaSuccess) {
        cudaGetLastError();
        snprintf(l->why, sizeof l->why, "%s; cudaDeviceCanAccessPeer: %s", api.why, cudaGetErrorString(rc));
        return;
    }
    l->peer = can;
    if (can && cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, da, db) == cudaSuccess)
        snprintf(l->why, sizeof l->why, "%s; CUDA: peer performance rank %d", api.why, rank);
    else
        snprintf(l->why, sizeof l->why, "%s", api.why);
    cudaGetLastError();
}

void umb_topo_link(const char *bus_a, const char *bus_b, umb_gpu_link *link)
{
    umb_link_init(link);
    if (umb_pci_addr_same(bus_a, bus_b)) {
        link->kind = UMB_LINK_SAME;
        return;
    }
    if (load()) from_nvml(bus_a, bus_b, link);
    else from_cuda(bus_a, bus_b, link);
}
