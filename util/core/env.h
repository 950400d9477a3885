/* The one reader of a number from the environment: every getenv of an
   integer (a launcher's local rank, the tests' hooks) goes through it, so
   that a value is range-checked, never cast or wrapped, and a bad one is
   one line naming the variable and its value. No MPI, no CUDA. */
#ifndef UMB_ENV_H
#define UMB_ENV_H

#include <stddef.h>

typedef enum { UMB_ENV_ABSENT, UMB_ENV_BAD, UMB_ENV_OK } umb_env_state;

/* NAME's value as a decimal integer from lo to hi, in umb_parse_long's
   forms only (digits: no sign, blank, suffix or hex): OK with it in *v;
   ABSENT where NAME is unset or empty; BAD otherwise (too large for a long
   included), with "NAME='VALUE': expected a whole number from LO to HI"
   in err (n bytes; the value shown as umb_shown does). */
umb_env_state umb_env_long(const char *name, long lo, long hi, long *v, char *err, size_t n);

/* The local rank a launcher gives (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID
   and the others, the first one set): 0 with it in *rank and its variable
   in *from; 0 with *rank -1 where none is set; 1 with err's line where the
   first one set is not a local rank (0 to UMB_MAX_LOCAL_RANK). */
#define UMB_MAX_LOCAL_RANK 999999  /* below umb-run's most ranks (run.json's np: 1000000) */
int umb_env_local_rank(int *rank, const char **from, char *err, size_t n);

#endif
