#!/bin/sh
# Benchmarks the archive pipeline against its peers on the full benchmark corpus.
#
#   scripts/bench/pipeline.sh [--runs N] [--only pack|expand|big] [--packages "pages media"]
#                             [--corpus DIR]
#
# Builds folio in release mode, generates scripts/bench/make_corpus.py --scale full
# once (into $FOLIO_BENCH_CORPUS, default /tmp/folio-bench-corpus, reused across runs),
# then times each case with /usr/bin/time: wall seconds and peak resident memory,
# best of N runs, beside bsdtar, Info-ZIP and Python on the same input in the same run.
# "wall×" and "cpu×" are the peer's time over folio's (above 1: folio is faster).
#
# Targets (issue 5): zip packing of pages at least as fast as `zip -r` at the same
# level; zip packing of media no slower than `zip -r`; tar packing within 1.1x of
# bsdtar; expansion within 1.1x of `bsdtar -x`; peak memory under 32 MiB everywhere.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)

runs=1
only=all
packages="pages media"
corpus=${FOLIO_BENCH_CORPUS:-/tmp/folio-bench-corpus}
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --packages) packages=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--only pack|expand|big] [--packages LIST] [--corpus DIR]" >&2; exit 64 ;;
  esac
done

[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
swift build -c release --product folio >/dev/null
folio="$root/.build/release/folio"
if [ ! -d "$corpus/pages.examplenotebook" ]; then
  echo "bench: generating the full corpus in $corpus (once)" >&2
  rm -rf "$corpus"
  python3 scripts/bench/make_corpus.py "$corpus" --scale full >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/folio-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Warm the page cache so every tool reads the same way.
cat "$corpus"/media.examplenotebook/media/* >/dev/null
find "$corpus/pages.examplenotebook" -type f -exec cat {} + >/dev/null

reference_time="" reference_cpu=""
printf '%-26s %-22s %8s %8s %9s %6s %6s\n' "case" "tool" "wall s" "cpu s" "peak MiB" "wall×" "cpu×"

# measure CASE TOOL CLEANUP COMMAND...: best wall time over $runs runs, with that run's
# CPU time (user + system) and peak memory. The first tool of a case (folio) is the
# reference the others' ratios are taken against. On a shared machine, CPU time is the
# steadier figure; wall time includes waiting for the other tenants.
measure() {
  case_name=$1 tool=$2 cleanup=$3
  shift 3
  best="" best_rss="" best_cpu=""
  i=0
  while [ $i -lt "$runs" ]; do
    sh -c "$cleanup"
    if ! /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" >/dev/null 2>"$work/err"; then
      echo "bench: $tool failed: $(tail -3 "$work/err")" >&2
      return 0
    fi
    read -r wall rss user system <"$work/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
      best=$wall best_rss=$rss best_cpu=$(awk -v u="$user" -v s="$system" 'BEGIN{printf "%.2f", u + s}')
    fi
    i=$((i + 1))
  done
  if [ "$tool" = folio ]; then reference_time=$best reference_cpu=$best_cpu; fi
  printf '%-26s %-22s %8s %8s %9.1f %6s %6s\n' "$case_name" "$tool" "$best" "$best_cpu" \
    "$(awk -v k="$best_rss" 'BEGIN{print k/1024}')" \
    "$(awk -v r="$reference_time" -v t="$best" 'BEGIN{ if (r > 0) printf "%.2f", t / r; else print "-" }')" \
    "$(awk -v r="$reference_cpu" -v t="$best_cpu" 'BEGIN{ if (r > 0) printf "%.2f", t / r; else print "-" }')"
}

python_zip='import os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
base = os.path.dirname(src)
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for d, dirs, files in os.walk(src):
        dirs.sort()
        z.write(d, os.path.relpath(d, base))
        for f in sorted(files):
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, base))'
python_tar='import os, sys, tarfile
src, out = sys.argv[1], sys.argv[2]
with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as t:
    t.add(src, os.path.basename(src))'

if [ "$only" = all ] || [ "$only" = pack ]; then
  for package in $packages; do
    src="$corpus/$package.examplenotebook"
    out="$work/out"
    for format in zip tar tar.zst; do
      name="pack $package $format"
      clean="rm -f $out.$format"
      measure "$name" folio "$clean" "$folio" pack "$src" -o "$out.$format" --quiet
      case "$format" in
        zip)
          measure "$name" "zip -r (level 6)" "$clean" sh -c "cd '$corpus' && zip -qr -6 '$out.zip' '$package.examplenotebook'"
          measure "$name" "bsdtar --format zip" "$clean" bsdtar -cf "$out.zip" --format zip -C "$corpus" "$package.examplenotebook"
          measure "$name" "python zipfile" "$clean" python3 -c "$python_zip" "$src" "$out.zip"
          ;;
        tar)
          measure "$name" "bsdtar" "$clean" bsdtar -cf "$out.tar" -C "$corpus" "$package.examplenotebook"
          measure "$name" "python tarfile" "$clean" python3 -c "$python_tar" "$src" "$out.tar"
          ;;
        tar.zst)
          measure "$name" "bsdtar --zstd" "$clean" bsdtar -cf "$out.tar.zst" --zstd -C "$corpus" "$package.examplenotebook"
          measure "$name" "tar | zstd -3" "$clean" sh -c "bsdtar -cf - -C '$corpus' '$package.examplenotebook' | zstd -q -3 -o '$out.tar.zst'"
          ;;
      esac
    done
  done
fi

if [ "$only" = all ] || [ "$only" = expand ]; then
  # Expansion of archives bsdtar wrote, with every safety check on. folio flushes the
  # tree to disk (syncfs) before its rename, which no peer does: "--no-sync" shows the
  # same work without that flush.
  for package in pages media; do
    for format in zip tar tar.zst; do
      archive="$work/$package.$format"
      case "$format" in
        zip) bsdtar -cf "$archive" --format zip -C "$corpus" "$package.examplenotebook" ;;
        tar) bsdtar -cf "$archive" -C "$corpus" "$package.examplenotebook" ;;
        tar.zst) bsdtar -cf "$archive" --zstd -C "$corpus" "$package.examplenotebook" ;;
      esac
      name="expand $package $format"
      out="$work/expanded"
      clean="rm -rf '$out'"
      measure "$name" folio "$clean" "$folio" expand "$archive" -o "$out" --quiet
      measure "$name" "folio --no-sync" "$clean" "$folio" expand "$archive" -o "$out" --quiet --no-sync
      measure "$name" "bsdtar -x" "$clean; mkdir '$out'" bsdtar -xf "$archive" -C "$out"
      case "$format" in
        zip)
          measure "$name" "unzip" "$clean" unzip -q "$archive" -d "$out"
          measure "$name" "python zipfile" "$clean" python3 -m zipfile -e "$archive" "$out"
          ;;
        tar)
          measure "$name" "python tarfile" "$clean" python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$archive" "$out"
          ;;
        tar.zst)
          measure "$name" "zstd -d | bsdtar -x" "$clean; mkdir '$out'" sh -c "zstd -dcq '$archive' | bsdtar -xf - -C '$out'"
          ;;
      esac
      rm -rf "$out" "$archive"
    done
  done
fi

if [ "$only" = all ] || [ "$only" = big ]; then
  # Flat memory and ZIP64: a 4 GiB + 1 byte (sparse) file packs in the memory a 4 KiB one does.
  big="$work/big.pkg"
  small="$work/small.pkg"
  mkdir -p "$big" "$small"
  truncate -s $((4 * 1024 * 1024 * 1024 + 1)) "$big/zeros.bin"
  head -c 4096 /dev/zero >"$small/zeros.bin"
  measure "pack 4 KiB file zip" folio "rm -f $work/small.zip" "$folio" pack "$small" -o "$work/small.zip" --quiet --level 1
  measure "pack 4 GiB file zip" folio "rm -f $work/big.zip" "$folio" pack "$big" -o "$work/big.zip" --quiet --level 1
  measure "pack 4 GiB file zip" "zip -r (level 1)" "rm -f $work/big-info.zip" sh -c "cd '$work' && zip -qr -1 big-info.zip big.pkg"
  if unzip -tq "$work/big.zip" >/dev/null && python3 -m zipfile -t "$work/big.zip" >/dev/null; then
    echo "ZIP64: unzip -t and python zipfile -t accept the 4 GiB entry ($(python3 -c "import sys,zipfile; i=zipfile.ZipFile(sys.argv[1]).getinfo('big.pkg/zeros.bin'); print(i.file_size, 'bytes')" "$work/big.zip"))"
  else
    echo "ZIP64: the 4 GiB archive FAILED verification" >&2
  fi
  rm -f "$work/big.zip" "$work/big-info.zip"
  # No bsdtar row here: bsdtar finds the sparse file's holes and skips reading them.
  measure "pack 4 GiB file tar.zst" folio "rm -f $work/big.tar.zst" "$folio" pack "$big" -o "$work/big.tar.zst" --quiet
fi
