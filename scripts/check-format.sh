#!/usr/bin/env bash
# The C++ sources follow .clang-format (Debian's clang-format 14): fails, naming the files and
# the command that fixes them, where one does not.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$cf" ]; then
  echo "check-format.sh: clang-format is not installed (apt-get install clang-format)" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
else
  mapfile -t files < <(find app bench engine tests validation -name '*.cpp' -o -name '*.hpp' -o -name '*.h' 2>/dev/null)
fi
# One clang-format process for all of them; its warnings name the files that differ.
mapfile -t bad < <(printf '%s\0' "${files[@]}" | xargs -0 "$cf" --dry-run 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if [ ${#bad[@]} -gt 0 ]; then
  printf 'not formatted as .clang-format says (%d files):\n' "${#bad[@]}" >&2
  printf '  %s\n' "${bad[@]}" >&2
  printf 'fix with:\n  %s -i %s\n' "$cf" "${bad[*]}" >&2
  exit 1
fi
echo "format: ${#files[@]} files follow .clang-format"
