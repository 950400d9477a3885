/* The one reader of numbers from the environment (util/core/env.h), over
   every integer variable the C reads and a loop of odd values: each is
   refused in one line naming it, or read as exactly the number written,
   within its range; never cut, wrapped or cast. */
#include "env.h"
#include "check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const local_vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                         "SLURM_LOCALID", "JSM_NAMESPACE_LOCAL_RANK", "PALS_LOCAL_RANKID",
                                         "FLUX_TASK_LOCAL_ID", "PMI_LOCAL_RANK"};
#define NLOCAL (sizeof local_vars / sizeof local_vars[0])

static const char *const odd[] = {
    "", "0", "3", "999999", "1000000", "-1", "-0", "+3", " 3", "3 ", "\n3", "3\n", "3x", "x", "0x10", "1e3", "3.0",
    "2147483647", "2147483648", "4294967296", "4294967297", "9223372036854775807", "9223372036854775808",
    "18446744073709551617", "99999999999999999999999999999999999999999999999999999999999999999999999999999999"};
#define NODD (sizeof odd / sizeof odd[0])

/* v, read from text: the number text writes, exactly (no sign, blank or leading zero). */
static int exactly(const char *text, long v)
{
    char back[32];
    snprintf(back, sizeof back, "%ld", v);
    return strcmp(back, text) == 0;
}

static void unset_all(void)
{
    for (size_t i = 0; i < NLOCAL; i++) unsetenv(local_vars[i]);
}

static void local_ranks(void)
{
    for (size_t i = 0; i < NLOCAL; i++)
        for (size_t k = 0; k < NODD; k++) {
            int rank;
            const char *from;
            char err[256] = "";
            unset_all();
            setenv(local_vars[i], odd[k], 1);
            int bad = umb_env_local_rank(&rank, &from, err, sizeof err);
            if (bad) {
                CHECK(bad == 1 && rank == -1);
                CHECK_CONTAINS(err, local_vars[i]);
                CHECK_CONTAINS(err, "expected a whole number from 0 to 999999");
            } else if (!*odd[k]) {
                CHECK(rank == -1 && from == NULL);  /* empty: the launcher did not say */
            } else {
                CHECK(rank >= 0 && rank <= UMB_MAX_LOCAL_RANK && exactly(odd[k], rank) && from && !strcmp(from, local_vars[i]));
                if (!exactly(odd[k], rank)) fprintf(stderr, "  %s='%s' read as %d\n", local_vars[i], odd[k], rank);
            }
        }
    /* The first one set is the launcher's: a bad one is refused, not passed over for a later one. */
    unset_all();
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x", 1);
    setenv("SLURM_LOCALID", "2", 1);
    int rank;
    const char *from;
    char err[256];
    CHECK(umb_env_local_rank(&rank, &from, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "OMPI_COMM_WORLD_LOCAL_RANK='x'");
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
    CHECK(umb_env_local_rank(&rank, &from, err, sizeof err) == 0 && rank == 1 && !strcmp(from, "OMPI_COMM_WORLD_LOCAL_RANK"));
    unset_all();
    CHECK(umb_env_local_rank(&rank, &from, err, sizeof err) == 0 && rank == -1 && from == NULL);
}

/* The drivers' test hook, as its reader reads it: a word index of a
   driver's buffer (umb_drive_corrupt, up to its last word). (The MPI
   programs' -c hook is in test builds only: util/mpi/bench.c.) */
static void hooks(void)
{
    static const struct { const char *name; long hi; } hook[] = {
        {"UMB_TEST_CORRUPT_WORD", (64l << 20) / 4 - 1}};
    for (size_t i = 0; i < sizeof hook / sizeof hook[0]; i++)
        for (size_t k = 0; k < NODD; k++) {
            setenv(hook[i].name, odd[k], 1);
            long v;
            char err[256] = "";
            umb_env_state st = umb_env_long(hook[i].name, 0, hook[i].hi, &v, err, sizeof err);
            CHECK(st == (!*odd[k] ? UMB_ENV_ABSENT : st));
            CHECK(st != UMB_ENV_OK || (exactly(odd[k], v) && v <= hook[i].hi));
            if (st == UMB_ENV_BAD) CHECK_CONTAINS(err, hook[i].name);
        }
    /* A value with a control character is shown, not written raw. */
    char err[256];
    long v;
    setenv("UMB_TEST_CORRUPT_WORD", "3\033[2J", 1);
    CHECK(umb_env_long("UMB_TEST_CORRUPT_WORD", 0, LONG_MAX, &v, err, sizeof err) == UMB_ENV_BAD && !strchr(err, '\033'));
    unsetenv("UMB_TEST_CORRUPT_WORD");
}

int main(void)
{
    local_ranks();
    hooks();
    return check_done("test_env");
}
