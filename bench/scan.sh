#!/usr/bin/env bash
# Side-by-side: protoscan scan vs ast-grep (8 status rules, bench/astgrep)
# vs cat of every file, on the Go and Python standard libraries, both cores.
# Usage: bench/scan.sh   (from the repository root; needs npm ci in bench/)
set -euo pipefail
cd "$(dirname "$0")"
[ -x node_modules/.bin/ast-grep ] || npm ci --no-audit --no-fund >/dev/null
go build -o /tmp/protoscan-bench ../cmd/protoscan
GOSRC=$(go env GOROOT)/src
PYLIB=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)

measure() { # name, command...: wall seconds and peak RSS in MB, plus a count
  local name=$1; shift
  local out
  out=$( { /usr/bin/time -f '%e %M' "$@" > /tmp/bench.out 2>/dev/null; } 2>&1 | tail -1)
  printf '%-34s %8s s %8d MB\n' "$name" "${out% *}" "$(( ${out#* } / 1024 ))"
}

for tree in "$GOSRC" "$PYLIB"; do
  [ -d "$tree" ] || continue
  echo "== $tree ($(find "$tree" -type f \( -name '*.go' -o -name '*.py' \) | wc -l) source files)"
  sync; cat $(find "$tree" -type f -name '*.go' -o -type f -name '*.py') > /dev/null # warm the cache
  measure "cat of every source file" sh -c "find '$tree' -type f \( -name '*.go' -o -name '*.py' -o -name '*.yaml' -o -name '*.json' \) -print0 | xargs -0 cat > /dev/null"
  measure "protoscan scan (2 cores)" /tmp/protoscan-bench --fail-on none --format json "$tree"
  echo "  protoscan findings: $(grep -c '"rule": "enumdrift/' /tmp/bench.out || true) enumdrift"
  measure "ast-grep scan, 8 rules (2 threads)" sh -c "cd astgrep && ../node_modules/.bin/ast-grep scan --threads 2 --json=stream '$tree'"
  echo "  ast-grep hits: $(wc -l < /tmp/bench.out)"
done
