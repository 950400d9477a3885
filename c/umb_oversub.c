/* umb_oversub: access pattern x memory mode x oversubscription factor,
   one timed GPU pass each over managed memory that starts on the host
   (docs/method.md). A descriptor of the oversub family
   (util/drive/oversub/oversub.h). Above a factor of 1 it refuses unless
   --allow-oversubscription is given. */
#include "oversub/oversub.h"

static const umb_oversub oversub = {
    .program = "umb_oversub",
    .summary = "one GPU pass over managed memory of FACTOR x free GPU memory, per access pattern and memory mode",
};

int main(int argc, char **argv) { return umb_oversub_main(&oversub, argc, argv); }
