#!/usr/bin/env bash
# Every side-by-side comparison of BENCHMARKS.md in one run, one after the
# other on the same machine, with the machine's description first:
#   message validation vs ajv    bench/validate.sh
#   the audit vs ajv             bench/audit.sh
#   the scan vs ast-grep and cat bench/scan.sh
#   divergence vs jscpd and cat  bench/divergence.sh
#   scan time vs tree size       bench/growth.sh
#   cold vs warm scan (cache)    here, on the Go standard library
#   the layered pipeline         here, go test -bench (min-max of 6 runs)
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

echo
echo "######## the layered pipeline (msgcheck/pipeline), time per message, min-max of 6 runs"
(cd .. && go test -run='^$' -bench='Pipeline' -benchmem -count=6 ./msgcheck/pipeline/) |
  awk '/^BenchmarkPipeline/ { n = $1; sub(/^BenchmarkPipeline\//, "", n); sub(/-[0-9]+$/, "", n)
      t = $3; if (!(n in lo) || t < lo[n]) lo[n] = t; if (!(n in hi) || t > hi[n]) hi[n] = t; a[n] = $(NF-1)
      if (!(n in seen)) { seen[n] = 1; order[++k] = n } }
    END { for (i = 1; i <= k; i++) printf "  %-40s %6.2f-%.2f us/op, %s allocs/op\n", order[i], lo[order[i]] / 1000, hi[order[i]] / 1000, a[order[i]] }'
