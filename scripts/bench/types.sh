#!/bin/sh
# Benchmarks the type registry and validator; prints figures, asserts nothing.
#
#   scripts/bench/types.sh [ROUNDS] [LOOKUPS]      everything below
#   scripts/bench/types.sh --desktop [FILES] [RUNS]  only the desktop database part
#
# - validates every plist of the shared corpus ROUNDS times (default 100) in one
#   process (also with the RELAX NG schema pass), then with the built
#   `folio validate` (a process per round, all files), beside `plutil -lint`
#   (syntax only) from the Swift toolchain as a peer;
# - looks up LOOKUPS filename extensions (default 1,000,000) and answers LOOKUPS
#   conformance questions, by the precomputed closure and by a graph walk.
#
# Then (alone with --desktop) it measures the shared MIME database (/usr/share/mime, from shared-mime-info):
# loading it (parsing the XML or reading folio's cache of it, and the registry build, medians;
# keeping the comments of no translation (the C locale), of German, and of every language),
# then identifying FILES regular files
# found under /usr (default 10,000) by name and content: in process (reading their first
# bytes, then identifying from memory), with the built `folio types identify --content`,
# and beside `file --mime-type`, `gio info` and `xdg-mime query filetype` on the same files
# (xdg-mime starts a shell per file, so it runs on the first 200 and is scaled). Runs
# alternate folio and peers, RUNS times (default 3), and print medians. Install xdg-utils
# for the xdg-mime peer (it is not needed by the tests).
#
# The in-process benchmark is built with optimisation (swiftc -O -wmo) from the
# PropertyLists and UniformTypes sources and Benchmarks/TypesBench; it is not part
# of `swift build` or `swift test`. The folio binary is the debug build for validation
# and the release build (brought up to date first) for the desktop part, unless
# FOLIO_BINARY names another.
set -eu
cd "$(dirname "$0")/../.."
desktop=""
if [ "${1:-}" = "--desktop" ]; then
  desktop=1
  shift
fi
rounds="${1:-100}"
lookups="${2:-1000000}"
work=".build/bench/types"
mkdir -p "$work"
corpus="Tests/Fixtures/InfoPlists"
common="-swift-version 6 -enable-upcoming-feature InternalImportsByDefault -package-name Folio -O -wmo -parse-as-library -I Sources/CLibXML2 -Xcc -I/usr/include/libxml2 -I $work"

echo "building (swiftc -O -wmo)…" >&2
# shellcheck disable=SC2086
swiftc $common -module-name FolioSystem -emit-module -emit-module-path "$work/FolioSystem.swiftmodule" \
  -emit-library -static -o "$work/libFolioSystem.a" $(find Sources/FolioSystem -name '*.swift')
# shellcheck disable=SC2086
swiftc $common -module-name PropertyLists -emit-module -emit-module-path "$work/PropertyLists.swiftmodule" \
  -emit-library -static -o "$work/libPropertyLists.a" $(find Sources/PropertyLists -name '*.swift')
# shellcheck disable=SC2086
swiftc $common -module-name UniformTypes -emit-module -emit-module-path "$work/UniformTypes.swiftmodule" \
  -emit-library -static -o "$work/libUniformTypes.a" $(find Sources/UniformTypes -name '*.swift')
# shellcheck disable=SC2086
swiftc $common -module-name TypesBench Benchmarks/TypesBench/BenchMain.swift \
  -L "$work" -lUniformTypes -lPropertyLists -lFolioSystem -lxml2 -lswiftSynchronization -o "$work/types-bench"

desktop_bench() { # FILES RUNS: the shared MIME database and identification by content
  files="$1"
  runs="$2"
  list="$work/files.txt"
  # An even sample of everything under /usr (binaries, libraries, headers, scripts,
  # documentation, images, fonts), the same files on every run.
  find /usr/share /usr/lib /usr/include /usr/bin -xdev -type f -size +0 -readable 2>/dev/null \
    | LC_ALL=C sort > "$work/all-files.txt"
  total=$(wc -l < "$work/all-files.txt")
  step=$(( total / files )); [ "$step" -ge 1 ] || step=1
  awk -v step="$step" 'NR % step == 0' "$work/all-files.txt" | head -n "$files" > "$list"
  count=$(wc -l < "$list")
  echo "== desktop database and identification of $count files under /usr (load $(cut -d' ' -f1-3 /proc/loadavg)) =="
  "$work/types-bench" "$corpus" Samples/NotebookApp/Info.plist 20 0 /usr/share/mime "$list"
  folio="${FOLIO_BINARY:-}"
  if [ -z "$folio" ]; then
    # Always brought up to date: a release binary left from older sources measured them.
    folio=.build/release/folio
    echo "building $folio (swift build -c release --product folio)…" >&2
    swift build -c release --product folio >/dev/null
  fi
  time_of() { # prints the wall seconds a command takes
    start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.3f", $2 - $1 }'
  }
  median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  # What reading the database costs each folio process: the release binary answering one
  # question with the database read through its cache (a scratch XDG_CACHE_HOME, warmed
  # first), read from the XML (XDG_CACHE_HOME=/dev/null: no cache can be made), and without
  # it (XDG_DATA_DIRS pointing nowhere), in turns.
  cache_home="$work/cache-home"
  rm -rf "$cache_home"
  XDG_CACHE_HOME="$PWD/$cache_home" "$folio" types show public.png >/dev/null
  cached_times=""; with_times=""; without_times=""
  i=0
  while [ "$i" -lt 20 ]; do
    cached_times="$cached_times $(time_of env XDG_CACHE_HOME="$PWD/$cache_home" "$folio" types show public.png)"
    with_times="$with_times $(time_of env XDG_CACHE_HOME=/dev/null "$folio" types show public.png)"
    without_times="$without_times $(time_of env XDG_DATA_DIRS=/nonexistent XDG_DATA_HOME=/nonexistent "$folio" types show public.png)"
    i=$((i + 1))
  done
  echo "folio types show, one process: with the desktop database $(echo "$cached_times" | median) s cached, $(echo "$with_times" | median) s from the XML; without it $(echo "$without_times" | median) s (medians of 20)"
  folio_times=""; file_times=""; gio_times=""; xdg_times=""
  i=0
  while [ "$i" -lt "$runs" ]; do
    folio_times="$folio_times $(time_of sh -c "xargs -d '\n' -a '$list' '$folio' types identify --content")"
    if command -v file >/dev/null 2>&1; then
      file_times="$file_times $(time_of file --mime-type -b -f "$list")"
    fi
    if command -v gio >/dev/null 2>&1; then
      gio_times="$gio_times $(time_of sh -c "xargs -d '\n' -a '$list' gio info -a standard::content-type")"
    fi
    if command -v xdg-mime >/dev/null 2>&1; then
      xdg_times="$xdg_times $(time_of sh -c "head -n 200 '$list' | while IFS= read -r f; do xdg-mime query filetype \"\$f\"; done")"
    fi
    i=$((i + 1))
  done
  echo "folio types identify --content, all files: $(echo "$folio_times" | median) s (runs:$folio_times)"
  [ -n "$file_times" ] && echo "file --mime-type -f LIST: $(echo "$file_times" | median) s (runs:$file_times)"
  [ -n "$gio_times" ] && echo "gio info -a standard::content-type: $(echo "$gio_times" | median) s (runs:$gio_times)"
  if [ -n "$xdg_times" ]; then
    per=$(echo "$xdg_times" | median)
    echo "xdg-mime query filetype, 200 files: $per s, scaled to $count files: $(echo "$per $count" | awk '{ printf "%.1f", $1 * $2 / 200 }') s (runs:$xdg_times)"
  else
    echo "xdg-mime: not installed (apt-get install xdg-utils); skipped"
  fi
}

if [ -n "$desktop" ]; then
  desktop_bench "${1:-10000}" "${2:-3}"
  exit 0
fi

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

desktop_bench 10000 3
