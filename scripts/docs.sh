#!/bin/sh
# Builds the documentation of the Folio library: the DocC catalog Sources/Folio/Folio.docc
# and the symbol graph of the Folio module with the modules it re-exports, with the
# toolchain's docc (the docc plugin is not needed). Output: .build/docs/Folio.doccarchive.
# Any DocC warning (a broken link, a parameter that does not exist) fails the build;
# scripts/test.sh runs this.
set -eu
cd "$(dirname "$0")/.."
swift build --target Folio
bin=$(swift build --show-bin-path)
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)
out=.build/docs
graphs=$out/symbol-graphs
rm -rf "$graphs" "$out/Folio.doccarchive"
mkdir -p "$graphs"
# The C modules' maps, and the headers their pkg-config files name.
search=""
for dir in Sources/C*; do search="$search -I $dir"; done
for flag in $(pkg-config --cflags-only-I libxml-2.0 libarchive); do search="$search -Xcc $flag"; done
# shellcheck disable=SC2086
swift-symbolgraph-extract -module-name Folio -target "$triple" \
  -I "$bin" -I "$bin/Modules" $search \
  -minimum-access-level public -skip-inherited-docs \
  -experimental-allowed-reexported-modules=FolioSystem,PropertyLists,UniformTypes,TypeValidation,ProgressReporting,Archives,Documents,Notebooks \
  -output-dir "$graphs"
# One vocabulary: the public API names types and tag classes as Apple's framework does
# (UTType, UTTagClass). Folio's own TypeIdentifier and TagClass are package-internal, so no
# public symbol may mention them; the symbol graph holds every public signature.
internal_types='s:12UniformTypes14TypeIdentifierV\|s:12UniformTypes8TagClassV'
if grep -q "$internal_types" "$graphs"/*.json; then
  echo "error: public symbols name TypeIdentifier or TagClass (use UTType, UTTagClass or String):" >&2
  sed 's/{"kind":{"identifier":"swift\./\n&/g' "$graphs"/*.json | grep "$internal_types" |
    sed -n 's/.*"pathComponents":\[\([^]]*\)\].*/  \1/p' | tr -d '"' | tr ',' '.' | sort -u >&2
  exit 1
fi
docc convert Sources/Folio/Folio.docc --additional-symbol-graph-dir "$graphs" \
  --output-path "$out/Folio.doccarchive" --fallback-display-name Folio \
  --fallback-bundle-identifier org.folio.Folio --warnings-as-errors
echo "documentation: $out/Folio.doccarchive"
