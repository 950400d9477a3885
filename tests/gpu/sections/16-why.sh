#   why: --path over every stack x latency/bw/bcast x D D, MD MD, MH MH, MD MH, and the findings
# shellcheck shell=bash

section_why() {
stacks_setup || return
step "why: --path over every configuration, 2 ranks on $(nvidia-smi -L | wc -l) GPU(s); latency us, bandwidth MB/s"
while IFS='|' read -r name stack flags; do
    with_stack "$name" "$stack" "$flags" bash -c "$(declare -f why_runs); out='$out'; why_runs $name"
done < <(stack_configs)
why_table | tee "$out/why-table.txt"
echo; echo "findings, each once per configuration and program:"
cat "$out"/why-*.jsonl 2>/dev/null | python3 -c '
import json, sys
seen = set()
for l in sys.stdin:
    try: o = json.loads(l)
    except ValueError: continue
    if o.get("type") == "finding" and (o["finding"], o["program"], o["buffers"]) not in seen:
        seen.add((o["finding"], o["program"], o["buffers"]))
        print("  %s %s [%s] %s: %s\n      try: %s" % (o["program"], o["buffers"], o["rows"], o["finding"], o["what"], o["try"] or "-"))' \
    >"$out/why-findings.txt"
head -80 "$out/why-findings.txt"
}
