/* The placement check's parts on the CPU: pagemap's present bit follows a
   page into and out of host memory without touching it, and the placement
   log keeps warm-up, timed iterations and --place once apart. */
#include "check.h"
#include "placement.h"
#include "residency.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void pagemap(void)
{
    char why[256] = "";
    long page = sysconf(_SC_PAGESIZE);
    CHECK(umb_residency_open(why, sizeof why) == 0);
    /* A fresh malloc'd region (large enough to be its own mapping); its
       first page holds malloc's header, so look at the whole pages after. */
    size_t bytes = (size_t)64 * (size_t)page;
    unsigned char *raw = malloc(bytes + 2 * (size_t)page);
    CHECK(raw != NULL);
    unsigned char *p = (unsigned char *)(((uintptr_t)raw + 2 * (uintptr_t)page - 1) / (uintptr_t)page * (uintptr_t)page);
    CHECK(umb_pages_spanned(p, bytes) == 64);
    CHECK(umb_pages_spanned(p + 1, (size_t)page) == 2);
    CHECK(umb_host_pages(p, bytes) == 0);          /* not present until written */
    CHECK(umb_resident(p, bytes, 0) == 1);         /* "none on the host" */
    CHECK(umb_host_pages(p, bytes) == 0);          /* reading pagemap did not fault it in */
    p[0] = 1;
    p[10 * page + 5] = 1;
    CHECK(umb_host_pages(p, bytes) == 2);          /* present after a write */
    CHECK(umb_host_pages(p + 10 * page, 1) == 1);
    CHECK(umb_resident(p, bytes, 1) == 0 && umb_resident(p, bytes, 0) == 0);
    for (size_t i = 0; i < bytes; i += (size_t)page) p[i] = 2;
    CHECK(umb_host_pages(p, bytes) == 64);
    CHECK(umb_resident(p, bytes, 1) == 1);
    CHECK(madvise(p, bytes, MADV_DONTNEED) == 0);
    CHECK(umb_host_pages(p, bytes) == 0);          /* gone after MADV_DONTNEED */
    free(raw);

    /* Where pagemap cannot be read, every answer is "unknown". */
    umb_residency_close();
    setenv("UMB_PAGEMAP", "/nonexistent/pagemap", 1);
    CHECK(umb_residency_open(why, sizeof why) == -1);
    CHECK_CONTAINS(why, "/nonexistent/pagemap");
    CHECK(umb_host_pages(&why, sizeof why) == -1 && umb_resident(&why, sizeof why, 1) == -1);
    CHECK(!strcmp(umb_residency_file(), "/nonexistent/pagemap"));  /* what the headers name */
    unsetenv("UMB_PAGEMAP");
    CHECK(!strcmp(umb_residency_file(), "/proc/self/pagemap"));
    umb_residency_close();
    CHECK(umb_residency_open(why, sizeof why) == 0);
}

static void placement_log(void)
{
    umb_placement_size_begin(2, 3);  /* 2 warm-up, 3 timed */
    umb_placement_note(0, 1, 1, 5.0, 0.0);  /* before iteration 0: --place once */
    umb_placement_iteration(0);
    umb_placement_note(0, 0, 0, 1.0, 0.0);  /* warm-up: not logged */
    umb_placement_iteration(2);
    umb_placement_note(1, 0, 1, 1.0, 0.0);
    umb_placement_note(0, 2, 1, 2.0, 0.0);  /* the second buffer needed two re-placements */
    umb_placement_iteration(3);
    umb_placement_note(1, 0, 1, 0.5, 0.125);
    umb_placement_iteration(4);
    umb_placement_note(0, 3, 0, 0.25, 0.0); /* never placed */
    const umb_place_rec *o = umb_placement_once(), *t = umb_placement_timed();
    CHECK(o->any && o->checked && !o->held && o->placed && o->replaced == 1 && o->seconds == 5.0);
    CHECK(t[0].any && t[0].checked && !t[0].held && t[0].placed && t[0].replaced == 2 && t[0].seconds == 3.0);
    CHECK(t[1].any && t[1].held && t[1].placed && t[1].replaced == 0 && t[1].check_seconds == 0.125);
    CHECK(t[2].any && !t[2].held && !t[2].placed && t[2].replaced == 3);
    /* Unknown (no pagemap) is not held, not checked, and counts as placed. */
    umb_placement_size_begin(0, 1);
    CHECK(!umb_placement_timed()[0].any && !umb_placement_once()->any);
    umb_placement_iteration(0);
    umb_placement_note(-1, 0, -1, 1.0, 0.0);
    t = umb_placement_timed();
    CHECK(t[0].any && !t[0].checked && !t[0].held && t[0].placed);
    CHECK(umb_placement_mode() == UMB_CHECK_ENFORCE);
}

int main(void)
{
    pagemap();
    placement_log();
    return check_done("test_residency");
}
