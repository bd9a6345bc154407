#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tools count through public headers: no source under src/tools includes the library's
# boundary (src/api) or core (src/core), or a header of another tool's folder. A tool includes
# its own folder's headers, the tools' kit (src/tools/common), the formats (src/report) and the
# installed headers (include/). The few library internals a tool still reads for names (the
# catalog's tables, the CPU map, the paranoia level, the clock, the rule for reading a file someone else named) are named below one by one, so that a new
# one fails here instead of slipping in.
#   tool_includes.sh SOURCE_DIR
set -uo pipefail
root=$1
tools=$root/src/tools
allowed_internals=(
  catalog/catalog.h
  catalog/group_catalog.h
  catalog/tables.h
  topology/cpu_map.h
  base/kernel.h
  base/clock.h
  base/small_file.h
  base/regular_file.h
)
failures=0
violation() {  # violation FILE LINE WHY
  echo "FAIL: ${1#"$root"/}: #include \"$2\": $3"
  failures=$((failures + 1))
}
checked=0
while IFS= read -r -d '' file; do
  checked=$((checked + 1))
  folder=$(dirname "$file")
  while IFS= read -r name; do
    case $name in
      api/* | */api/*) violation "$file" "$name" "src/api is the library's boundary: call the public API"; continue ;;
      core/* | */core/*) violation "$file" "$name" "src/core is the library's engine: call the public API"; continue ;;
      ../* | */../*) violation "$file" "$name" "a relative path out of the folder"; continue ;;
    esac
    if [[ $name == */* ]]; then
      ok=0
      for internal in "${allowed_internals[@]}"; do [[ $name == "$internal" ]] && ok=1; done
      ((ok)) || violation "$file" "$name" "not a header a tool may include (own folder, src/tools/common, src/report, include/)"
      continue
    fi
    [[ -f $folder/$name || -f $tools/common/$name || -f $root/src/report/$name ||
       -f $root/include/$name ]] && continue
    owner=$(cd "$tools" && find . -name "$name" -not -path "./common/*" | head -1)
    if [[ -n $owner ]]; then
      violation "$file" "$name" "another tool's header (src/tools/${owner#./}): move what is shared into src/tools/common"
    else
      violation "$file" "$name" "found in none of the folders a tool may include"
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find "$tools" -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) -print0)
if ((checked == 0)); then
  echo "FAIL: no source found under $tools"
  exit 1
fi
if ((failures)); then
  echo "$failures include(s) of $checked tool sources break the rule above"
  exit 1
fi
echo "ok: $checked tool sources include only their own folder, the kit, src/report and include/"
