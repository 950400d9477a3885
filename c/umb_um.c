/* umb_um: what hints, prefetch and first touch do to a GPU kernel reading
   or writing managed memory, each run reported on its own, because the
   first run and later ones differ by up to 100x (docs/method.md). A
   descriptor of the um family (util/drive/um/um.h). */
#include "um/um.h"

static const umb_um um = {
    .program = "umb_um",
    .summary = "a GPU kernel reads or writes one buffer --repeat times; each run is timed and reported on its own",
    .repeat = 3,
};

int main(int argc, char **argv) { return umb_um_main(&um, argc, argv); }
