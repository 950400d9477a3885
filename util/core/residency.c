#include "residency.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PRESENT (1ull << 63)  /* pagemap entry bit 63: the page is in RAM */

static struct {
    int tried, fd;
    long page;
    char why[160];
    uint64_t *entries;
    size_t cap;
} R = {.fd = -1};

const char *umb_residency_file(void)
{
    const char *path = getenv("UMB_PAGEMAP");
    return path && *path ? path : "/proc/self/pagemap";
}

int umb_residency_open(char *why, size_t n)
{
    if (!R.tried) {
        const char *path = umb_residency_file();
        R.tried = 1;
        R.page = sysconf(_SC_PAGESIZE);
        R.fd = open(path, O_RDONLY | O_CLOEXEC);
        if (R.fd < 0) snprintf(R.why, sizeof R.why, "cannot open %s: %s", path, strerror(errno));
    }
    if (R.fd < 0 && why) snprintf(why, n, "%s", R.why);
    return R.fd < 0 ? -1 : 0;
}

void umb_residency_close(void)
{
    if (R.fd >= 0) close(R.fd);
    R.fd = -1;
    R.tried = 0;
}

long umb_pages_spanned(const void *p, size_t bytes)
{
    if (!R.page) R.page = sysconf(_SC_PAGESIZE);
    uintptr_t first = (uintptr_t)p / (uintptr_t)R.page;
    uintptr_t last = ((uintptr_t)p + (bytes ? bytes : 1) - 1) / (uintptr_t)R.page;
    return (long)(last - first + 1);
}

long umb_host_pages(const void *p, size_t bytes)
{
    if (umb_residency_open(NULL, 0)) return -1;
    size_t count = (size_t)umb_pages_spanned(p, bytes);
    if (count > R.cap) {
        free(R.entries);
        R.entries = malloc(count * sizeof *R.entries);
        R.cap = R.entries ? count : 0;
        if (!R.entries) return -1;
    }
    off_t at = (off_t)((uintptr_t)p / (uintptr_t)R.page * sizeof(uint64_t));
    size_t want = count * sizeof(uint64_t), got = 0;
    while (got < want) {
        ssize_t r = pread(R.fd, (char *)R.entries + got, want - got, at + (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    long present = 0;
    for (size_t i = 0; i < count; i++) present += (R.entries[i] & PRESENT) != 0;
    return present;
}

int umb_resident(const void *p, size_t bytes, int on_host)
{
    long present = umb_host_pages(p, bytes);
    if (present < 0) return -1;
    return on_host ? present == umb_pages_spanned(p, bytes) : present == 0;
}
