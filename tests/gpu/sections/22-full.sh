#   fullstart: umb-run --set full, detached (setsid) into /tmp/umb-full, so that it outlives
#              the call; fullwait: wait for it (UMB_FULL_WAIT s, default 540), copy what
#              finished into OUTDIR/full; UMB_FULL_STOP=1 then stops it (umb-run keeps what finished)
#   fullold: the heaviest runs of --set full with --precision off (OMB's counts), 140 s at most each
# shellcheck shell=bash

section_fullstart() {
step "umb-run --set full, detached into /tmp/umb-full"
rm -rf /tmp/umb-full && mkdir -p /tmp/umb-full
setsid nohup python3 "$top/scripts/umb-run" --set full --bindir "$build" \
    --run-limit 400 --out /tmp/umb-full/run </dev/null >/tmp/umb-full/log 2>&1 &
echo $! >/tmp/umb-full/pid  # fullwait stops this one, never another umb-run of the machine
echo "started at $(date +%T)"
}

section_fullold() {  # the heaviest runs of --set full with OMB's fixed counts (before the precision default)
step "--set full's heaviest runs with --precision off (OMB's counts), 140 s at most each"
timeout 580 python3 "$top/scripts/umb-run" --set full --match '^umb_latency (H MD|MD MD)$|^umb_bibw MD MD$|^umb_bcast MD$' \
    --bindir "$build" --run-limit 140 --within off --out "$out/full-old" -- --precision off </dev/null 2>&1 | grep -v skipped | tail -12
}

section_fullwait() {
local limit=${UMB_FULL_WAIT:-540} t0=$(date +%s) i
step "--set full: waiting at most $limit s"
# umb-run writes run.json before its first run and rewrites it after each:
# the set is over when it no longer says "running".
full_done() { [ -f /tmp/umb-full/run/run.json ] && ! grep -q '"state": "running"' /tmp/umb-full/run/run.json; }
until full_done || [ $(( $(date +%s) - t0 )) -ge "$limit" ]; do sleep 5; done
if ! full_done && [ "${UMB_FULL_STOP:-0}" = 1 ]; then
    echo "stopping it (UMB_FULL_STOP=1)"; kill -TERM "$(cat /tmp/umb-full/pid)"
    for i in $(seq 30); do full_done && break; sleep 1; done
fi
grep '^\[' /tmp/umb-full/log | tail -"${UMB_FULL_TAIL:-80}"; grep -v '^\[' /tmp/umb-full/log | tail -40
rm -rf "$out/full" && cp -r /tmp/umb-full "$out/full"
}
