/* The copy family of the single-node drivers (docs/architecture.md, "The
   drivers"): host<->device, device<->device and GPU<->GPU copy bandwidth
   for every kind of memory (docs/method.md, "Copy bandwidth"). A program
   is a descriptor of it and a one-line main, as an MPI program is of its
   family. copy.c holds the command line, the run over combinations, GPUs
   and sizes, and the output; copy_combos.c the combinations;
   copy_measure.c the timed batch. */
#ifndef UMB_COPY_H
#define UMB_COPY_H

typedef struct {
    const char *program, *summary;
    const char *quick;  /* the `quick` size set, and -m's default MAX (its largest) */
    int repeat;         /* default --repeat */
} umb_copy;

/* The whole program: the command line, the header, every combination on
   every GPU chosen, the end. Returns the exit status. */
int umb_copy_main(const umb_copy *p, int argc, char **argv);

#endif
