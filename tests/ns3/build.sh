#!/usr/bin/env bash
# Builds the ns-3 mirrors of AQM Lab's dumbbell and parking lot against the ns-3 3.44 wheel
# from PyPI.
#
#   python3 -m venv /work/ns3-venv && /work/ns3-venv/bin/pip install ns3==3.44.post0
#   NS3_VENV=/work/ns3-venv tests/ns3/build.sh   # prints $NS3_BUILD/dumbbell, $NS3_BUILD/parking_lot
#
# Not run by CI. Run the binary with LD_LIBRARY_PATH="$(tests/ns3/build.sh --libdir)".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${NS3_VENV:-/work/ns3-venv}"
root="$(ls -d "$venv"/lib/python3*/site-packages/ns3 2>/dev/null | head -1)"
if [[ -z "$root" || ! -d "$root/include/ns3" ]]; then
  echo "ns-3 wheel not found under $venv; install it with: python3 -m venv $venv && $venv/bin/pip install ns3==3.44.post0" >&2
  exit 1
fi
lib="$root/lib64"
if [[ "${1:-}" == "--libdir" ]]; then echo "$lib"; exit 0; fi
out="${NS3_BUILD:-$here/build}"
mkdir -p "$out"
libs=()
for m in core network internet internet-apps point-to-point applications traffic-control stats bridge mpi; do
  [[ -e "$lib/libns3.44-$m.so" ]] && libs+=("-lns3.44-$m")
done
for prog in dumbbell parking_lot; do
  src="$here/$prog.cc"
  bin="$out/$prog"
  # Both programs include common.h.
  if [[ ! -x "$bin" || "$src" -nt "$bin" || "$here/common.h" -nt "$bin" ]]; then
    g++ -std=c++20 -O2 -DNS3_LOG_ENABLE -I"$root/include" "$src" -o "$bin" \
      -L"$lib" "${libs[@]}" -Wl,-rpath,"$lib"
  fi
  echo "$bin"
done
