#!/bin/sh
# Benchmarks the type registry and validator; prints figures, asserts nothing.
#
#   scripts/bench/types.sh [ROUNDS] [LOOKUPS]
#
# - validates every plist of the shared corpus ROUNDS times (default 100) in one
#   process (also with the RELAX NG schema pass), then with the built
#   `folio validate` (a process per round, all files), beside `plutil -lint`
#   (syntax only) from the Swift toolchain as a peer;
# - looks up LOOKUPS filename extensions (default 1,000,000) and answers LOOKUPS
#   conformance questions, by the precomputed closure and by a graph walk.
#
# The in-process benchmark is built with optimisation (swiftc -O -wmo) from the
# PropertyLists and UniformTypes sources and Benchmarks/TypesBench; it is not part
# of `swift build` or `swift test`. The folio binary is the debug build unless
# FOLIO_BINARY names another.
set -eu
cd "$(dirname "$0")/../.."
rounds="${1:-100}"
lookups="${2:-1000000}"
work=".build/bench/types"
mkdir -p "$work"
corpus="Tests/Fixtures/InfoPlists"
common="-O -wmo -parse-as-library -I Sources/CLibXML2 -Xcc -I/usr/include/libxml2 -I $work"

echo "building (swiftc -O -wmo)…" >&2
# shellcheck disable=SC2086
swiftc $common -module-name PropertyLists -emit-module -emit-module-path "$work/PropertyLists.swiftmodule" \
  -emit-library -static -o "$work/libPropertyLists.a" $(find Sources/PropertyLists -name '*.swift')
# shellcheck disable=SC2086
swiftc $common -module-name UniformTypes -emit-module -emit-module-path "$work/UniformTypes.swiftmodule" \
  -emit-library -static -o "$work/libUniformTypes.a" $(find Sources/UniformTypes -name '*.swift')
# shellcheck disable=SC2086
swiftc $common -module-name TypesBench Benchmarks/TypesBench/BenchMain.swift \
  -L "$work" -lUniformTypes -lPropertyLists -lxml2 -o "$work/types-bench"

echo "== in process ==" 
"$work/types-bench" "$corpus" Samples/NotebookApp/Info.plist "$rounds" "$lookups"

folio="${FOLIO_BINARY:-.build/debug/folio}"
if [ -x "$folio" ]; then
  echo "== $folio validate, all corpus files per process, $rounds processes =="
  start=$(date +%s.%N)
  i=0
  while [ "$i" -lt "$rounds" ]; do
    "$folio" validate "$corpus"/*.plist >/dev/null 2>&1 || true
    i=$((i + 1))
  done
  end=$(date +%s.%N)
  echo "$start $end $rounds" | awk '{ printf "folio validate: %.2f s, %.1f ms/process\n", $2 - $1, ($2 - $1) * 1000 / $3 }'
fi

if command -v plutil >/dev/null 2>&1; then
  echo "== peer: plutil -lint (syntax only), all corpus files per process, $rounds processes =="
  start=$(date +%s.%N)
  i=0
  while [ "$i" -lt "$rounds" ]; do
    plutil -lint "$corpus"/*.plist >/dev/null 2>&1 || true
    i=$((i + 1))
  done
  end=$(date +%s.%N)
  echo "$start $end $rounds" | awk '{ printf "plutil -lint: %.2f s, %.1f ms/process\n", $2 - $1, ($2 - $1) * 1000 / $3 }'
fi
