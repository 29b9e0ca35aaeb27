#!/bin/sh
# Parses the shared plist corpus ROUNDS times (default 100) with Folio's readers and with
# Foundation's PropertyListSerialization, in the same process, and prints MB/s for each.
#
#   scripts/bench/plist.sh [ROUNDS [ONLY]]     ONLY: folio-xml, foundation-xml, folio-binary…
#
# The benchmark is built with optimisation (swiftc -O -wmo) from the PropertyLists sources
# and Benchmarks/PropertyListBench; it is not part of `swift build` or `swift test`.
set -eu
cd "$(dirname "$0")/../.."
rounds="${1:-100}"
work=".build/bench/plist"
mkdir -p "$work"
swiftc -O -wmo -parse-as-library -module-name PropertyListBench \
  -I Sources/CLibXML2 -Xcc -I/usr/include/libxml2 -lxml2 \
  $(find Sources/PropertyLists -name '*.swift') Benchmarks/PropertyListBench/BenchMain.swift \
  -o "$work/plist-bench"
corpus="Tests/Fixtures/InfoPlists"
exec "$work/plist-bench" "$corpus" "$rounds" ${2:+"$2"}
