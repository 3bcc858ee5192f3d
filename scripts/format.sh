#!/usr/bin/env bash
# Formats every tracked C and C++ source with the tree's .clang-format
# (clang-format 14, Debian 12's package clang-format-14).
#
#   scripts/format.sh            rewrite the files in place
#   scripts/format.sh --check    change nothing; list the files that differ
#                                and exit 1 if any does (CTest: source_format)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "format.sh: unknown argument $1 (use --check or nothing)" >&2; exit 2 ;;
esac

formatter=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" --version | grep -q 'version 14\.'; then
    formatter=$candidate
    break
  fi
done
if [ -z "$formatter" ]; then
  echo "format.sh: clang-format 14 not found (apt-get install clang-format-14): another version formats differently" >&2
  exit 77
fi

# The tracked sources; outside a git checkout (an unpacked tarball), every
# source but the build trees'.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.c' '*.cc' '*.h' '*.hpp' | grep -v '^include/')
else
  mapfile -t files < <(find . -path './build*' -prune -o -path ./include -prune -o \
    -type f \( -name '*.c' -o -name '*.cc' -o -name '*.h' -o -name '*.hpp' \) -print | sed 's|^\./||' | sort)
fi
if [ "$check" = 0 ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 64 -P "$(nproc)" "$formatter" -i
  exit 0
fi
differ=$(printf '%s\0' "${files[@]}" | xargs -0 -n 64 -P "$(nproc)" "$formatter" --dry-run 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$differ" ]; then
  echo "$differ"
  echo "format.sh: $(echo "$differ" | wc -l) file(s) differ from .clang-format; run scripts/format.sh" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files match .clang-format"
