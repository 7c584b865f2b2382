#!/usr/bin/env bash
# Every side-by-side comparison of BENCHMARKS.md in one run, one after the
# other on the same machine, with the machine's description first:
#   message validation vs ajv    bench/validate.sh
#   the audit vs ajv             bench/audit.sh
#   the scan vs ast-grep and cat bench/scan.sh
#   divergence vs jscpd and cat  bench/divergence.sh
#   scan time vs tree size       bench/growth.sh
#   cold vs warm scan (cache)    here, on the Go standard library
# Usage: bench/all.sh | tee bench-$(date +%F).txt   (needs Go, Node, npm ci in bench/)
set -euo pipefail
cd "$(dirname "$0")"
echo "== $(date -u +%FT%TZ) $(go version) $(node --version 2>/dev/null || true)"
echo "== $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GB"
for s in validate audit scan divergence growth; do
  echo
  echo "######## bench/$s.sh"
  "./$s.sh"
done

echo
echo "######## cold vs warm scan (the cache), Go standard library"
PS=$(mktemp -d /tmp/protoscan-all.XXXXXX)
trap 'rm -rf "$PS"' EXIT
go build -o "$PS/protoscan" ../cmd/protoscan
export PROTOSCAN_CACHE_DIR=$PS/cache
SRC=$(go env GOROOT)/src
t() { /usr/bin/time -f '%e s wall, %U+%S s CPU, %M KB peak RSS' "$@" > /dev/null 2>> "$PS/t" || true; tail -1 "$PS/t"; }
echo "  cold, --no-cache:        $(t "$PS/protoscan" --no-cache --fail-on never --format json "$SRC")"
echo "  first run, fills cache:  $(t "$PS/protoscan" --fail-on never --format json "$SRC")"
sleep 2 # the cache trusts a file's stat only once it is 2 s old
"$PS/protoscan" --fail-on never --format json "$SRC" > /dev/null 2>&1 || true
for i in 1 2 3; do
  echo "  warm, run $i:             $(t "$PS/protoscan" --fail-on never --format json "$SRC")"
done
