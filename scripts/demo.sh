#!/bin/sh
# Builds folio and runs its main job on the bundled sample.
set -eu
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --product folio
folio=".build/debug/folio"
"$folio" --version
"$folio" plist lint Samples/NotebookApp/Info.plist
# The app's type declarations pass the validator, warnings included, and give the
# sample package its type.
"$folio" validate --strict Samples/NotebookApp/Info.plist
"$folio" types identify --declarations Samples/NotebookApp/Info.plist Samples/Notebook.examplenotebook

# The main job: export the sample notebook. Its type, com.example.notebook, comes
# from the app's declaration, which --declarations loads into the type registry.
out="demo-output"
mkdir -p "$out"
declarations="--declarations Samples/NotebookApp/Info.plist"
"$folio" export Samples/Notebook.examplenotebook --to zip -o "$out/Notebook.examplenotebook.zip" \
  $declarations --force --progress live
"$folio" export Samples/Notebook.examplenotebook --to public.plain-text -o "$out/Notebook.txt" \
  $declarations --force --progress live --explain
echo "demo: the notebook as a zip archive: $(pwd)/$out/Notebook.examplenotebook.zip"
echo "demo: the notebook as plain text:    $(pwd)/$out/Notebook.txt"
