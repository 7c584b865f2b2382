#!/usr/bin/env bash
# Runs every fuzz target of the module, one after the other, for FUZZTIME
# each (default 10m), and appends one line per target to LOG:
#   <date> <package> <target> <fuzztime> ok|FAIL <execs>
# A crasher is written by go test to the package's testdata/fuzz/<target>/
# and from then on runs as a regression test in `go test ./...`: commit it
# with the fix.
# Usage: scripts/fuzz.sh                  all targets, 10 minutes each
#   FUZZTIME=30s scripts/fuzz.sh          a quick pass
#   ONLY=FuzzDecode scripts/fuzz.sh       targets matching a regexp
#   RESUME=1 scripts/fuzz.sh              skip targets LOG already has as ok for FUZZTIME
#   LOG=fuzz.log PAR=2 scripts/fuzz.sh    log file; workers per target (-parallel)
#   SHARD=0/2 scripts/fuzz.sh & SHARD=1/2 scripts/fuzz.sh   split the targets between two runs
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-10m} LOG=${LOG:-fuzz.log} PAR=${PAR:-1} ONLY=${ONLY:-.} SHARD=${SHARD:-0/1}
i=-1
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' | grep -E "$ONLY"); do
    i=$((i + 1))
    [ $((i % ${SHARD#*/})) -eq "${SHARD%/*}" ] || continue
    if [ "${RESUME:-}" = 1 ] && grep -q " $pkg $target $FUZZTIME ok" "$LOG" 2>/dev/null; then
      continue
    fi
    out=$(go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" -parallel="$PAR" "$pkg" 2>&1)
    rc=$? status=ok
    if [ $rc -ne 0 ] || grep -q '^--- FAIL\|^FAIL' <<<"$out"; then status=FAIL; fi
    execs=$(grep -o 'execs: [0-9]*' <<<"$out" | tail -1 | cut -d' ' -f2)
    echo "$(date -u +%FT%TZ) $pkg $target $FUZZTIME $status ${execs:-?}" | tee -a "$LOG"
    [ "$status" = ok ] || echo "$out" | tail -30 >&2
  done
done
