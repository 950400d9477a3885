/* gpu.h for a host-only build (configure --without-cuda): no GPU, ever. */
#include "gpu.h"

#include "access.h"
#include "error.h"

#include <stdio.h>

int umb_gpu_built(void) { return 0; }

int umb_gpu_count(char *why, size_t n)
{
    snprintf(why, n, "this build has no CUDA (configured without it)");
    return 0;
}

static void unreachable(const char *what)
{
    umb_fatal(what, __FILE__, __LINE__, "host-only build: no GPU calls are possible");
}

void umb_gpu_use(int device) { (void)device; unreachable("umb_gpu_use"); }
int umb_gpu_current(void) { return -1; }
void umb_gpu_describe(int device, umb_gpu_desc *d) { (void)device; (void)d; unreachable("umb_gpu_describe"); }
void umb_gpu_versions(char *buf, size_t n) { snprintf(buf, n, "none (host-only build)"); }
size_t umb_gpu_free_memory(void) { return 0; }

void *umb_gpu_alloc(umb_kind kind, size_t bytes, char *why, size_t n)
{
    (void)kind;
    snprintf(why, n, "cannot allocate %zu bytes of GPU memory: host-only build", bytes);
    return NULL;
}

void umb_gpu_free(umb_kind kind, void *p) { (void)kind; (void)p; }

int umb_gpu_register(void *p, size_t bytes, char *why, size_t n)
{
    (void)p;
    snprintf(why, n, "cannot register %zu bytes of host memory: host-only build", bytes);
    return -1;
}

void umb_gpu_unregister(void *p) { (void)p; }
long umb_gpu_check(const void *p, size_t b, uint32_t s) { (void)p; (void)b; (void)s; unreachable("umb_gpu_check"); return -1; }
void umb_gpu_advise(void *p, size_t b, unsigned a) { (void)p; (void)b; (void)a; unreachable("umb_gpu_advise"); }
void umb_gpu_unadvise(void *p, size_t b) { (void)p; (void)b; unreachable("umb_gpu_unadvise"); }
void umb_gpu_prefetch(void *p, size_t b, int g) { (void)p; (void)b; (void)g; unreachable("umb_gpu_prefetch"); }
void umb_gpu_touch(void *p, size_t b) { (void)p; (void)b; unreachable("umb_gpu_touch"); }
void umb_gpu_fill(void *p, size_t b, uint32_t s) { (void)p; (void)b; (void)s; unreachable("umb_gpu_fill"); }
int umb_gpu_can_peer(int a, int b) { (void)a; (void)b; return 0; }
int umb_gpu_peer_access(int a, int b, int on) { (void)a; (void)b; (void)on; unreachable("umb_gpu_peer_access"); return 0; }
void umb_gpu_copy(void *d, const void *s, size_t b) { (void)d; (void)s; (void)b; unreachable("umb_gpu_copy"); }

/* access.h: drive_header.c's test hook reaches it in every build. */
void umb_access_corrupt_word(void *p, size_t w) { (void)p; (void)w; unreachable("umb_access_corrupt_word"); }
