/* The oversub family of the single-node drivers (docs/architecture.md,
   "The drivers"): one GPU pass over managed memory of a factor of free GPU
   memory, per access pattern and memory mode (docs/method.md). The
   arithmetic of factors and the refusal above 1 are util/core's
   (oversub_rule.h). */
#ifndef UMB_DRIVE_OVERSUB_H
#define UMB_DRIVE_OVERSUB_H

typedef struct {
    const char *program, *summary;
} umb_oversub;

/* The whole program: the command line, the header, every factor, pattern
   and mode, the end. Returns the exit status. */
int umb_oversub_main(const umb_oversub *d, int argc, char **argv);

#endif
