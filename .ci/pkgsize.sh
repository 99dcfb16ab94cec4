#!/usr/bin/env bash
# pkgsize.sh lists the Go packages of the repository by their lines of
# code without tests, generated files and copies of third-party code
# (third_party/), largest first, and flags each one over LIMIT (default
# 3000) whose doc.go has no "# Size" section saying why it stays that big.
# Exit status 1 when one is flagged.
#   .ci/pkgsize.sh [LIMIT]
set -euo pipefail
limit=${1:-3000}
cd "$(git rev-parse --show-toplevel)"
status=0
while read -r n dir; do
  mark=""
  if [ "$n" -gt "$limit" ]; then
    if grep -qs '^// # Size$' "$dir/doc.go"; then mark="  (reason in doc.go)"; else mark="  OVER, no reason in doc.go"; status=1; fi
  fi
  printf '%6d %s%s\n' "$n" "$dir" "$mark"
done < <(git ls-files -co --exclude-standard '*.go' | grep -v '_test\.go$' | grep -v '^\.ci/' | grep -v '^third_party/' |
  while read -r f; do
    [ -f "$f" ] || continue
    head -c 2000 "$f" | grep -q '^// Code generated .* DO NOT EDIT\.$' && continue
    echo "$(dirname "$f") $(wc -l < "$f")"
  done | awk '{a[$1]+=$2} END {for (k in a) print a[k], k}' | sort -rn | head -15)
exit $status
