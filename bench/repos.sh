#!/usr/bin/env bash
# protoscan on checked-out repositories: files scanned, wall time, findings
# by family (msgcheck, enumdrift, divergence, protoscan notices).
# Usage: bench/repos.sh DIR...   (PROTOSCAN=BIN to measure another build)
set -euo pipefail
cd "$(dirname "$0")"
PS=${PROTOSCAN:-/tmp/protoscan-repos}
[ -n "${PROTOSCAN:-}" ] || go build -o "$PS" ../cmd/protoscan
printf '%-44s %6s %7s  %s\n' repository files seconds 'findings by family'
for dir in "$@"; do
  start=$(date +%s.%N)
  (cd "$dir" && "$PS" --no-cache --fail-on none --format json .) > /tmp/repos.json 2>/dev/null || true
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  python3 - "$dir" "$secs" <<'PY'
import collections, json, sys
d = json.load(open("/tmp/repos.json"))
fam = collections.Counter(f["rule"].split("/")[0] for f in d["findings"])
print(f'{sys.argv[1].rstrip("/").split("/")[-1]:44} {d["summary"]["files"]:6} {float(sys.argv[2]):7.2f}  {dict(sorted(fam.items())) or "none"}')
PY
done
