#!/usr/bin/env bash
# A/B: two builds of protoscan on the same work, run in turns, best of REPS.
# Work: a cold scan (--no-cache) of the Go standard library and of the
# Python standard library, and an audit of N generated messages.
# Usage: bench/abtest.sh BASE [NEW]   (git revisions; NEW defaults to the
#        working tree)   REPS=5 N=100000 bench/abtest.sh 604c1b6
#        SCAN="--analyzers divergence" times one analyzer's scans
# Each round runs BASE then NEW on one input, so a change of the machine's
# load during the run weighs on both builds alike.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: bench/abtest.sh BASE [NEW]} NEW=${2:-}
REPS=${REPS:-5} N=${N:-100000} SCAN=${SCAN:-}
WORK=$(mktemp -d /tmp/protoscan-ab.XXXXXX)
trap 'git worktree remove --force "$WORK/src" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

build() { # rev out: build revision rev ("" = working tree) into out
  if [ -z "$1" ]; then go build -o "$2" ./cmd/protoscan; return; fi
  git worktree add -q --detach "$WORK/src" "$1"
  (cd "$WORK/src" && go build -o "$2" ./cmd/protoscan)
  git worktree remove --force "$WORK/src"
}
build "$BASE" "$WORK/base"
build "$NEW" "$WORK/new"
echo "base: $(git rev-parse --short "$BASE")  new: ${NEW:-working tree ($(git rev-parse --short HEAD))}"

go build -o "$WORK/corpus" ./bench/corpus
"$WORK/corpus" -n "$N" -seed 1 > "$WORK/corpus.jsonl"
mkdir -p "$WORK/root/skills"
"$WORK/corpus" -print-skills | while read -r s; do mkdir -p "$WORK/root/skills/$s"; done

GOSRC=$(go env GOROOT)/src
PYLIB=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)

# seconds BIN ARGS...: the wall time of one run, output discarded
seconds() {
  /usr/bin/time -o "$WORK/time" -f '%e' "$@" > /dev/null 2>&1 || true
  tail -1 "$WORK/time"
}

ab() { # name args...: REPS rounds of base then new; best of each and the change
  local name=$1; shift
  local b=() n=()
  "$WORK/base" "$@" > /dev/null 2>&1 || true # warm the page cache
  for _ in $(seq "$REPS"); do
    b+=("$(seconds "$WORK/base" "$@")")
    n+=("$(seconds "$WORK/new" "$@")")
  done
  printf '%s\n' "${b[@]}" | sort -g | head -1 > "$WORK/b"
  printf '%s\n' "${n[@]}" | sort -g | head -1 > "$WORK/n"
  awk -v name="$name" -v b="$(cat "$WORK/b")" -v n="$(cat "$WORK/n")" -v all_b="${b[*]}" -v all_n="${n[*]}" \
    'BEGIN { printf "| %s | %.2f s | %.2f s | %+.1f %% |\n", name, b, n, (n - b) / b * 100;
             printf "    base runs: %s\n    new runs:  %s\n", all_b, all_n > "/dev/stderr" }'
}

echo "| work | base (best of $REPS) | new (best of $REPS) | change |"
echo "| --- | ---: | ---: | ---: |"
# shellcheck disable=SC2086 # SCAN is flags, split on purpose
ab "scan, Go standard library" --no-cache --fail-on none --format json $SCAN "$GOSRC"
# shellcheck disable=SC2086
[ -z "$PYLIB" ] || ab "scan, Python standard library" --no-cache --fail-on none --format json $SCAN "$PYLIB"
ab "audit, $N messages" audit --root "$WORK/root" --format json "$WORK/corpus.jsonl"
