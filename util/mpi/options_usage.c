/* The MPI programs' -h text (docs/running.md, "Options of the MPI
   programs"), apart from the parser so that options_parse.c stays about
   parsing. */
#include "options.h"

#include <stdio.h>

/* The options umbench adds to OMB's, the same for every program. */
static const char umbench_options[] =
    "Options (umbench):\n"
    "  -U, --counters[=full|light]   unified-memory counters per rank and size: GPU and CPU page faults,\n"
    "                                bytes migrated, thrashing, throttling, remote maps (CUPTI), and\n"
    "                                getrusage faults; over the measured iterations, placement apart;\n"
    "                                light: getrusage faults only, no CUPTI (no cost to migrations)\n"
    "      --path                    per row, the path the bytes took: the CUDA copies the library made\n"
    "                                (host-to-device, device-to-host, device-to-device, peer; CUPTI)\n"
    "                                and, over UCX, the protocols it chose (UCX_PROTO_INFO)\n"
    "      --measure-bound           measure the bound of each path in the run (pinned and peer\n"
    "                                copies) instead of the nominal link figure\n"
    "      --check-options           check the options and exit: 0, or 1 and the one line (no MPI, no GPU)\n"
    "      --precision P%|off        run each size until the 95% interval of its mean is within +-P%\n"
    "                                (from -i, or 100, iterations; at most --size-budget); off: fixed\n"
    "                                counts for placed managed buffers too (default: 5% for those)\n"
    "      --size-budget S           seconds per size that --precision may take (default 3)\n"
    "      --launch-budget S         seconds --precision may take over all the launch's sizes and pairs:\n"
    "                                each size gets at most its share of what is left (umb-run --within)\n"
    "      --format table|csv|json   output format (default table; json: one object per line)\n"
    "      --place-with kernel|prefetch  how managed buffers are placed (default kernel)\n"
    "      --place each|once         place before every measured operation (default) or once per size\n"
    "      --loop auto|handshake|classic  the timed loop (docs/method.md): handshake places, checks and\n"
    "                                signals ready outside the timer before each operation; classic is\n"
    "                                OMB's back to back; auto (default): handshake where needed\n"
    "      --place-check enforce|observe|off  after placing, read where the pages are (pagemap);\n"
    "                                enforce (default): place again with prefetch where they are not,\n"
    "                                rows hold only placed iterations; observe: rows show what the\n"
    "                                driver left, held and not-held apart; off: no check\n"
    "      --advise LIST             cudaMemAdvise hints for managed buffers, comma-separated:\n"
    "                                preferred=cpu|gpu, accessed-by=gpu|cpu, read-mostly, none\n"
    "      --device N                use GPU N on every rank (default: local rank modulo GPU count)\n"
    "      --timeout S               abort the job when no progress is made for S seconds (default off)\n"
    "      --assume-cuda-aware       pass D buffers to MPI even if the library says it is not CUDA-aware\n"
    "      --allow-oversubscription  allow managed buffers larger than the free GPU memory\n";

/* The collectives' buffers and root (README, "Options"): -h lists every
   option the parser takes. */
static const char collective_options[] =
    "Options (collectives):\n"
    "      --buffer KIND             every rank's buffer but the root's: H, P, D, MH, MD, M (default H)\n"
    "      --root-buffer KIND        the root's buffer: H, P, D, MH, MD, M (default: --buffer's)\n"
    "      --buffers LIST            one kind per rank, comma-separated, as many as ranks (MD,MH,MH,MD)\n"
    "  -d, --accelerator managed|cuda  OMB's: every rank MH (managed) or D (cuda)\n"
    "  -k, --root fixed:N|rotate     the root: rank N (default fixed:0), or rank (iteration mod ranks)\n";

void umb_usage(const umb_cli *cli, FILE *f)
{
    fprintf(f, "Usage: %s [options]%s\n%s\n\n", cli->program,
            cli->nbuffers == 2 ? " [SRC DST [SRC DST ...]]" : "", cli->summary);
    if (cli->nbuffers == 2)
        fprintf(f, "SRC and DST are the buffer kinds of rank 0 and rank 1 (default H H):\n"
                   "  H   pageable host (malloc)        P   pinned host (cudaMallocHost)\n"
                   "  D   device (cudaMalloc)           MH  managed, placed on the host\n"
                   "  MD  managed, placed on the device M   same as MH (OMB compatibility)\n"
                   "Several pairs (at most 32) run one after the other in one launch, each with its own header,\n"
                   "rows and (JSON) end record; a pair that cannot run here says why and the next one runs.\n\n"
                   "Options (pairs):\n"
                   "      --pair-files PREFIX       each pair's output in its own file as it runs, PREFIXk-SRC-DST\n"
                   "                                for the k-th pair (from 1), none on standard output\n\n");
    fprintf(f,
        "Options (OMB letters):\n"
        "  -m, --message-size [MIN:]MAX  message sizes: MIN, the powers of two between, MAX (default 1:%zu; K/M/G suffixes;\n"
        "                                at most %zu: the MPI calls' counts are int)\n"
        "  -i, --iterations N            timed iterations, 1 to %ld (default %ld, %ld above %zu bytes; managed buffers\n"
        "                                placed before each iteration: until --precision 5%%)\n"
        "  -x, --warmup N                untimed warm-up iterations, 0 to %ld (default %ld, %ld above %zu bytes)\n"
        "  -f, --full                    also print min, max, p50, p99 and the iteration count\n"
        "  -c, --validation              check every byte of every message\n"
        "  -M, --mem-limit BYTES         per-process memory limit: buffers and iteration records (default 2G, at most 1024G)\n"
        "%s"
        "  -h, --help                    this text;  -v, --version  the version\n",
        cli->max_size, umb_largest_size(cli), UMB_MAX_ITERS, cli->iters, cli->iters_large, cli->large_size,
        UMB_MAX_ITERS, cli->skip, cli->skip_large, cli->large_size,
        cli->window ? "  -W, --window-size N           messages in flight per iteration, 1 to 65536 (default 64);\n"
                      "                                managed buffers get one buffer per message\n" : "");
    fputs(umbench_options, f);
    if (cli->collective) fputs(collective_options, f);
    if (cli->own_usage) fprintf(f, "Options (%s):\n%s", cli->program, cli->own_usage);
    fprintf(f, "Exit status: 0 ok, 1 bad input or error, 2 validation failed, 77 missing GPU or CUDA-aware MPI.\n");
}
