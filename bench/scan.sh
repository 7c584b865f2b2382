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
  /usr/bin/time -o /tmp/bench.time -f '%e %M' "$@" > /tmp/bench.out 2>/dev/null || true
  local out; out=$(tail -1 /tmp/bench.time)
  printf '%-36s %7s s %6d MB\n' "$name" "${out% *}" "$(( ${out#* } / 1024 ))"
}

# One file set for all three tools: protoscan's default excludes (vendor/,
# site-packages/, node_modules/, caches) are given to find and ast-grep too.
files() { find "$1" \( -name vendor -o -name site-packages -o -name node_modules -o -name __pycache__ \) -prune -o -type f \( -name '*.go' -o -name '*.py' -o -name '*.yaml' -o -name '*.yml' -o -name '*.json' -o -name '*.md' \) -print0; }

for tree in "$GOSRC" "$PYLIB"; do
  [ -d "$tree" ] || continue
  echo "== $tree: $(files "$tree" | tr -cd '\0' | wc -c) files, $(files "$tree" | xargs -0 cat | wc -l) lines"
  files "$tree" | xargs -0 cat > /dev/null # warm the page cache
  measure "cat of every file" sh -c "$(declare -f files); files '$tree' | xargs -0 cat > /dev/null"
  # enumdrift alone does the job ast-grep's rules do; the default scan adds
  # divergence. Cold: the cache would skip the work (see all.sh for a warm scan)
  measure "protoscan, enumdrift (2 cores)" /tmp/protoscan-bench --no-cache --analyzers enumdrift --fail-on none --format json "$tree"
  echo "  protoscan: $(grep -c '"rule": "enumdrift/' /tmp/bench.out || true) enumdrift findings"
  measure "protoscan scan, all analyzers" /tmp/protoscan-bench --no-cache --fail-on none --format json "$tree"
  echo "  protoscan: $(grep -c '"rule": "[a-z]*/' /tmp/bench.out || true) findings, $(grep -c '"rule": "protoscan/' /tmp/bench.out || true) of them notices"
  measure "ast-grep scan, 8 rules (2 threads)" sh -c "cd astgrep && ../node_modules/.bin/ast-grep scan --threads 2 --json=stream --globs '!**/vendor/**' --globs '!**/site-packages/**' --globs '!**/node_modules/**' '$tree'"
  echo "  ast-grep: $(wc -l < /tmp/bench.out) hits"
  measure "ast-grep scan, 8 rules (1 thread)" sh -c "cd astgrep && ../node_modules/.bin/ast-grep scan --threads 1 --json=stream --globs '!**/vendor/**' --globs '!**/site-packages/**' --globs '!**/node_modules/**' '$tree'"
done
