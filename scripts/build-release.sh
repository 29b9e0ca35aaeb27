#!/bin/sh
# Builds the folio that scripts/release.sh ships and prints its path on standard output.
#
#   scripts/build-release.sh
#
# `swift build -c release --static-swift-stdlib` (the Swift standard library and
# Foundation linked in), in a scratch folder of its own so the release build neither
# waits for nor blocks .build/. The release script packages this binary, and the
# benchmarks (scripts/bench/pipeline.sh, memory.sh) time it: the binary users install.
#
# Linked for a small resident set. The kernel maps code 64 KiB around each page a process
# touches, so a run scattered over the 17 MB of code held 11-14 MiB of it resident, most of
# its peak memory. So: the functions folio runs are placed together at the front
# (scripts/release/link-order.txt, written by scripts/release/make-link-order.sh; lld's
# --symbol-ordering-file, which moves each function's section), and the relative
# relocations of the position-independent binary are packed (DT_RELR, glibc 2.36, which the
# .deb's Depends on the building machine's libc6 already requires) instead of 1.8 MiB of
# RELA entries the loader reads at every start. Both change where bytes lie, not what the
# program does. FOLIO_LINK_ORDER=none links without the order (to train a new one), and
# FOLIO_LINK_MAP=PATH writes the linker's map there.
set -eu
cd "$(dirname "$0")/.."
order="$(pwd)/scripts/release/link-order.txt"
# Each of folio's functions in a section of its own (the standard library's and
# Foundation's already are, mostly), so that the order below can move functions, not
# whole files of them.
set -- -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
  -Xswiftc -Xfrontend -Xswiftc -function-sections
if [ "${FOLIO_LINK_ORDER:-}" != none ] && [ -f "$order" ]; then
  # A name missing from the order (renamed since it was trained) is only placed later.
  set -- "$@" -Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering
fi
if [ -n "${FOLIO_LINK_MAP:-}" ]; then
  set -- "$@" -Xlinker "-Map=$FOLIO_LINK_MAP"
fi
# Always link: SwiftPM relinks when the flags change, not when the order file they name
# does (a retrained order was silently left out), and a map only comes from a link.
rm -f .build/static/release/folio
swift build -c release --static-swift-stdlib --scratch-path .build/static --product folio "$@" >&2
echo "$(swift build -c release --static-swift-stdlib --scratch-path .build/static --show-bin-path)/folio"
