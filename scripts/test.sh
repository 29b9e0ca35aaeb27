#!/bin/sh
# Runs Folio's whole test suite: installs what is missing, builds, tests,
# then checks the project's own samples with the built tool.
set -eu
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# The checked-in .swift-format is the style: a file that strays fails here, before the build.
swift format lint --strict -r Sources Tests Examples Package.swift
swift build --build-tests
# The library's documentation (Sources/Folio/Folio.docc and every public doc comment)
# must build with DocC without a warning: a broken link or a stale parameter fails here.
scripts/docs.sh
swift test --skip-build
# The project's own declarations must pass the type validator, warnings included.
find Samples -name '*.plist' -print0 | xargs -0 .build/debug/folio validate --strict --schema
# Folio as a library: the example package depends on this one by path, as a user's
# program does (Examples/Notebook/README.md); its build is kept apart from the main one.
# NotebookExample opens, edits, saves and exports a copy of the sample notebook;
# ReadmeExample is the README's example, checked to be the README's text first.
scripts/readme-example.sh --check
example_output=$(mktemp -d)
trap 'rm -rf "$example_output"' EXIT
swift build --package-path Examples/Notebook --scratch-path .build/examples/notebook
.build/examples/notebook/debug/NotebookExample \
  Samples/Notebook.examplenotebook Samples/NotebookApp/Info.plist "$example_output/notebook"
cp -R Samples/Notebook.examplenotebook "$example_output/"
readme_example="$(pwd)/.build/examples/notebook/debug/ReadmeExample"
(cd "$example_output" && "$readme_example" > readme.out)
grep -q '"title": "Field Notes"' "$example_output/readme.out"
