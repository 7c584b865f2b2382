#!/usr/bin/env bash
# Determinism of the built binary on a real tree: three scans without the
# cache and three with it (the first fills a fresh cache, the others are
# warm) must give byte-identical JSON and SARIF reports. Prints the
# sha256sum of every report and the wall time and peak RSS of every run.
# Usage: bench/determinism.sh [TREE]   (default: $(go env GOROOT)/src)
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-$(go env GOROOT)/src}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/protoscan" ./cmd/protoscan
export PROTOSCAN_CACHE_DIR=$work/cache
unset PROTOSCAN_CACHE_VERIFY
echo "== $tree"
for run in nocache-1 nocache-2 nocache-3 cache-1 cache-2 cache-3; do
  flags=()
  [[ $run == nocache-* ]] && flags=(--no-cache)
  /usr/bin/time -o "$work/time" -f '%e s %M KB' "$work/protoscan" "${flags[@]}" --fail-on none \
    --format "json=$work/$run.json" --format "sarif=$work/$run.sarif" "$tree"
  printf '%-10s %s\n' "$run" "$(cat "$work/time")"
done
(cd "$work" && sha256sum ./*.json ./*.sarif)
for f in json sarif; do
  n=$(cd "$work" && sha256sum ./*."$f" | cut -d' ' -f1 | sort -u | wc -l)
  if [ "$n" -ne 1 ]; then
    echo "FAIL: $n different $f reports" >&2
    exit 1
  fi
done
echo "ok: 6 identical JSON reports, 6 identical SARIF reports"
