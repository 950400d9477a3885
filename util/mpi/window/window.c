#include "window.h"

#include "error.h"
#include "pattern.h"

#include <stdlib.h>

void umb_window_alloc(umb_bench *b, umb_window *w, size_t bytes)
{
    w->window = b->opt.window > 0 ? b->opt.window : 1;  /* a program without -W: one message */
    w->nbuf = umb_window_buffers(&b->opt);
    w->buf = umb_xmalloc(sizeof *w->buf * (size_t)w->nbuf, "window buffers");
    for (int j = 0; j < w->nbuf; j++) umb_bench_alloc(b, &w->buf[j], bytes);
}

void umb_window_free(umb_window *w)
{
    for (int j = 0; j < w->nbuf; j++) umb_buffer_free(&w->buf[j]);
    free(w->buf);
    w->buf = NULL;
}

/* Message j's buffer of nbuf. One shared buffer (OMB's window) takes no
   division: slot() runs once per message inside the timed window (issue 43). */
static int slot(int nbuf, int j) { return nbuf == 1 ? 0 : j % nbuf; }

void umb_window_fill(umb_window *w, size_t size, long i, int sender)
{
    for (int j = 0; j < w->nbuf; j++)
        umb_buffer_fill(&w->buf[j], 0, size, umb_pattern_seed(i * w->window + j, size, sender));
}

void umb_window_place(umb_window *w, size_t size, umb_place_with how)
{
    for (int j = 0; j < w->nbuf; j++) umb_buffer_place(&w->buf[j], size, how);
}

/* The window's fields in locals, so that nothing is read again from memory
   after every MPI call: per message, beyond OMB's loop, only the slot's
   pointer and the return code's test (issue 43). */
void umb_window_irecv(umb_window *w, size_t size, int peer, int tag, MPI_Request *reqs)
{
    const umb_buffer *buf = w->buf;
    int n = w->window, nbuf = w->nbuf, count = UMB_MPI_COUNT(size);
    for (int j = 0; j < n; j++)
        UMB_MPI_CHECK(MPI_Irecv(buf[slot(nbuf, j)].ptr, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &reqs[j]));
}

void umb_window_isend(umb_window *w, size_t size, int peer, int tag, MPI_Request *reqs)
{
    const umb_buffer *buf = w->buf;
    int n = w->window, nbuf = w->nbuf, count = UMB_MPI_COUNT(size);
    for (int j = 0; j < n; j++)
        UMB_MPI_CHECK(MPI_Isend(buf[slot(nbuf, j)].ptr, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &reqs[j]));
}

int umb_window_check(umb_bench *b, umb_window *w, size_t size, long i, int sender)
{
    for (int j = 0; j < w->nbuf; j++) {
        if (!umb_bench_check(b, &w->buf[j], 0, size, i * w->window + j, sender)) return 0;
    }
    return 1;
}

int umb_window_check_slots(umb_bench *b, umb_buffer *buf, int slots, int per, size_t size, long i, int sender)
{
    for (int j = 0; j < slots; j++) {
        if (!umb_bench_check(b, buf, (size_t)j * size, size, i * per + j, sender)) return 0;
    }
    return 1;
}

void umb_window_send_acked(umb_window *w, size_t size, int peer, MPI_Request *reqs)
{
    umb_window_isend(w, size, peer, UMB_TAG_DATA, reqs);
    umb_window_wait_acked(w, peer, reqs);
}

void umb_window_wait_acked(umb_window *w, int peer, MPI_Request *reqs)
{
    char ack[4];
    UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
    UMB_MPI_CHECK(MPI_Recv(ack, 4, MPI_BYTE, peer, UMB_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

void umb_window_wait_and_ack(umb_window *w, int peer, MPI_Request *reqs)
{
    char ack[4] = {0};
    UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
    UMB_MPI_CHECK(MPI_Send(ack, 4, MPI_BYTE, peer, UMB_TAG_ACK, MPI_COMM_WORLD));
}

void umb_window_header(umb_header *h, int window, int nbuf, const char *per, const char *what)
{
    umb_header_num(h, "window", "Window", window);
    if (nbuf > 1)
        umb_header_str(h, "window_buffers", "Window buffers", "%d %s (one per %s: every slot placed and checked on its own)",
                       nbuf, per, what);
    else
        umb_header_str(h, "window_buffers", "Window buffers", "%d %s (one shared by all %ss, as OMB)", nbuf, per, what);
}
