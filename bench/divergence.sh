#!/usr/bin/env bash
# Side-by-side: protoscan's divergence analyzer vs jscpd clone detection
# (bench/jscpd/.jscpd.json: python, go and yaml, identifiers and literals
# ignored, 30 tokens) vs cat of every file, on the Go and Python standard
# libraries.
# Usage: bench/divergence.sh   (from the repository root; needs npm ci in bench/)
set -euo pipefail
cd "$(dirname "$0")"
[ -x node_modules/.bin/jscpd ] || npm ci --no-audit --no-fund >/dev/null
go build -o /tmp/protoscan-bench ../cmd/protoscan
GOSRC=$(go env GOROOT)/src
PYLIB=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)

# The config has jscpd write its JSON report to ./report; -o sends it to a
# temporary directory instead (detection settings are untouched).
REPORT=$(mktemp -d /tmp/jscpd-report.XXXXXX)
trap 'rm -rf "$REPORT"' EXIT

measure() { # name, command...: wall seconds and peak RSS in MB; false if the command failed
  local name=$1 out note=; shift
  /usr/bin/time -o /tmp/bench.time -f '%e %M' "$@" > /tmp/bench.out 2>/tmp/bench.err || true
  out=$(tail -1 /tmp/bench.time)
  case $(head -1 /tmp/bench.time) in
  # No swap: a SIGKILL here is the kernel's OOM killer; %M is the RSS it reached.
  *'signal 9') note='  killed (out of memory) at this RSS' ;;
  Command*) note="  $(head -1 /tmp/bench.time): $(head -1 /tmp/bench.err)" ;;
  esac
  printf '%-36s %7s s %6d MB%s\n' "$name" "${out% *}" "$(( ${out#* } / 1024 ))" "$note"
  [ -z "$note" ]
}

# One file set: protoscan's default excludes (vendor/, site-packages/,
# node_modules/, caches) are given to find and jscpd too.
files() { find "$1" \( -name vendor -o -name site-packages -o -name node_modules -o -name __pycache__ \) -prune -o -type f \( -name '*.go' -o -name '*.py' -o -name '*.yaml' -o -name '*.yml' -o -name '*.json' -o -name '*.md' \) -print0; }
# jscpd's --ignore replaces the config's "ignore" list rather than adding to
# it, so the config's own entries (node_modules, .git, testdata) are repeated.
# jscpd also skips files over 1 MB (its default --max-size) and honours .gitignore.
IGNORE='**/node_modules/**,**/.git/**,**/testdata/**,**/vendor/**,**/site-packages/**,**/__pycache__/**'

clones() { # clone count by kind and files analysed, from the JSON report
  node -e 'const r = require(process.argv[1]), kinds = {};
    for (const d of r.duplicates) kinds[d.kind] = (kinds[d.kind] || 0) + 1;
    const t = r.statistics.total;
    console.log(`${t.clones} clones (${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(", ")}) in ${t.sources} files, ${t.lines} lines`)' "$REPORT/jscpd-report.json"
}

for tree in "$GOSRC" "$PYLIB"; do
  [ -d "$tree" ] || continue
  echo "== $tree: $(files "$tree" | tr -cd '\0' | wc -c) files, $(files "$tree" | xargs -0 cat | wc -l) lines"
  files "$tree" | xargs -0 cat > /dev/null # warm the page cache
  measure "cat of every file" sh -c "$(declare -f files); files '$tree' | xargs -0 cat > /dev/null" || true
  if measure "protoscan divergence (2 cores)" /tmp/protoscan-bench --no-cache --analyzers divergence --fail-on none --format json "$tree"; then
    echo "  protoscan: $(grep -c '"rule": "divergence/' /tmp/bench.out || true) divergence findings"
  fi
  # jscpd 5 is a Rust binary (node_modules/.bin/jscpd is a Node shim that spawns
  # it), so NODE_OPTIONS=--max-old-space-size has no effect on its memory and is
  # not needed. Clone matching is single-threaded: --workers (default: all
  # cores) only parallelises reading and tokenising files, the first seconds of
  # the run; it is timed with 2 workers and with 1, as ast-grep is in scan.sh.
  for workers in 2 1; do
    rm -f "$REPORT"/*
    if measure "jscpd ($workers worker$([ "$workers" = 1 ] || echo s))" node_modules/.bin/jscpd -c jscpd/.jscpd.json -o "$REPORT" -i "$IGNORE" --workers "$workers" "$tree"; then
      echo "  jscpd: $(clones)"
    fi
  done
done
