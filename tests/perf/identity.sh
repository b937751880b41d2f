#!/usr/bin/env bash
# Runs every preset and variant (plus the 10 000-flow scenarios, shortened) with the given
# aqmsim and writes one directory of outputs per run, then a manifest of their checksums.
#
#   tests/perf/identity.sh BIN OUTDIR                 # record
#   tests/perf/identity.sh BIN OUTDIR BASELINE_DIR    # record, then compare with a recorded run
#
# Every output file (summary.json and the CSVs) is hashed, so "identical" means byte for byte.
set -euo pipefail
bin=${1:?aqmsim binary}
out=${2:?output directory}
jobs=${JOBS:-2}
mkdir -p "$out"
runs=$("$bin" presets --json | python3 -c '
import sys, json
for line in sys.stdin:
    line = line.strip()
    if line:
        p = json.loads(line)
        for v in p["variants"]:
            print(p["name"], v)
')
run_one() {
    local bin=$1 out=$2 preset=$3 variant=$4
    "$bin" run --preset "$preset" --variant "$variant" --out "$out/$preset.$variant" -q >/dev/null
}
export -f run_one
echo "$runs" | xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1" "$2" "$3"' "$bin" "$out"
# Large scenarios: 10 000 flows at 10 Gbit/s, FIFO and FQ-CoDel, 0.3 s simulated.
big=$(dirname "$0")/../../sim-core/benches/scenarios
for s in fifo fq_codel; do
    "$bin" run "$big/${s}_10000_flows_10gbps.json" --set duration_s=0.3 --force \
        --out "$out/big.$s" -q >/dev/null
done
(cd "$out" && find . -type f ! -name manifest | sort | xargs sha256sum) >"$out/manifest"
(cd "$out" && for f in */summary.json; do
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(sys.argv[1], s.get("events"), json.dumps(s.get("packets")), json.dumps(s.get("drops", {}).get("total_all")))' "$f"
done) >"$out/counts"
echo "$(wc -l <"$out/manifest") files in $out/manifest"
if [ -n "${3:-}" ]; then
    if diff "$3/manifest" "$out/manifest"; then
        echo "IDENTICAL: every output of every run matches $3"
    else
        echo "DIFFERENT from $3 (counts: diff $3/counts $out/counts)"
        exit 1
    fi
fi
