#!/bin/sh
# Builds one libFuzzer target under Fuzz/ and runs it for a while.
#
#   scripts/fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#
# TARGET is a folder of Fuzz/ holding `main.swift` (which defines
# `LLVMFuzzerTestOneInput`), a `modules` file naming the Folio modules it needs in
# dependency order, and optionally `Seeds/` (starting inputs) and `options` (default
# libFuzzer flags, such as -max_len=65536; `-dict=FILE` names a dictionary of
# tokens, such as Fuzz/expand/expand.dict's zip and tar record signatures). The modules are
# compiled with `swiftc -sanitize=fuzzer,address` into .build/fuzz/ (not part of
# `swift build`); the working corpus grows in .build/fuzz/corpus/TARGET and every
# crash, leak, timeout or out-of-memory input lands in .build/fuzz/artifacts/TARGET/.
# Copy those into Tests/ReliabilityTests/Fixtures/fuzz/TARGET/ (named for what they
# found) so the normal test suite replays them. Runs under `nice` so builders win.
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: scripts/fuzz/run.sh TARGET SECONDS [libFuzzer flags...]" >&2; exit 64; }
target=$1
seconds=$2
shift 2
harness=Fuzz/$target
[ -f "$harness/main.swift" ] && [ -f "$harness/modules" ] || {
  echo "fuzz: no target '$target' (expected $harness/main.swift and $harness/modules)" >&2
  echo "fuzz: targets: $(ls Fuzz | tr '\n' ' ')" >&2
  exit 64
}

out=.build/fuzz
mkdir -p "$out/modules" "$out/corpus/$target" "$out/artifacts/$target"
flags="-swift-version 6 -package-name Folio -sanitize=fuzzer,address -O -g
  -enable-upcoming-feature InternalImportsByDefault
  -I $out/modules -I Sources/CLibArchive -I Sources/CLibXML2 -I Sources/CZlib
  -I Sources/CLibDeflate -I Sources/CZstd -Xcc -I/usr/include/libxml2"

# Compiles one module, unless its object is newer than its sources and nothing it
# depends on was rebuilt.
rebuilt=no
build_module() {
  module=$1
  object=$out/modules/$module.o
  if [ $rebuilt = no ] && [ -f "$object" ] \
    && [ -z "$(find "Sources/$module" -name '*.swift' -newer "$object")" ]; then
    return
  fi
  rebuilt=yes
  echo "fuzz: compiling $module" >&2
  # shellcheck disable=SC2086
  nice swiftc $flags -parse-as-library -wmo -module-name "$module" \
    -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
    -c $(find "Sources/$module" -name '*.swift' | sort) -o "$object"
  # swiftc leaves an unchanged object as it was, older than its sources: date it now, or
  # every later run would compile this module and every module after it again.
  touch "$object"
}

# One build at a time: two targets started together share .build/fuzz/modules.
exec 9>"$out/build.lock"
flock 9

objects=""
for module in $(cat "$harness/modules"); do
  build_module "$module"
  objects="$objects $out/modules/$module.o"
done

binary=$out/$target-fuzzer
echo "fuzz: linking $binary" >&2
# shellcheck disable=SC2086
nice swiftc $flags -parse-as-library -module-name "Fuzz_$target" \
  "$harness"/*.swift $objects -larchive -lxml2 -lz -ldeflate -lzstd -o "$binary"

flock -u 9
exec 9>&-

seeds=""
[ -d "$harness/Seeds" ] && seeds="$harness/Seeds"
fixtures=Tests/ReliabilityTests/Fixtures/fuzz/$target
[ -d "$fixtures" ] && seeds="$seeds $fixtures"

options=""
[ -f "$harness/options" ] && options=$(cat "$harness/options")

# A failed invariant is a Swift fatalError: let libFuzzer report it, without the Swift
# runtime's interactive backtracer (which can hang under ASan).
export SWIFT_BACKTRACE=enable=no
echo "fuzz: running $target for $seconds s" >&2
# shellcheck disable=SC2086
exec nice "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$out/artifacts/$target/" $options "$@" \
  "$out/corpus/$target" $seeds
