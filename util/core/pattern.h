/* The validation pattern: one byte per (seed, offset), the same on host and
   GPU. It differs between neighbouring bytes and between seeds, so a shifted,
   stale or partial message fails the check. */
#ifndef UMB_PATTERN_H
#define UMB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define UMB_HOST_DEVICE __host__ __device__
#else
#define UMB_HOST_DEVICE
#endif

static inline UMB_HOST_DEVICE uint8_t umb_pattern_byte(uint32_t seed, size_t i)
{
    uint32_t x = (uint32_t)i * 2654435761u ^ (uint32_t)(i >> 32) ^ seed * 0x85ebca6bu;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return (uint8_t)x;
}

/* Seed of one message: which iteration, size and sender. */
static inline uint32_t umb_pattern_seed(long iteration, size_t size, int sender)
{
    return (uint32_t)iteration * 0x9e3779b9u ^ (uint32_t)size * 0x7feb352du ^ (uint32_t)sender * 0x846ca68bu ^ 1u;
}

#define UMB_PATTERN_POISON 0xdeadbeefu

#endif
