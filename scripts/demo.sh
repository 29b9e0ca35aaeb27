#!/bin/sh
# Builds folio and runs its main job on the bundled sample.
set -eu
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --product folio
folio=".build/debug/folio"
"$folio" --version
"$folio" plist lint Samples/NotebookApp/Info.plist
