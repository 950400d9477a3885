/* umb_copy: host<->device, device<->device and GPU<->GPU copy bandwidth
   for every kind of memory (docs/method.md, "Copy bandwidth"). This file
   holds the memory kinds, the combinations and the timed batch; the
   command line, sizes, NUMA and the header are util/drive.c's. */
#include "clock.h"
#include "counters.h"
#include "drive.h"
#include "error.h"
#include "gpu.h"
#include "kernels.h"
#include "output.h"
#include "pattern.h"
#include "placement.h"
#include "residency.h"
#include "stats.h"
#include "sysinfo.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t rc_ = (call);                                                             \
        if (rc_ != cudaSuccess) umb_fatal(#call, __FILE__, __LINE__, cudaGetErrorString(rc_)); \
    } while (0)

#define PROGRAM "umb_copy"
#define HOLD_TIMEOUT_MS 10000  /* nvbandwidth's spin-kernel timeout */
#define BATCH_BYTES ((size_t)256 << 20)
#define MAX_HELD_COPIES 64     /* keeps the queue behind a held stream short */

typedef enum { K_PAGEABLE, K_PINNED, K_WC, K_REGISTERED, K_MHOST, K_MDEV, K_DEVICE, NK } mkind;
typedef enum { D_HTOD, D_DTOH, D_DTOD, D_BIDIR, D_PEER, ND } mdir;
typedef enum { M_CE, M_SM, M_PREFETCH, M_DEMAND, NM } mmeth;

static const char *const kind_name[NK] = {"pageable", "pinned", "wc", "registered", "managed-host",
                                          "managed-device", "device"};
static const char *const dir_name[ND] = {"htod", "dtoh", "dtod", "bidir", "peer"};
static const char *const meth_name[NM] = {"ce", "sm", "prefetch", "demand"};

/* Why a combination makes no sense, or NULL. */
static const char *invalid(mkind k, mdir d, mmeth m)
{
    int host = k == K_PAGEABLE || k == K_PINNED || k == K_WC || k == K_REGISTERED;
    int um = m == M_PREFETCH || m == M_DEMAND;
    switch (d) {
    case D_HTOD:
        if (!host && k != K_MHOST) return "htod copies from host memory: pageable, pinned, wc, registered or managed-host";
        if (k == K_MHOST) return m == M_SM ? "a kernel reading managed memory is --method demand" : NULL;
        if (um) return "prefetch and demand move managed memory (managed-host for htod, managed-device for dtoh)";
        if (m == M_SM && k == K_PAGEABLE) return "sm reads pageable memory from the GPU, which needs HMM; use ce";
        return NULL;
    case D_DTOH:
        if (k == K_MDEV) return um ? NULL : "managed-device reaches the host by prefetch or demand; for ce use managed-host (the destination placed on the host)";
        if (k == K_MHOST) return m == M_CE ? NULL : "managed-host is a dtoh destination for ce only; prefetch and demand move managed-device";
        if (!host) return "dtoh copies into host memory: pageable, pinned, wc, registered, managed-host (or managed-device with prefetch, demand)";
        if (um) return "prefetch and demand move managed memory (managed-host for htod, managed-device for dtoh)";
        if (m == M_SM && k == K_PAGEABLE) return "sm writes pageable memory from the GPU, which needs HMM; use ce";
        return NULL;
    case D_DTOD:
        if (k != K_DEVICE && k != K_MDEV) return "dtod copies device or managed-device memory";
        return um ? "dtod copies with ce or sm" : NULL;
    case D_BIDIR:
        if (k != K_PINNED && k != K_WC && k != K_REGISTERED) return "bidir needs page-locked host memory (pinned, wc, registered): pageable copies block the host, so two directions cannot overlap";
        return m == M_CE ? NULL : "bidir runs both copy engines: ce only";
    case D_PEER:
        if (k != K_DEVICE) return "peer copies device memory between GPUs";
        return um ? "peer copies with ce or sm" : NULL;
    default:
        return "unknown direction";
    }
}

typedef struct {
    mkind kind;
    mdir dir;
    mmeth meth;
    int p2p;  /* peer: 1 with peer access on, 0 off */
} combo;

/* --memory, --direction, --method, --copies */
typedef struct {
    unsigned kinds, dirs, meths;   /* bits selected (all included), 0 = not given */
    unsigned named[3];             /* bits named one by one (not by all) */
    const char *args[3];           /* the lists as given */
    long copies;                   /* 0: chosen per size */
} copy_opts;

enum { OPT_MEMORY = 1000, OPT_DIRECTION, OPT_METHOD, OPT_COPIES };

static int parse_set(const char *opt, const char *arg, const char *const *names, int count, unsigned *bits,
                     unsigned *named, char *err, size_t n)
{
    char copy[256], list[160] = "";
    for (int i = 0; i < count; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    if (strlen(arg) >= sizeof copy || !arg[0] || arg[strlen(arg) - 1] == ',') goto bad;
    strcpy(copy, arg);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int i = 0;
        if (!strcmp(t, "all")) { *bits |= (1u << count) - 1; continue; }
        while (i < count && strcmp(t, names[i])) i++;
        if (i == count) {
            snprintf(err, n, "%s %s: unknown '%s'; accepted: %s, all (comma-separated)", opt, arg, t, list);
            return 1;
        }
        *bits |= 1u << i;
        *named |= 1u << i;
    }
    return 0;
bad:
    snprintf(err, n, "%s %s: expected a comma-separated list of %s, all", opt, arg, list);
    return 1;
}

static int own_parse(void *ctx, int val, const char *name, const char *arg, char *err, size_t n)
{
    copy_opts *o = ctx;
    if (val >= OPT_MEMORY && val <= OPT_METHOD) o->args[val - OPT_MEMORY] = arg;
    switch (val) {
    case OPT_MEMORY: return parse_set(name, arg, kind_name, NK, &o->kinds, &o->named[0], err, n);
    case OPT_DIRECTION: return parse_set(name, arg, dir_name, ND, &o->dirs, &o->named[1], err, n);
    case OPT_METHOD: return parse_set(name, arg, meth_name, NM, &o->meths, &o->named[2], err, n);
    case OPT_COPIES: {
        char *end;
        o->copies = strtol(arg, &end, 10);
        if (*end || end == arg || o->copies < 1 || o->copies > 1000) {
            snprintf(err, n, "--copies %s: expected copies per timed batch from 1 to 1000", arg);
            return 1;
        }
        return 0;
    }
    }
    return 1;
}

static const struct option own_options[] = {
    {"memory", required_argument, 0, OPT_MEMORY},
    {"kinds", required_argument, 0, OPT_MEMORY},
    {"direction", required_argument, 0, OPT_DIRECTION},
    {"method", required_argument, 0, OPT_METHOD},
    {"copies", required_argument, 0, OPT_COPIES},
    {0, 0, 0, 0}};

static copy_opts copt;
static int own_check(void *ctx, char *err, size_t n);
static const umb_drive_cli cli = {
    .program = PROGRAM,
    .summary = "copy bandwidth between host and GPU memory of every kind, and between GPUs",
    .quick = "4K,64K,1M,16M,256M",
    .repeat = 10,
    .own = own_options,
    .own_parse = own_parse,
    .ctx = &copt,
    .own_check = own_check,
    .own_usage =
        "What to measure (comma-separated lists, or all; default: the matrix below):\n"
        "      --memory LIST             pageable (malloc), pinned (cudaMallocHost), wc (write-combined\n"
        "                                pinned), registered (cudaHostRegister), managed-host, managed-device\n"
        "                                (cudaMallocManaged, placed there before every repetition), device\n"
        "      --direction LIST          htod, dtoh, dtod, bidir (htod and dtoh at once, two streams),\n"
        "                                peer (GPU to GPU, peer access on and off)\n"
        "      --method LIST             ce (cudaMemcpyAsync, copy engine), sm (copy kernel),\n"
        "                                prefetch (cudaMemPrefetchAsync), demand (page faults)\n"
        "      --copies N                copies per timed batch (default: 256 MiB worth, 2..64; managed 1)\n"
        "  Combinations that make no sense are skipped; a value given that fits none is refused.\n"
        "  Default: pageable, pinned, wc, registered, managed-host x htod, dtoh with ce; managed\n"
        "  prefetch and demand both ways; pinned bidir; device dtod; peer where there are 2+ GPUs.\n",
};

/* ---- the combinations ------------------------------------------------- */

static combo combos[512];
static int ncombos;

static void add(mkind k, mdir d, mmeth m)
{
    if (d == D_PEER && m == M_CE) {
        combos[ncombos++] = (combo){k, d, m, 1};
        combos[ncombos++] = (combo){k, d, m, 0};
    } else {
        combos[ncombos++] = (combo){k, d, m, d == D_PEER};
    }
}

/* Whether some combination has these (-1: any). */
static int fits(int k, int d, int m)
{
    for (int a = 0; a < NK; a++) for (int b = 0; b < ND; b++) for (int c = 0; c < NM; c++)
        if ((k < 0 || a == k) && (d < 0 || b == d) && (m < 0 || c == m) && !invalid(a, b, c)) return 1;
    return 0;
}

/* The default matrix, or the given lists crossed; every value given must
   take part in at least one sensible combination, else 1 with err. */
static int choose_combos(int peers_possible, char *err, size_t n)
{
    ncombos = 0;
    if (!copt.kinds && !copt.dirs && !copt.meths) {
        static const mkind host[] = {K_PAGEABLE, K_PINNED, K_WC, K_REGISTERED, K_MHOST};
        for (int d = D_HTOD; d <= D_DTOH; d++)
            for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) add(host[i], d, M_CE);
        add(K_MHOST, D_HTOD, M_PREFETCH);
        add(K_MHOST, D_HTOD, M_DEMAND);
        add(K_MDEV, D_DTOH, M_PREFETCH);
        add(K_MDEV, D_DTOH, M_DEMAND);
        add(K_PINNED, D_BIDIR, M_CE);
        add(K_DEVICE, D_DTOD, M_CE);
        if (peers_possible) add(K_DEVICE, D_PEER, M_CE);
        return 0;
    }
    unsigned kinds = copt.kinds ? copt.kinds : (1u << NK) - 1, dirs = copt.dirs ? copt.dirs : (1u << ND) - 1,
             meths = copt.meths ? copt.meths : (1u << NM) - 1;
    unsigned used_k = 0, used_d = 0, used_m = 0;
    const char *first_why = NULL;
    int best = -1;
    for (int k = 0; k < NK; k++) for (int d = 0; d < ND; d++) for (int m = 0; m < NM; m++) {
        if (!(kinds >> k & 1) || !(dirs >> d & 1) || !(meths >> m & 1)) continue;
        const char *why = invalid(k, d, m);
        if (why) {
            /* Report the refusal closest to sense: most pairs that fit. */
            int close = fits(k, d, -1) + fits(k, -1, m) + fits(-1, d, m);
            if (close > best) first_why = why, best = close;
            continue;
        }
        used_k |= 1u << k;
        used_d |= 1u << d;
        used_m |= 1u << m;
        if (d == D_PEER && !peers_possible) continue;
        add(k, d, m);
    }
    /* Nothing fits: name everything given. A value given that fits no
       combination: name it. */
    if (!used_k) {
        static const char *const opt[3] = {"--memory", "--direction", "--method"};
        char given[512] = "";
        for (int i = 0; i < 3; i++)
            if (copt.args[i])
                snprintf(given + strlen(given), sizeof given - strlen(given), "%s%s %.150s", given[0] ? " " : "",
                         opt[i], copt.args[i]);
        snprintf(err, n, "%s: no sensible combination: %s", given, first_why ? first_why : "none asked for");
        return 1;
    }
    const char *what = NULL, *with = NULL;
    for (int k = 0; k < NK && !what; k++)
        if ((copt.named[0] >> k & 1) && !(used_k >> k & 1)) what = "--memory", with = kind_name[k];
    for (int d = 0; d < ND && !what; d++)
        if ((copt.named[1] >> d & 1) && !(used_d >> d & 1)) what = "--direction", with = dir_name[d];
    for (int m = 0; m < NM && !what; m++)
        if ((copt.named[2] >> m & 1) && !(used_m >> m & 1)) what = "--method", with = meth_name[m];
    if (!what) return 0;
    /* The reason: the refusal of that value closest to sense. */
    const char *why = first_why;
    best = -1;
    for (int k = 0; k < NK; k++) for (int d = 0; d < ND; d++) for (int m = 0; m < NM; m++) {
        const char *name = !strcmp(what, "--memory") ? kind_name[k] : !strcmp(what, "--direction") ? dir_name[d] : meth_name[m];
        if (strcmp(name, with) || !(kinds >> k & 1) || !(dirs >> d & 1) || !(meths >> m & 1) || !invalid(k, d, m)) continue;
        int close = fits(k, d, -1) + fits(k, -1, m) + fits(-1, d, m);
        if (close > best) why = invalid(k, d, m), best = close;
    }
    snprintf(err, n, "%s %s: no sensible combination with the other values asked for: %s", what, with, why);
    return 1;
}

static int own_check(void *ctx, char *err, size_t n)
{
    (void)ctx;
    return choose_combos(1, err, n);
}

/* ---- per-GPU state ----------------------------------------------------- */

typedef struct {
    int ready;
    cudaStream_t s[2];
    cudaEvent_t start[2], stop[2], go;
    unsigned long long *bad;  /* device: first wrong offset */
    double limit;             /* PCIe GB/s per direction, 0 unknown */
} gpu_state;

static gpu_state gs[UMB_DRIVE_MAX_GPUS];
static volatile int *flag, *timed_out;  /* pinned, portable: the stream hold */
static umb_drive drv;

static gpu_state *use_gpu(int g)
{
    gpu_state *st = &gs[g];
    CK(cudaSetDevice(g));
    if (st->ready) return st;
    for (int i = 0; i < 2; i++) {
        CK(cudaStreamCreateWithFlags(&st->s[i], cudaStreamNonBlocking));
        CK(cudaEventCreate(&st->start[i]));
        CK(cudaEventCreate(&st->stop[i]));
    }
    CK(cudaEventCreateWithFlags(&st->go, cudaEventDisableTiming));
    CK(cudaMalloc((void **)&st->bad, sizeof *st->bad));
    umb_gpu_desc d;
    char link[128];
    umb_gpu_describe(g, &d);
    umb_pcie_link(d.pci_bus, link, sizeof link);
    st->limit = umb_pcie_limit_gbs(link, NULL, 0);
    st->ready = 1;
    return st;
}

/* ---- buffers ------------------------------------------------------------ */

typedef struct {
    mkind kind;
    int gpu;      /* device, managed: where allocated */
    size_t bytes;
    void *p;
} buffer;

static void buf_alloc(buffer *b, mkind kind, int gpu, size_t bytes)
{
    char why[256];
    b->kind = kind;
    b->gpu = gpu;
    b->bytes = bytes;
    b->p = NULL;
    CK(cudaSetDevice(gpu));
    cudaError_t rc = cudaSuccess;
    const char *call = "";
    switch (kind) {
    case K_PAGEABLE: case K_REGISTERED:
        b->p = umb_host_alloc(bytes, drv.numa_node);
        if (!b->p) {
            snprintf(why, sizeof why, "cannot allocate %zu bytes of host memory%s", bytes, drv.numa_node >= 0 ? " on the NUMA node" : "");
            umb_fatal("umb_host_alloc", __FILE__, __LINE__, why);
        }
        if (kind == K_REGISTERED) {
            void *dp = NULL;
            rc = cudaHostRegister(b->p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable), call = "cudaHostRegister";
            /* Kernels (sm, the check) use the host address: it must be the device's too. */
            if (rc == cudaSuccess) rc = cudaHostGetDevicePointer(&dp, b->p, 0), call = "cudaHostGetDevicePointer";
            if (rc == cudaSuccess && dp != b->p) {
                snprintf(why, sizeof why, "registered memory has another address on GPU %d (no canUseHostPointerForRegisteredMem)", gpu);
                umb_fatal("cudaHostGetDevicePointer", __FILE__, __LINE__, why);
            }
        }
        break;
    case K_PINNED: rc = cudaMallocHost(&b->p, bytes), call = "cudaMallocHost"; break;
    case K_WC: rc = cudaHostAlloc(&b->p, bytes, cudaHostAllocWriteCombined | cudaHostAllocPortable | cudaHostAllocMapped), call = "cudaHostAlloc"; break;
    case K_MHOST: case K_MDEV: rc = cudaMallocManaged(&b->p, bytes, cudaMemAttachGlobal), call = "cudaMallocManaged"; break;
    default: rc = cudaMalloc(&b->p, bytes), call = "cudaMalloc"; break;
    }
    if (rc != cudaSuccess) {
        snprintf(why, sizeof why, "%zu bytes of %s memory: %s", bytes, kind_name[kind], cudaGetErrorString(rc));
        umb_fatal(call, __FILE__, __LINE__, why);
    }
}

static void buf_free(buffer *b)
{
    if (!b->p) return;
    CK(cudaSetDevice(b->gpu));
    switch (b->kind) {
    case K_PAGEABLE: umb_host_free(b->p, b->bytes, drv.numa_node); break;
    case K_REGISTERED: CK(cudaHostUnregister(b->p)); umb_host_free(b->p, b->bytes, drv.numa_node); break;
    case K_PINNED: case K_WC: CK(cudaFreeHost(b->p)); break;
    default: CK(cudaFree(b->p)); break;
    }
    b->p = NULL;
}

static int gpu_can_touch(mkind k) { return k != K_PAGEABLE; }

/* The source pattern: on the GPU where it can write, else by the CPU. */
static void fill(buffer *b, size_t bytes, uint32_t seed)
{
    if (!gpu_can_touch(b->kind)) {
        unsigned char *p = b->p;
        for (size_t i = 0; i < bytes; i++) p[i] = umb_pattern_byte(seed, i);
        return;
    }
    gpu_state *st = use_gpu(b->gpu);
    CK((cudaError_t)umb_kernel_fill(b->p, bytes, seed, st->s[0]));
    CK(cudaStreamSynchronize(st->s[0]));
}

static void poison(buffer *b, size_t bytes)
{
    if (b->kind != K_DEVICE && b->kind != K_MDEV) {
        memset(b->p, 0xa5, bytes);  /* CPU writes (fast even to WC); managed-host stays home */
        return;
    }
    gpu_state *st = use_gpu(b->gpu);
    CK(cudaMemsetAsync(b->p, 0xa5, bytes, st->s[0]));
    CK(cudaStreamSynchronize(st->s[0]));
}

/* Every byte against the pattern: 1 when all match. */
static int check(buffer *b, size_t bytes, uint32_t seed, const char *what, int gpu)
{
    unsigned long long first = ~0ull;
    if (!gpu_can_touch(b->kind)) {
        const unsigned char *p = b->p;
        for (size_t i = 0; i < bytes; i++)
            if (p[i] != umb_pattern_byte(seed, i)) { first = i; break; }
    } else {
        gpu_state *st = use_gpu(b->kind == K_DEVICE || b->kind == K_MDEV ? b->gpu : gpu);
        CK(cudaMemcpy(st->bad, &first, sizeof first, cudaMemcpyHostToDevice));
        CK((cudaError_t)umb_kernel_check(b->p, bytes, seed, st->bad, st->s[0]));
        CK(cudaStreamSynchronize(st->s[0]));
        CK(cudaMemcpy(&first, st->bad, sizeof first, cudaMemcpyDeviceToHost));
    }
    if (first == ~0ull) return 1;
    fprintf(stderr, PROGRAM ": validation failed: %s, %zu bytes: byte %llu is wrong\n", what, bytes, first);
    return 0;
}

/* ---- one timed batch ---------------------------------------------------- */

typedef struct {
    buffer src[2], dst[2];  /* [1]: the second direction of bidir */
    int gpu, peer;          /* the GPU that runs the copies; peer: the other */
} setup;

static void prefetch(void *p, size_t bytes, int to_gpu, int gpu, cudaStream_t s)
{
    struct cudaMemLocation loc;
    memset(&loc, 0, sizeof loc);
    loc.type = to_gpu ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
    loc.id = to_gpu ? gpu : 0;
#if CUDART_VERSION >= 13000
    CK(cudaMemPrefetchAsync(p, bytes, loc, 0, s));
#else
    CK(cudaMemPrefetchAsync_v2(p, bytes, loc, 0, s));
#endif
}

/* Managed pages where the combination says they start; never timed.
   Prefetched, not touched: under repeated touches the driver's thrashing
   heuristics may leave pages where they are (docs/method.md). */
static void place(buffer *b, size_t bytes)
{
    if (b->kind != K_MHOST && b->kind != K_MDEV) return;
    gpu_state *st = use_gpu(b->gpu);
    umb_phase was = umb_counters_enter(UMB_PH_PLACE);
    prefetch(b->p, bytes, b->kind == K_MDEV, b->gpu, st->s[0]);
    CK(cudaStreamSynchronize(st->s[0]));
    umb_counters_leave(was);
}

/* Places, then reads where the pages are (pagemap: managed-host all on the
   host, managed-device none) and places again where they are not, as the
   MPI programs' enforce check does (docs/method.md). Returns 1 when the
   first placement held, 0 when not, -1 when pagemap cannot tell; *placed
   says whether the pages were in place at the end. */
static int place_checked(buffer *b, size_t bytes, long *replaced, int *placed)
{
    place(b, bytes);
    int first = umb_resident(b->p, bytes, b->kind == K_MHOST), now = first;
    for (int i = 0; now == 0 && i < UMB_REPLACE_TRIES; i++) {
        place(b, bytes);
        ++*replaced;
        now = umb_resident(b->p, bytes, b->kind == K_MHOST);
    }
    *placed = now != 0;
    return first;
}

static void enqueue(const combo *c, setup *u, int dirn, size_t size, cudaStream_t s)
{
    void *dst = u->dst[dirn].p, *src = u->src[dirn].p;
    switch (c->meth) {
    case M_CE: CK(cudaMemcpyAsync(dst, src, size, cudaMemcpyDefault, s)); break;
    case M_SM: case M_DEMAND: CK((cudaError_t)umb_kernel_copy(dst, src, size, s)); break;
    case M_PREFETCH: prefetch(src, size, c->dir == D_HTOD, u->gpu, s); break;
    default: break;
    }
}

/* Whether the stream can be held until the batch is queued: only when
   queueing never waits for the GPU (page-locked and device memory, and
   kernels). Pageable copies are staged by the host, and managed copies and
   prefetches may be: holding them could stall until the hold times out. */
static int holdable(const combo *c)
{
    if (c->meth == M_SM || (c->meth == M_DEMAND && c->dir == D_HTOD)) return 1;
    if (c->meth != M_CE) return 0;
    if (c->dir == D_PEER) return c->p2p;
    return c->kind == K_PINNED || c->kind == K_WC || c->kind == K_REGISTERED || c->kind == K_DEVICE;
}

typedef struct {
    double secs[3];  /* per direction (bidir: [0] htod, [1] dtoh), [2] both */
    double cpu;      /* host clock, whole batch */
} timing;

static void batch(const combo *c, setup *u, size_t size, long copies, timing *t)
{
    gpu_state *st = use_gpu(u->gpu);
    int two = c->dir == D_BIDIR, hold = holdable(c);
    memset(t, 0, sizeof *t);
    if (c->meth == M_DEMAND && c->dir == D_DTOH) {
        /* Pages come to the host only through CPU faults: the CPU reads. */
        double t0 = umb_now();
        memcpy(u->dst[0].p, u->src[0].p, size);
        t->secs[0] = t->secs[2] = t->cpu = umb_now() - t0;
        return;
    }
    double t0 = umb_now();
    if (hold) {
        *flag = 0;
        *timed_out = 0;
        CK((cudaError_t)umb_kernel_spin(flag, timed_out, HOLD_TIMEOUT_MS, st->s[0]));
        if (two) {
            CK(cudaEventRecord(st->go, st->s[0]));
            CK(cudaStreamWaitEvent(st->s[1], st->go, 0));
        }
    }
    for (int i = 0; i <= two; i++) {
        CK(cudaEventRecord(st->start[i], st->s[i]));
        for (long k = 0; k < copies; k++) enqueue(c, u, i, size, st->s[i]);
        CK(cudaEventRecord(st->stop[i], st->s[i]));
    }
    if (hold) {
        __sync_synchronize();
        t0 = umb_now();
        *flag = 1;  /* the GPU sees this store through the pinned mapping */
    }
    for (int i = 0; i <= two; i++) CK(cudaEventSynchronize(st->stop[i]));
    t->cpu = umb_now() - t0;
    if (hold && *timed_out)
        umb_fatal("the stream hold", __FILE__, __LINE__, "queueing the batch took longer than the 10 s hold: the host blocked while queueing (lower --copies)");
    float ms;
    CK(cudaEventElapsedTime(&ms, st->start[0], st->stop[0]));
    t->secs[0] = t->secs[2] = ms / 1e3;
    if (two) {
        float s1, e0, e1;
        CK(cudaEventElapsedTime(&ms, st->start[1], st->stop[1]));
        t->secs[1] = ms / 1e3;
        /* Both directions: first start to last stop, all relative to start[0]. */
        CK(cudaEventElapsedTime(&s1, st->start[0], st->start[1]));
        CK(cudaEventElapsedTime(&e0, st->start[0], st->stop[0]));
        CK(cudaEventElapsedTime(&e1, st->start[0], st->stop[1]));
        t->secs[2] = ((e0 > e1 ? e0 : e1) - (s1 < 0 ? s1 : 0)) / 1e3;
    }
}

/* ---- the sweep ------------------------------------------------------------ */

static int managed(mkind k) { return k == K_MHOST || k == K_MDEV; }

static long copies_for(const combo *c, size_t size)
{
    if (managed(c->kind)) return 1;  /* placed before every repetition: one move each */
    if (copt.copies) return copt.copies;
    size_t n = BATCH_BYTES / size;
    return n < 2 ? 2 : n > MAX_HELD_COPIES ? MAX_HELD_COPIES : (long)n;
}

static void peer_access(int a, int b, int on)
{
    int g[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        CK(cudaSetDevice(g[i]));
        cudaError_t rc = on ? cudaDeviceEnablePeerAccess(g[1 - i], 0) : cudaDeviceDisablePeerAccess(g[1 - i]);
        if (rc == cudaErrorPeerAccessAlreadyEnabled || rc == cudaErrorPeerAccessNotEnabled) {
            cudaGetLastError();
            rc = cudaSuccess;
        }
        CK(rc);
    }
}

/* Allocates what a combination needs, at the largest size, on u->gpu
   (and u->peer). */
static void setup_alloc(const combo *c, setup *u, size_t bytes)
{
    switch (c->dir) {
    case D_HTOD:
        buf_alloc(&u->src[0], c->kind, u->gpu, bytes);
        if (c->meth != M_PREFETCH) buf_alloc(&u->dst[0], K_DEVICE, u->gpu, bytes);
        else u->dst[0] = u->src[0];
        break;
    case D_DTOH:
        if (c->kind == K_MDEV) {
            buf_alloc(&u->src[0], K_MDEV, u->gpu, bytes);
            if (c->meth == M_DEMAND) buf_alloc(&u->dst[0], K_PAGEABLE, u->gpu, bytes);
            else u->dst[0] = u->src[0];
        } else {
            buf_alloc(&u->src[0], K_DEVICE, u->gpu, bytes);
            buf_alloc(&u->dst[0], c->kind, u->gpu, bytes);
        }
        break;
    case D_DTOD:
        buf_alloc(&u->src[0], c->kind, u->gpu, bytes);
        buf_alloc(&u->dst[0], K_DEVICE, u->gpu, bytes);
        break;
    case D_BIDIR:
        buf_alloc(&u->src[0], c->kind, u->gpu, bytes);
        buf_alloc(&u->dst[0], K_DEVICE, u->gpu, bytes);
        buf_alloc(&u->src[1], K_DEVICE, u->gpu, bytes);
        buf_alloc(&u->dst[1], c->kind, u->gpu, bytes);
        break;
    case D_PEER:
        buf_alloc(&u->src[0], K_DEVICE, u->gpu, bytes);
        buf_alloc(&u->dst[0], K_DEVICE, u->peer, bytes);
        break;
    default: break;
    }
}

static void setup_free(setup *u)
{
    for (int i = 0; i < 2; i++) {
        if (u->dst[i].p == u->src[i].p) u->dst[i].p = NULL;
        buf_free(&u->src[i]);
        buf_free(&u->dst[i]);
    }
}

/* GPU memory a combination takes on each GPU, against what is free. */
static void check_memory(const combo *c, int gpu, int peer, size_t bytes)
{
    int nbuf = 2;  /* at most two device or managed buffers per GPU */
    int gpus[2] = {gpu, c->dir == D_PEER ? peer : -1};
    for (int i = 0; i < 2 && gpus[i] >= 0; i++) {
        size_t free_b = 0, total = 0;
        CK(cudaSetDevice(gpus[i]));
        CK(cudaMemGetInfo(&free_b, &total));
        /* Managed pages placed on the GPU count as well; keep a margin. */
        if ((double)bytes * nbuf > 0.8 * (double)free_b) {
            fprintf(stderr, PROGRAM ": %zu bytes (%s %s %s) need %d buffer(s) of that size on GPU %d, which has %zu bytes free; lower --size\n",
                    bytes, kind_name[c->kind], dir_name[c->dir], meth_name[c->meth], nbuf, gpus[i], free_b);
            exit(UMB_EXIT_USAGE);
        }
    }
}

typedef struct {
    umb_stats rate[3];  /* per direction and total, in the unit */
    double cpu;         /* median host-clock rate of the whole batch */
    long copies;
    int valid;
    umb_counts moved, placed;  /* --counters: timed repetitions, placement */
    int movable;                               /* managed: placed before every repetition */
    long reps, held, replaced, not_placed, checked;  /* the placement check, over timed repetitions */
} result;

static uint32_t seed_of(int ci, size_t size, int dirn) { return umb_pattern_seed(ci, size, dirn); }

static void measure(int ci, const combo *c, setup *u, size_t size, result *r)
{
    long copies = copies_for(c, size);
    int two = c->dir == D_BIDIR, movable = managed(c->kind);
    long reps = drv.repeat;
    double unit = umb_drive_unit_bytes(&drv);
    double *rates[3], *cpu = umb_xmalloc(sizeof(double) * (size_t)reps, "rates");
    for (int i = 0; i < 3; i++) rates[i] = umb_xmalloc(sizeof(double) * (size_t)reps, "rates");
    char what[128];
    snprintf(what, sizeof what, "%s %s %s", kind_name[c->kind], dir_name[c->dir], meth_name[c->meth]);

    for (int i = 0; i <= two; i++) {
        fill(&u->src[i], size, seed_of(ci, size, i));
        if (u->dst[i].p != u->src[i].p) poison(&u->dst[i], size);
    }
    umb_counters_size_begin(1);  /* rep -1 is the warm-up */
    long kept = 0;
    r->movable = movable;
    r->reps = reps;
    r->held = r->replaced = r->not_placed = r->checked = 0;
    for (long rep = -1; rep < reps; rep++) {  /* rep -1: the untimed warm-up */
        timing t;
        umb_counters_iteration(rep + 1);
        int held = 1, placed = 1, ok, checked = 1;
        long replaced = 0;
        if (movable) {
            int h = place_checked(&u->src[0], size, &replaced, &ok);
            held &= h == 1, checked &= h >= 0, placed &= ok;
            if (u->dst[0].p != u->src[0].p && (u->dst[0].kind == K_MHOST || u->dst[0].kind == K_MDEV)) {
                h = place_checked(&u->dst[0], size, &replaced, &ok);
                held &= h == 1, checked &= h >= 0, placed &= ok;
            }
        }
        if (drv.flush) {
            umb_phase was = umb_counters_enter(UMB_PH_CHECK);  /* untimed, not counted */
            umb_cache_flush();
            umb_counters_leave(was);
        }
        batch(c, u, size, copies, &t);
        if (rep < 0) continue;
        if (movable) {
            r->held += held, r->checked += checked, r->replaced += replaced;
            if (!placed) {  /* left out, as the MPI programs' enforce check does */
                r->not_placed++;
                continue;
            }
        }
        double moved = (double)size * (double)copies;
        rates[0][kept] = moved / t.secs[0] / unit;
        rates[1][kept] = two ? moved / t.secs[1] / unit : 0;
        rates[2][kept] = (two ? 2 : 1) * moved / t.secs[2] / unit;
        cpu[kept++] = (two ? 2 : 1) * moved / t.cpu / unit;
    }
    umb_counts ph[UMB_NPHASES];
    umb_counters_size_end(ph);
    r->moved = ph[UMB_PH_MEASURED];
    r->placed = ph[UMB_PH_PLACE];
    r->valid = 1;
    for (int i = 0; i <= two; i++) r->valid &= check(&u->dst[i], size, seed_of(ci, size, i), what, u->gpu);
    for (int i = 0; i < 3; i++) umb_stats_compute(rates[i], kept, &r->rate[i]);
    umb_stats s;
    umb_stats_compute(cpu, kept, &s);
    r->cpu = kept ? s.p50 : NAN;
    for (int i = 0; i < 3 && !kept; i++)  /* nothing placed: nothing measured */
        r->rate[i].avg = r->rate[i].min = r->rate[i].max = r->rate[i].p50 = r->rate[i].p99 = r->rate[i].stddev = NAN;
    r->copies = copies;
    for (int i = 0; i < 3; i++) free(rates[i]);
    free(cpu);
}

/* ---- output ----------------------------------------------------------- */

static umb_output out;
static int above_limit;

static int row_cols(umb_col *cols, const char *memory, const char *dir, const char *meth, const char *gpu,
                    const umb_stats *s, double limit, double cpu, long copies, const result *r)
{
    char t[32], k[32];
    const char *u = umb_drive_unit(&drv), *ku = drv.gib ? "gibs" : "gbs";
    int n = 0;
    umb_text_col(&cols[n++], "        Memory", "memory", memory);  /* as wide as managed-device */
    umb_text_col(&cols[n++], "Direction", "direction", dir);
    umb_text_col(&cols[n++], "Method", "method", meth);
    umb_text_col(&cols[n++], "GPU", "gpu", gpu);
#define NUM(title_, key_, v_, dec_)                                              \
    do {                                                                         \
        memset(&cols[n], 0, sizeof cols[n]);                                     \
        snprintf(cols[n].title, sizeof cols[n].title, "%s", title_);             \
        snprintf(cols[n].key, sizeof cols[n].key, "%s", key_);                   \
        cols[n].value = (v_);                                                    \
        cols[n].decimals = (dec_);                                               \
        n++;                                                                     \
    } while (0)
    snprintf(t, sizeof t, "Median %s", u);
    snprintf(k, sizeof k, "median_%s", ku);
    NUM(t, k, s->p50, 2);
    snprintf(t, sizeof t, "Min %s", u);
    snprintf(k, sizeof k, "min_%s", ku);
    NUM(t, k, s->min, 2);
    snprintf(t, sizeof t, "Max %s", u);
    snprintf(k, sizeof k, "max_%s", ku);
    NUM(t, k, s->max, 2);
    NUM("CV %", "cv_pct", s->avg > 0 ? 100 * s->stddev / s->avg : NAN, 2);
    NUM("% of link", "link_pct", limit > 0 ? 100 * s->p50 / limit : NAN, 1);
    if (drv.cputiming) {
        snprintf(t, sizeof t, "CPU %s", u);
        snprintf(k, sizeof k, "cpu_median_%s", ku);
        NUM(t, k, cpu, 2);
    }
    NUM("Copies", "copies", (double)copies, 0);
    NUM("Repetitions", "repetitions", (double)s->n, 0);
    /* Managed memory: how often the prefetch before a repetition held (pagemap). */
    NUM("Placed %", "placed_pct", r->movable && r->reps && r->checked == r->reps ? 100.0 * (double)r->held / (double)r->reps : NAN, 1);
#undef NUM
    if (drv.counters) n += umb_drive_counter_cols(&r->moved, &r->placed, s->n, cols + n);
    return n;
}

static void emit(size_t size, const char *memory, const char *dir, const char *meth, const char *gpu,
                 const umb_stats *s, double limit_gbs, double cpu, const result *r)
{
    umb_col cols[32];
    long copies = r->copies;
    int valid = r->valid;
    double unit = umb_drive_unit_bytes(&drv);
    double limit = limit_gbs > 0 ? limit_gbs * 1e9 / unit : 0;  /* in the unit */
    int n = row_cols(cols, memory, dir, meth, gpu, s, limit, cpu, copies, r);
    static int header_done;
    out.buffers = memory;
    if (!header_done) {
        umb_out_columns(&out, cols, n);
        header_done = 1;
    }
    umb_out_row(&out, size, cols, n, valid);
    /* The fastest repetition, and the host clock, never above the link. */
    double top = s->max;
    if (cpu > top) top = cpu;  /* NaN (no host timing) compares false */
    if (limit > 0 && top > limit) {
        fprintf(stderr, PROGRAM ": warning: %s %s %s GPU %s, %zu bytes: %.2f %s is above the PCIe limit of %.2f %s (a measuring bug)\n",
                memory, dir, meth, gpu, size, top, umb_drive_unit(&drv), limit, umb_drive_unit(&drv));
        above_limit = 1;
    }
}

static int run_combo(int ci, const combo *c, int gpu, int peer)
{
    setup u;
    size_t most = 0;
    int valid = 1;
    for (int i = 0; i < drv.nsizes; i++) if (drv.sizes[i] > most) most = drv.sizes[i];
    check_memory(c, gpu, peer, most);
    if (c->dir == D_PEER) peer_access(gpu, peer, c->p2p);
    memset(&u, 0, sizeof u);
    u.gpu = gpu;
    u.peer = peer;
    setup_alloc(c, &u, most);
    gpu_state *st = use_gpu(gpu);
    int crosses = c->dir == D_HTOD || c->dir == D_DTOH || c->dir == D_BIDIR;
    double limit = crosses ? st->limit : 0;
    char gname[32], meth[16];
    if (c->dir == D_PEER) snprintf(gname, sizeof gname, "%d->%d", gpu, peer);
    else snprintf(gname, sizeof gname, "%d", gpu);
    if (c->dir == D_PEER) snprintf(meth, sizeof meth, "%s-%s", meth_name[c->meth], c->p2p ? "p2p" : "nop2p");
    else snprintf(meth, sizeof meth, "%s", meth_name[c->meth]);
    for (int i = 0; i < drv.nsizes; i++) {
        result r;
        size_t size = drv.sizes[i];
        measure(ci, c, &u, size, &r);
        valid &= r.valid;
        if (c->dir == D_BIDIR) {
            emit(size, kind_name[c->kind], "bidir-htod", meth, gname, &r.rate[0], limit, NAN, &r);
            emit(size, kind_name[c->kind], "bidir-dtoh", meth, gname, &r.rate[1], limit, NAN, &r);
            emit(size, kind_name[c->kind], "bidir", meth, gname, &r.rate[2], 2 * limit, r.cpu, &r);
        } else {
            emit(size, kind_name[c->kind], dir_name[c->dir], meth, gname, &r.rate[2], limit, r.cpu, &r);
        }
    }
    setup_free(&u);
    return valid;
}

int main(int argc, char **argv)
{
    umb_drive_start(&drv, &cli, argc, argv);
    char why[256];
    int visible = umb_gpu_count(why, sizeof why);

    /* Peer pairs: among the GPUs chosen, or from the one chosen to every other. */
    int pairs[UMB_DRIVE_MAX_GPUS * 4][2], npairs = 0;
    for (int i = 0; i < visible && i < UMB_DRIVE_MAX_GPUS; i++)
        for (int j = 0; j < visible && j < UMB_DRIVE_MAX_GPUS; j++) {
            int chosen_i = drv.all_devices || i == drv.device, chosen_j = drv.all_devices || j == drv.device;
            if (i != j && (drv.all_devices ? chosen_i && chosen_j : chosen_i || chosen_j) &&
                npairs < UMB_DRIVE_MAX_GPUS * 4) {
                pairs[npairs][0] = i;
                pairs[npairs][1] = j;
                npairs++;
            }
        }
    if ((copt.named[1] >> D_PEER & 1) && !npairs) {
        fprintf(stderr, PROGRAM ": --direction peer needs 2 GPUs; this machine has %d\n", visible);
        exit(UMB_EXIT_SKIP);
    }
    char err[512];
    if (choose_combos(npairs > 0, err, sizeof err)) umb_fatal("choose_combos", __FILE__, __LINE__, err);  /* checked at start */

    flag = NULL;
    CK(cudaSetDevice(drv.devices[0]));
    CK(cudaHostAlloc((void **)&flag, 2 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped));
    timed_out = flag + 1;

    umb_header h;
    umb_drive_header(&h, &drv, &cli);
    char list[1900] = "";  /* the header keeps 2 KiB per value */
    for (int i = 0; i < ncombos && strlen(list) < sizeof list - 64; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s %s %s%s", i ? ", " : "",
                 kind_name[combos[i].kind], dir_name[combos[i].dir], meth_name[combos[i].meth],
                 combos[i].dir == D_PEER ? (combos[i].p2p ? " (peer access on)" : " (peer access off)") : "");
    umb_header_str(&h, "combinations", "Combinations", "%s", list);
    if (npairs) {
        char p[1024] = "";
        for (int i = 0; i < npairs && strlen(p) < sizeof p - 32; i++) {
            int can = 0;
            CK(cudaDeviceCanAccessPeer(&can, pairs[i][0], pairs[i][1]));
            snprintf(p + strlen(p), sizeof p - strlen(p), "%s%d->%d %s", i ? ", " : "", pairs[i][0], pairs[i][1],
                     can ? "possible" : "not possible");
        }
        umb_header_str(&h, "peer_access", "Peer access", "%s", p);
    }
    umb_header_str(&h, "timing", "Timing",
                   "CUDA events around a batch of copies; page-locked, device and kernel batches are queued behind a spin kernel and released together (no launch gaps measured); "
                   "managed: one move per repetition, placed before each (untimed); demand dtoh: CPU reads, host clock%s",
                   drv.cputiming ? "; CPU column: host clock from release to the last event" : "");
    char pm_why[160];
    if (umb_residency_open(pm_why, sizeof pm_why) == 0)
        umb_header_str(&h, "placement_check", "Placement check",
                       "managed memory: after each placement, the present bit of every page in /proc/self/pagemap is read "
                       "(managed-host: all on the host, managed-device: none); placed again up to %d times where it did not "
                       "hold; a repetition still not placed is left out; Placed %%: first placements that held", UMB_REPLACE_TRIES);
    else
        umb_header_str(&h, "placement_check", "Placement check", "unavailable (%s): managed placement is not verified", pm_why);
    umb_header_str(&h, "units", "Units", "%s = %s bytes per second, median over repetitions; bidir counts both directions; %% of link: of the PCIe limit per direction (bidir: of twice it); CV = stddev / mean",
                   umb_drive_unit(&drv), drv.gib ? "2^30" : "10^9");
    umb_header_str(&h, "validation", "Validation", "every byte of the destination after the last repetition of each size");
    umb_counters_header(&h, "per timed repetition", drv.counters_note);
    umb_header_print(&h, drv.format, stdout);
    umb_header_free(&h);

    out.format = drv.format;
    out.full = 1;
    out.validate = 1;
    out.program = PROGRAM;
    out.out = stdout;

    int valid = 1;
    for (int i = 0; i < ncombos; i++) {
        const combo *c = &combos[i];
        if (c->dir == D_PEER) {
            for (int p = 0; p < npairs; p++) {
                int can = 0;
                CK(cudaDeviceCanAccessPeer(&can, pairs[p][0], pairs[p][1]));
                if (c->p2p && !can) continue;  /* the header says so */
                valid &= run_combo(i, c, pairs[p][0], pairs[p][1]);
            }
            continue;
        }
        for (int g = 0; g < drv.ndevices; g++) valid &= run_combo(i, c, drv.devices[g], -1);
    }
    CK(cudaFreeHost((void *)flag));
    umb_counters_footer(drv.format, stdout);
    if (!valid) return UMB_EXIT_INVALID;
    return above_limit ? UMB_EXIT_USAGE : 0;
}
