/* ctx_switch: what one small GPU copy costs when two processes take turns
   on one GPU (each with its own CUDA context), against one process alone
   and against one process beside an idle second context. Two MPI ranks
   sharing a GPU take turns like this when a CUDA-aware library copies D
   buffers (docs/stacks.md). No MPI: processes and pipes.

     ctx_switch [ROUNDS]     (default 2000; GPU 0)

   Exit 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void check(cudaError_t rc, const char *what)
{
    if (rc == cudaSuccess) return;
    fprintf(stderr, "ctx_switch: %s: %s\n", what, cudaGetErrorString(rc));
    exit(rc == cudaErrorNoDevice || rc == cudaErrorInsufficientDriver ? 77 : 1);
}

typedef struct {
    char *host, *dev;
} bufs;

static bufs setup(void)
{
    bufs b;
    check(cudaSetDevice(0), "cudaSetDevice");
    check(cudaMallocHost((void **)&b.host, 8), "cudaMallocHost");
    check(cudaMalloc((void **)&b.dev, 8), "cudaMalloc");
    return b;
}

/* One turn: 8 bytes to the GPU and back, synchronous (what a bounce
   through host memory does for a small message). */
static void turn(const bufs *b)
{
    check(cudaMemcpy(b->dev, b->host, 8, cudaMemcpyHostToDevice), "cudaMemcpy HtoD");
    check(cudaMemcpy(b->host, b->dev, 8, cudaMemcpyDeviceToHost), "cudaMemcpy DtoH");
}

static void put(int fd, char c)
{
    if (write(fd, &c, 1) != 1) exit(1);
}

static char get(int fd)
{
    char c;
    if (read(fd, &c, 1) != 1) exit(1);
    return c;
}

/* The microseconds per turn of process A, reported through `report`.
   peer: 0 none, 1 a second context that waits idle, 2 one that takes turns. */
static double measure(int rounds, int peer)
{
    int ab[2], ba[2], rep[2];
    if (pipe(ab) || pipe(ba) || pipe(rep)) exit(1);
    pid_t b_pid = -1;
    if (peer) {
        b_pid = fork();
        if (b_pid == 0) {
            close(ab[1]), close(ba[0]), close(rep[0]), close(rep[1]);
            bufs b = setup();
            turn(&b);
            put(ba[1], 'r');  /* ready: its context exists */
            for (;;) {
                char c = get(ab[0]);
                if (c == 'q') _exit(0);
                turn(&b);
                put(ba[1], 't');
            }
        }
    }
    pid_t a_pid = fork();
    if (a_pid == 0) {
        close(ab[0]), close(ba[1]), close(rep[0]);
        bufs a = setup();
        if (peer) get(ba[0]);
        for (int i = 0; i < 50; i++) turn(&a);  /* warm-up, alone */
        double t0 = now();
        for (int i = 0; i < rounds; i++) {
            turn(&a);
            if (peer == 2) {
                put(ab[1], 't');
                get(ba[0]);
            }
        }
        double us = (now() - t0) * 1e6 / rounds / (peer == 2 ? 2 : 1);
        if (peer) put(ab[1], 'q');
        if (write(rep[1], &us, sizeof us) != sizeof us) _exit(1);
        _exit(0);
    }
    /* Only the children hold the write ends: a child that dies ends the reads. */
    close(ab[0]), close(ab[1]), close(ba[0]), close(ba[1]), close(rep[1]);
    double us = -1;
    int status = 0;
    if (read(rep[0], &us, sizeof us) != sizeof us) us = -1;
    close(rep[0]);
    waitpid(a_pid, &status, 0);
    if (b_pid > 0) waitpid(b_pid, NULL, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        fprintf(stderr, "ctx_switch: no usable GPU\n");
        exit(77);
    }
    return us;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    if (rounds < 1) {
        fprintf(stderr, "ctx_switch: ROUNDS '%s': expected a positive integer\n", argv[1]);
        return 1;
    }
    /* No CUDA call in this process: every context is a child's. */
    double alone = measure(rounds, 0), idle = measure(rounds, 1), turns = measure(rounds, 2);
    if (alone < 0 || idle < 0 || turns < 0) {
        fprintf(stderr, "ctx_switch: a measuring process failed\n");
        return 1;
    }
    printf("8-byte HtoD + DtoH cudaMemcpy, %d rounds, GPU 0, us per turn:\n", rounds);
    printf("  one process alone:                    %8.2f\n", alone);
    printf("  beside an idle second context:        %8.2f\n", idle);
    printf("  two processes taking turns:           %8.2f\n", turns);
    return 0;
}
