#   tune: umb-tune over umb_bw MD MD (1-4 MiB) and umb_latency D D (1 B-16 KiB) through ompi4-cuda
#         over UCX: UCX's staging, rendezvous and transport settings, 20 s at most per run
#         (about 8 minutes); tunebw and tunelat: each half alone (for two calls)
# shellcheck shell=bash

# umb-tune (docs/method.md, "Finding the settings that matter"): UCX settings
# one at a time against the defaults and their A/A twin, D D and MD MD.
# tune_ompi4 NAME BUDGET MATCH ONLY SIZES: umb-tune through ompi4-cuda over UCX
# (pml ucx in the environment, so that a catalogue entry can override it),
# the settings and rounds umb-tune plans to fit BUDGET seconds (it says
# which it leaves out), 20 s at most per run (the defaults take about 4 s;
# a stalled setting leaves the race); the results in $out/NAME, its report
# in $out/NAME.txt.
tune_ompi4() {
( eval "$("$top/scripts/umb-stack" env ompi4-cuda)"; unset MPIEXEC_FLAGS
  export OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any
  timeout $(( $2 + 90 )) python3 "$top/scripts/umb-tune" --bindir /tmp/umb-stack-ompi4-cuda \
      --set why --match "$3" --budget "$2" --run-limit 20 --out "$out/$1" --only "$4" -- -m "$5" </dev/null 2>&1 \
      | grep -v '^\[' | tee "$out/$1.txt" | tail -40 )
}

section_tune() { section_tunebw; section_tunelat; }

section_tunelat() {
stacks_setup || return
step "umb-tune: umb_latency D D, 1 B-16 KiB, through ompi4-cuda over UCX: the rendezvous threshold and transports"
tune_ompi4 tune-lat 160 '^umb_latency D D$' UCX_RNDV_THRESH,UCX_TLS,UCX_PROTO_ENABLE 1:16K
}

section_tunebw() {
stacks_setup || return
step "umb-tune: umb_bw MD MD, 1-4 MiB, through ompi4-cuda over UCX: UCX's staging and rendezvous settings"
tune_ompi4 tune-bw 240 '^umb_bw MD MD$' UCX_RNDV_FRAG_MEM_TYPES,UCX_RNDV_SCHEME,UCX_PROTO_ENABLE 1M:4M
python3 - "$out/tune-bw" <<'PY' | tee "$out/tune-bw-paths.txt"
import glob, json, os, sys
print("path of umb_bw MD MD at 4 MiB, per configuration (round 1):")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "umb_bw-MD-MD.*.r1.jsonl"))):
    for o in map(json.loads, open(f)):
        if o.get("type") == "result" and o["size"] == 4194304:
            print("  %-36s %9.0f MB/s  %-7s HtoD %11.0f DtoH %11.0f DtoD %11.0f B/it" % (f.split(".")[1], o["avg_bandwidth_mbs"], o["path"],
                  o["copy_htod_bytes_per_iter"] or 0, o["copy_dtoh_bytes_per_iter"] or 0, o["copy_dtod_bytes_per_iter"] or 0))
PY
}
