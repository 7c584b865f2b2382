#!/usr/bin/env bash
# How the scan time grows with the size of a tree: generated repositories
# (bench/gentree) of 10k, 100k and 1M lines, scanned cold (no cache) on
# both cores, with cat of every file as the floor.
# Usage: bench/growth.sh   (from anywhere; needs Go)
#   SIZES="10000 100000 1000000" REPS=3 PROTOSCAN=BIN bench/growth.sh
set -euo pipefail
cd "$(dirname "$0")"
SIZES=${SIZES:-10000 100000 1000000} REPS=${REPS:-3}
WORK=$(mktemp -d /tmp/protoscan-growth.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PS=${PROTOSCAN:-$WORK/protoscan}
[ -n "${PROTOSCAN:-}" ] || go build -o "$PS" ../cmd/protoscan
go build -o "$WORK/gentree" ./gentree
NOCACHE=()
case "$("$PS" scan -h 2>&1 || true)" in *-no-cache*) NOCACHE=(--no-cache) ;; esac # not grep -q: see audit.sh

# best REPS: wall seconds and peak RSS (KB) of the fastest run
best() {
  local bs="" bm=""
  for _ in $(seq "$REPS"); do
    /usr/bin/time -o "$WORK/t" -f '%e %M' "$@" > "$WORK/out" 2>/dev/null || true
    read -r s m < "$WORK/t"
    if [ -z "$bs" ] || awk -v a="$s" -v b="$bs" 'BEGIN{exit !(a<b)}'; then bs=$s bm=$m; fi
  done
  echo "$bs $bm"
}

printf '%-10s %7s %9s %10s %9s %12s %9s\n' lines files findings "protoscan" "RSS" "µs per line" "cat"
for n in $SIZES; do
  tree="$WORK/tree-$n"
  "$WORK/gentree" -lines "$n" -out "$tree" > "$WORK/gen.txt"
  read -r files _ lines _ < "$WORK/gen.txt"
  find "$tree" -type f -print0 | xargs -0 cat > /dev/null # warm the page cache
  read -r cs _ < <(best sh -c "find '$tree' -type f -print0 | xargs -0 cat > /dev/null")
  read -r s m < <(best "$PS" "${NOCACHE[@]}" --fail-on never --format json "$tree")
  findings=$(grep -c '"rule": "[a-z]*/' "$WORK/out" || true)
  printf '%-10s %7s %9s %8s s %6d MB %12.2f %7s s\n' "$lines" "$files" "$findings" "$s" "$((m / 1024))" \
    "$(awk -v s="$s" -v l="$lines" 'BEGIN{print 1e6*s/l}')" "$cs"
  rm -rf "$tree"
done
