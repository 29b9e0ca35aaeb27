#!/bin/sh
# Builds the folio that scripts/release.sh ships and prints its path on standard output.
#
#   scripts/build-release.sh
#
# `swift build -c release --static-swift-stdlib` (the Swift standard library and
# Foundation linked in), in a scratch folder of its own so the release build neither
# waits for nor blocks .build/. The release script packages this binary, and the
# benchmarks (scripts/bench/pipeline.sh, memory.sh) time it: the binary users install.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --scratch-path .build/static --product folio >&2
echo "$(swift build -c release --static-swift-stdlib --scratch-path .build/static --show-bin-path)/folio"
