#!/usr/bin/env bash
# Profile-guided optimisation (PGO) of the native simulator, for big runs (issue 8).
#
#   tests/perf/pgo.sh bench     # criterion's big bench (sim-core/benches/big.rs), profile-guided
#   tests/perf/pgo.sh aqmsim    # target/pgo-use/release/aqmsim, profile-guided
#
# 1. builds the target instrumented (target/pgo-gen) and trains it: the bench runs its two
#    10 000-flow scenarios once (a criterion filter that matches no case skips the sampling);
#    aqmsim runs every preset and variant and the two 10 000-flow scenarios for 2 s;
# 2. merges the profile with llvm-profdata (rustup's llvm-tools, added when missing);
# 3. builds with the profile (target/pgo-use) and runs the bench, or leaves aqmsim there.
#
# PGO lays out code and biases branches by the profile; it changes no result (no float
# reassociation), so outputs stay bit-identical: `tests/perf/identity.sh
# target/pgo-use/release/aqmsim DIR BASELINE` checks it. The wasm build is not affected.
set -euo pipefail
what=${1:?usage: tests/perf/pgo.sh bench|aqmsim}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export GLIBC_TUNABLES=glibc.malloc.hugetlb=1
sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$sysroot/lib/rustlib/$host/bin/llvm-profdata
[ -x "$profdata" ] || rustup component add llvm-tools
prof=$root/target/pgo-profile/$what
rm -rf "$prof" && mkdir -p "$prof"
big=sim-core/benches/scenarios
gen=(env RUSTFLAGS="-Cprofile-generate=$prof" cargo)
use=(env RUSTFLAGS="-Cprofile-use=$prof/merged.profdata" cargo)
case $what in
bench)
    "${gen[@]}" bench -p sim-core --bench big --target-dir target/pgo-gen -- no_case_matches
    "$profdata" merge -o "$prof/merged.profdata" "$prof"/*.profraw
    "${use[@]}" bench -p sim-core --bench big --target-dir target/pgo-use
    ;;
aqmsim)
    "${gen[@]}" build --release -p sim-core --features cli --bin aqmsim --target-dir target/pgo-gen
    out=$(mktemp -d)
    JOBS=1 tests/perf/identity.sh target/pgo-gen/release/aqmsim "$out" >/dev/null
    for s in fifo fq_codel; do
        target/pgo-gen/release/aqmsim run "$big/${s}_10000_flows_10gbps.json" --set duration_s=2 \
            --force --out "$out/train.$s" -q >/dev/null
    done
    rm -rf "$out"
    "$profdata" merge -o "$prof/merged.profdata" "$prof"/*.profraw
    "${use[@]}" build --release -p sim-core --features cli --bin aqmsim --target-dir target/pgo-use
    echo "profile-guided aqmsim: target/pgo-use/release/aqmsim"
    ;;
*)
    echo "usage: tests/perf/pgo.sh bench|aqmsim" >&2
    exit 2
    ;;
esac
