#!/usr/bin/env bash
# Rewrites the project's own includes to the package prefix, in every C++ source of the
# repository: #include "io/x.hpp" -> #include "kinevo/io/x.hpp" (also <io/x.hpp>). Only the
# project's module folders are rewritten (tests/ and bench/ helpers and third-party headers stay).
# Idempotent: an include that already reads "kinevo/..." does not match.
#   tools/rewrite_includes.sh            rewrite in place
#   tools/rewrite_includes.sh --check    list the files that still need it; exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."

folders='io|ga|symbolic|optimization|mechanics|gauss|studies|synthesis|analysis|cli'
pattern="^([[:space:]]*#[[:space:]]*include[[:space:]]*[\"<])(${folders})/"

mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cc' '*.in' |
  xargs -r grep -lE "$pattern" --)
if [[ " $* " == *" --check "* ]]; then
  ((${#files[@]})) && printf '%s\n' "${files[@]}" && exit 1
  exit 0
fi
for f in "${files[@]}"; do
  sed -E -i "s%${pattern}%\\1kinevo/\\2/%" "$f"
done
echo "rewrite_includes.sh: ${#files[@]} files rewritten" >&2
