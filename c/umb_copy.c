/* umb_copy: host<->device, device<->device and GPU<->GPU copy bandwidth
   for every kind of memory, as nvbandwidth measures pinned memory
   (docs/method.md, "Copy bandwidth"). A descriptor of the copy family
   (util/drive/copy/copy.h), which owns the combinations and the loops. */
#include "copy/copy.h"

static const umb_copy copy = {
    .program = "umb_copy",
    .summary = "copy bandwidth between host and GPU memory of every kind, and between GPUs",
    .quick = "4K,64K,1M,16M,256M",
    .repeat = 10,
};

int main(int argc, char **argv) { return umb_copy_main(&copy, argc, argv); }
