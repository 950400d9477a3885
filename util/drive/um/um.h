/* The um family of the single-node drivers (docs/architecture.md, "The
   drivers"): a GPU kernel reads or writes one buffer --repeat times under
   a policy of hints, prefetch and first touch, each run timed and reported
   on its own (docs/method.md). um.c holds the command line it adds, the
   runs and the output; um_policy.c the policies. */
#ifndef UMB_UM_H
#define UMB_UM_H

typedef struct {
    const char *program, *summary;
    int repeat;  /* default --repeat: the runs, 1 to 32 */
} umb_um;

/* The whole program: the command line, the header, each policy's runs,
   the end. Returns the exit status. */
int umb_um_main(const umb_um *p, int argc, char **argv);

#endif
