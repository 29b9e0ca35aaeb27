#!/bin/sh
# Fuzzes Folio's property list readers and writers with libFuzzer.
#
#   scripts/fuzz/plist.sh [SECONDS]     (default 600)
#
# Builds Fuzz/PropertyListFuzz with the PropertyLists sources into one executable
# (swiftc -sanitize=fuzzer,address; not part of `swift build`), seeds it with the
# shared corpus (as XML, binary and JSON) and the kept regression inputs, and
# runs it. Any crashing input is written to Tests/PropertyListsTests/Fixtures/Fuzz/,
# where PropertyListFuzzRegressionTests replays it on every `swift test`.
set -eu
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
work=".build/fuzz/plist"
fixtures="Tests/PropertyListsTests/Fixtures/Fuzz"
mkdir -p "$work/corpus" "$fixtures"

# PropertyLists imports FolioSystem: that module is built first, on its own, and the
# PropertyLists sources are compiled with the harness (which uses internal names).
flags="-swift-version 6 -package-name Folio -sanitize=fuzzer,address -O -g
  -enable-upcoming-feature InternalImportsByDefault -I $work -I Sources/CLibXML2
  -Xcc -I/usr/include/libxml2"
# shellcheck disable=SC2086
nice swiftc $flags -parse-as-library -wmo -module-name FolioSystem \
  -emit-module -emit-module-path "$work/FolioSystem.swiftmodule" \
  -c $(find Sources/FolioSystem -name '*.swift' | sort) -o "$work/FolioSystem.o"
# shellcheck disable=SC2086
nice swiftc $flags -parse-as-library -module-name PropertyListFuzz \
  $(find Sources/PropertyLists -name '*.swift' | sort) Fuzz/PropertyListFuzz/FuzzEntry.swift \
  "$work/FolioSystem.o" -lxml2 -o "$work/plist-fuzz"

# Seeds: every corpus plist in all three formats (JSON where it converts), and the kept inputs.
[ -x .build/debug/folio ] || swift build --product folio >/dev/null
for file in Tests/Fixtures/InfoPlists/*.plist Samples/NotebookApp/Info.plist; do
  [ -f "$file" ] || continue
  name=$(basename "$file" .plist | tr -c 'A-Za-z0-9_\n-' '_')
  cp "$file" "$work/corpus/$name.xml"
  .build/debug/folio plist convert --to binary -o "$work/corpus/$name.bplist" "$file" 2>/dev/null || true
  .build/debug/folio plist convert --to json -o "$work/corpus/$name.json" "$file" 2>/dev/null || true
done
cp "$fixtures"/* "$work/corpus/" 2>/dev/null || true

# Let libFuzzer, not the Swift runtime's backtracer, handle a crash.
export SWIFT_BACKTRACE=enable=no
exec nice "$work/plist-fuzz" "$work/corpus" -dict=Fuzz/PropertyListFuzz/plist.dict \
  -max_total_time="$seconds" -max_len=65536 -timeout=30 -report_slow_units=2 -rss_limit_mb=1024 \
  -artifact_prefix="$fixtures/" -print_final_stats=1
