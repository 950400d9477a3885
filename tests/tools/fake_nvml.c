/* A stand-in libnvidia-ml.so.1 for tests/unit/topo_nvml.sh: the NVML calls
   util/gpu/topo.c makes, answering for a made-up machine that
   UMB_FAKE_NVML names (NVML values as in nvml.h):
     switch  4 GPUs, 18 links each to NVSwitches, version 6 (4.0), cc 9.0
     hidden  the same, but the switches cannot be named (as in a VM)
     direct  2 GPUs, 4 links between them, 2 down; version 7 on a cc 9.0 GPU
     pcie    2 GPUs, no NVLink, a host bridge between, peer reads refused
     fail    nvmlInit fails (no driver)
   GPUs are at 00fe:1X:00.0 (X = 0..3), switches at 00fe:aY:00.0: no such
   domain in sysfs, so nothing real is read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int ret;
enum { OK = 0, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, NOT_FOUND = 6, DRIVER_NOT_LOADED = 9 };
typedef struct {
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} pci_info;

static struct gpu { int index; } gpus[4] = {{0}, {1}, {2}, {3}};

static const char *machine(void)
{
    const char *m = getenv("UMB_FAKE_NVML");
    return m ? m : "switch";
}
static int is(const char *name) { return !strcmp(machine(), name); }
static int ngpus(void) { return is("direct") || is("pcie") ? 2 : 4; }
static int nlinks(void) { return is("direct") ? 6 : is("pcie") ? 0 : 18; }  /* link indices the GPU has */

ret nvmlInit_v2(void) { return is("fail") ? DRIVER_NOT_LOADED : OK; }

const char *nvmlErrorString(ret r)
{
    switch (r) {
    case OK: return "Success";
    case INVALID_ARGUMENT: return "Invalid Argument";
    case NOT_SUPPORTED: return "Not Supported";
    case NOT_FOUND: return "Not Found";
    case DRIVER_NOT_LOADED: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}

ret nvmlDeviceGetHandleByPciBusId_v2(const char *bus, struct gpu **d)
{
    unsigned dom, b, dev;
    if (sscanf(bus, "%x:%x:%x", &dom, &b, &dev) != 3) return INVALID_ARGUMENT;
    if (dom != 0xfe || dev != 0 || b < 0x10 || b >= 0x10u + (unsigned)ngpus()) return NOT_FOUND;
    *d = &gpus[b - 0x10];
    return OK;
}

ret nvmlDeviceGetTopologyCommonAncestor(struct gpu *a, struct gpu *b, int *level)
{
    /* Two sockets: GPUs 0-1 and 2-3 (NODE within, SYSTEM across); the two
       GPUs of the 2-GPU machines share a host bridge. */
    *level = ngpus() == 2 ? 30 : (a->index < 2) == (b->index < 2) ? 40 : 50;
    return OK;
}

ret nvmlDeviceGetNvLinkState(struct gpu *d, unsigned link, int *active)
{
    (void)d;
    if ((int)link >= nlinks()) return INVALID_ARGUMENT;
    *active = !(is("direct") && link >= 4);
    return OK;
}

ret nvmlDeviceGetNvLinkRemotePciInfo_v2(struct gpu *d, unsigned link, pci_info *p)
{
    if ((int)link >= nlinks()) return INVALID_ARGUMENT;
    if (is("hidden")) return NOT_SUPPORTED;
    memset(p, 0, sizeof *p);
    p->domain = 0xfe;
    p->bus = is("direct") ? 0x10u + (unsigned)(1 - d->index) : 0xa0u + link % 4;  /* the other GPU, or a switch */
    snprintf(p->busId, sizeof p->busId, "%08X:%02X:%02X.0", p->domain, p->bus, p->device);
    snprintf(p->busIdLegacy, sizeof p->busIdLegacy, "%04X:%02X:%02X.0", p->domain, p->bus, p->device);
    return OK;
}

ret nvmlDeviceGetNvLinkRemoteDeviceType(struct gpu *d, unsigned link, int *type)
{
    (void)d;
    if ((int)link >= nlinks()) return INVALID_ARGUMENT;
    if (is("hidden")) return NOT_SUPPORTED;
    *type = is("direct") ? 0 : 2;  /* GPU, switch */
    return OK;
}

ret nvmlDeviceGetNvLinkVersion(struct gpu *d, unsigned link, unsigned *v)
{
    (void)d;
    if ((int)link >= nlinks()) return INVALID_ARGUMENT;
    *v = is("direct") ? 7 : 6;
    return OK;
}

ret nvmlDeviceGetP2PStatus(struct gpu *a, struct gpu *b, int index, int *status)
{
    (void)a, (void)b;
    /* Index 0: read; 2: NVLink. pcie refuses reads: GPU not supported. */
    *status = is("pcie") ? (index == 0 ? 2 : 5) : 0;
    return OK;
}

ret nvmlDeviceGetCudaComputeCapability(struct gpu *d, int *major, int *minor)
{
    (void)d;
    *major = 9, *minor = 0;
    return OK;
}
