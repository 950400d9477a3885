/* --measure-bound: the bound of a path measured in the same run, as
   umb_copy measures it, but small and quick: pinned host memory to and
   from one GPU, and device memory from one GPU to another (or within
   one), cudaMemcpyAsync / cudaMemcpyPeerAsync between CUDA events, 64 MiB
   x 4 copies per repetition, the median of 5 after one warm-up
   (docs/method.md, "The bound of a path"). No managed memory; at most
   three 64 MiB buffers at a time. bound.c measures; bound_none.c stands
   in for a host-only build ("not measured (host-only build)"). */
#ifndef UMB_BOUND_H
#define UMB_BOUND_H

#include "link.h"

#define UMB_BOUND_BYTES ((size_t)64 << 20)
#define UMB_BOUND_COPIES 4
#define UMB_BOUND_REPS 5

/* Pinned HtoD and DtoH on GPU `gpu` into b (htod_gbs, dtoh_gbs, gpu). 0,
   or -1 with the reason in b->why (memory that cannot be had). The GPU in
   use before is in use after. */
int umb_bound_measure_host(int gpu, umb_measured_bound *b);
/* GPU `from`'s device memory to GPU `to`'s (peer_gbs, peer_from, peer_to,
   peer_access): with peer access where cudaDeviceCanAccessPeer allows
   (turned off again if it was off), else staged by the driver; within
   one GPU when from == to. 0, or -1 with b->why. */
int umb_bound_measure_peer(int from, int to, umb_measured_bound *b);

#endif
