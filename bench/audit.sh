#!/usr/bin/env bash
# Side-by-side: protoscan audit vs ajv 8 (JSON Schema) on a JSON Lines corpus
# of DELEGATE/HANDBACK messages (bench/corpus: ~70% valid, 30% breaking one
# rule each, a task-id graph with a few duplicates and orphans).
# Usage: bench/audit.sh   (from anywhere; needs Go, Node and npm ci in bench/)
#   N=100000 SEED=1 REPS=3 KEEP=1 PROTOSCAN=BIN bench/audit.sh   (KEEP=1 keeps the work dir)
#
# Verdicts: both tools write one "1" (valid) or "0" (invalid) per message, in
# input order, and the script compares them line by line. What JSON Schema
# cannot express: the DELEGATE skill must exist under skills/ of the root
# (msgcheck's existsIn). The corpus names only the skills that
# `corpus -print-skills` lists and this script creates under ROOT/skills/,
# so that rule never separates the two tools (run the generator with
# -unknown-skills RATE to see it do so). Duplicate and orphan task ids are
# integrity findings of the audit, not per-message verdicts: ajv never sees
# them, and they should not flip protoscan's verdicts either; a disagreement
# on such a line shows its graph role in the label column.
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-100000} SEED=${SEED:-1} REPS=${REPS:-3}
[ -f node_modules/ajv/package.json ] || npm ci --no-audit --no-fund >/dev/null

WORK=$(mktemp -d /tmp/protoscan-audit.XXXXXX)
if [ "${KEEP:-}" = 1 ]; then echo "work dir: $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
go build -o "$WORK/corpus" ./corpus
PS=${PROTOSCAN:-$WORK/protoscan} # PROTOSCAN=BINARY: measure that build instead
[ -n "${PROTOSCAN:-}" ] || go build -o "$PS" ../cmd/protoscan

# corpus, its labels (generator's verdict, graph role, mutation) and the root
"$WORK/corpus" -n "$N" -seed "$SEED" -labels "$WORK/labels.tsv" > "$WORK/corpus.jsonl"
mkdir -p "$WORK/root/skills"
"$WORK/corpus" -print-skills | while read -r s; do mkdir -p "$WORK/root/skills/$s"; done
echo "== corpus: $N messages (seed $SEED), $(du -h "$WORK/corpus.jsonl" | cut -f1)," \
  "$(cut -f1 "$WORK/labels.tsv" | grep -c '^1$' || true) meant valid," \
  "$(cut -f2 "$WORK/labels.tsv" | grep -c '^orphan$' || true) orphans," \
  "$(cut -f2 "$WORK/labels.tsv" | grep -c '^duplicate' || true) duplicates"
cat "$WORK/corpus.jsonl" > /dev/null # warm the page cache

# compare VERDICTS_A VERDICTS_B NAME_A NAME_B: disagreements, the first 5 shown
compare() {
  local a=$1 b=$2 na=$3 nb=$4
  local la lb; la=$(wc -l < "$a"); lb=$(wc -l < "$b")
  if [ "$la" != "$lb" ]; then
    echo "  $na has $la verdicts, $nb $lb: not comparable line by line"; return 1
  fi
  paste -d '\t' "$a" "$b" "$WORK/labels.tsv" | awk -F '\t' -v na="$na" -v nb="$nb" '
    $1 != $2 { d++; if (d <= 5) printf "  line %d: %s=%s %s=%s (generator: %s, %s, %s)\n", NR, na, $1, nb, $2, ($3 == "1" ? "valid" : "invalid"), $4, ($5 == "" ? "base" : $5); if (d <= 5) lines = lines " " NR }
    END { printf "  %s vs %s: %d of %d verdicts differ\n", na, nb, d + 0, NR; if (d > 0) print lines > "/dev/stderr" }' \
    2> "$WORK/difflines"
  for l in $(head -c 400 "$WORK/difflines"); do
    printf '    %d: %s\n' "$l" "$(sed -n "${l}p" "$WORK/corpus.jsonl" | cut -c1-300)"
  done
}

echo "== ajv (node audit/ajv.mjs, best of $REPS, 1 thread)"
node audit/ajv.mjs --reps "$REPS" --verdicts "$WORK/ajv.verdicts" "$WORK/corpus.jsonl" | tee "$WORK/ajv.txt"
cut -f1 "$WORK/labels.tsv" > "$WORK/labels.verdicts"
compare "$WORK/labels.verdicts" "$WORK/ajv.verdicts" generator ajv || true

echo "== protoscan audit (best of $REPS runs)"
if ! "$PS" audit --help 2>&1 | grep -q -- '-verdicts'; then
  echo "  skipped: this protoscan has no 'audit' subcommand with --verdicts yet"
  exit 0
fi
# best of REPS runs, as for ajv; each run is a fresh process, so its time
# includes start-up, reading the file and writing the report
for rep in $(seq "$REPS"); do
  /usr/bin/time -o "$WORK/ps.time" -f '%e %M' \
    "$PS" audit --root "$WORK/root" --format json --verdicts "$WORK/ps.verdicts" "$WORK/corpus.jsonl" \
    > "$WORK/ps.json" 2> "$WORK/ps.err" || true # exit 1: the corpus has invalid messages
  tail -1 "$WORK/ps.time" >> "$WORK/ps.times"
done
read -r secs rss < <(sort -n "$WORK/ps.times" | head -1)
if [ ! -s "$WORK/ps.verdicts" ]; then
  echo "  protoscan audit wrote no verdicts; its stderr:"; head -20 "$WORK/ps.err"; exit 1
fi
valid=$(grep -c '^1$' "$WORK/ps.verdicts" || true)
echo "  $valid valid of $(wc -l < "$WORK/ps.verdicts") ($(awk -v v="$valid" -v n="$N" 'BEGIN{printf "%.1f", 100*v/n}')%)"
compare "$WORK/labels.verdicts" "$WORK/ps.verdicts" generator protoscan || true
compare "$WORK/ajv.verdicts" "$WORK/ps.verdicts" ajv protoscan || true

echo "== throughput ($N messages)"
awk '/parse\+validate/ {printf "  %-48s %s %s\n", "ajv, JSON.parse + validate (1 thread)", $(NF-1), $NF}
     /validate only/  {printf "  %-48s %s %s\n", "ajv, validate only (1 thread)", $(NF-1), $NF}' "$WORK/ajv.txt"
awk -v s="$secs" -v n="$N" -v m="$rss" 'BEGIN {
  printf "  %-48s %.0fk msg/s (%.2f s wall, %d MB peak RSS)\n", "protoscan audit, best of '"$REPS"' (2 cores, end to end)", n / (s > 0 ? s : 0.01) / 1000, s, m / 1024 }'
# the issue-6 target: protoscan end to end at least twice ajv's parse+validate
ajv_rate=$(awk '/parse\+validate:/ {gsub(/k/, "", $(NF-1)); print $(NF-1); exit}' "$WORK/ajv.txt")
awk -v s="$secs" -v n="$N" -v a="$ajv_rate" 'BEGIN {
  if (a > 0 && s > 0) printf "  %-48s %.2fx (target: 2x)\n", "protoscan end to end / ajv parse+validate", n / s / 1000 / a }'
