#!/bin/sh
# Runs Folio's whole test suite: installs what is missing, builds, tests,
# then checks the project's own samples with the built tool.
set -eu
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build
# The project's own declarations must pass the type validator, warnings included.
find Samples -name '*.plist' -print0 | xargs -0 .build/debug/folio validate --strict --schema
