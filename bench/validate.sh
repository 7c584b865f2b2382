#!/usr/bin/env bash
# Side-by-side: message validation on one core, msgcheck (bench/validate)
# vs ajv 8 (bench/audit/ajv.mjs), on the same JSON Lines corpus
# (bench/corpus), each reporting parse+validate and validate-only, with
# peak RSS. The audit's end-to-end comparison is bench/audit.sh.
# Usage: bench/validate.sh   (from anywhere; needs Go, Node and npm ci in bench/)
#   N=100000 SEED=1 REPS=5 bench/validate.sh
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-100000} SEED=${SEED:-1} REPS=${REPS:-5}
[ -f node_modules/ajv/package.json ] || npm ci --no-audit --no-fund >/dev/null
WORK=$(mktemp -d /tmp/protoscan-validate.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
go build -o "$WORK/corpus" ./corpus
go build -o "$WORK/validate" ./validate
"$WORK/corpus" -n "$N" -seed "$SEED" > "$WORK/corpus.jsonl"
mkdir -p "$WORK/root/skills"
"$WORK/corpus" -print-skills | while read -r s; do mkdir -p "$WORK/root/skills/$s"; done
cat "$WORK/corpus.jsonl" > /dev/null # warm the page cache

run() { # name, command...: the tool's own lines, then its peak RSS
  local name=$1; shift
  /usr/bin/time -o "$WORK/t" -f '%M' "$@" > "$WORK/out" 2>&1 || { cat "$WORK/out"; return 1; }
  sed 's/^/  /' "$WORK/out"
  printf '  %s: peak RSS %d MB (corpus loaded in memory)\n' "$name" "$(( $(tail -1 "$WORK/t") / 1024 ))"
}
echo "== $N messages (seed $SEED), $(du -h "$WORK/corpus.jsonl" | cut -f1), best of $REPS, 1 thread each"
run ajv node audit/ajv.mjs --reps "$REPS" "$WORK/corpus.jsonl"
run msgcheck "$WORK/validate" -root "$WORK/root" -reps "$REPS" "$WORK/corpus.jsonl"
