#!/bin/sh
# Benchmarks folio export against its peers on the benchmark corpus.
#
#   scripts/bench/export.sh [--runs N] [--scale small|full] [--corpus DIR]
#
# Builds folio in release mode, generates scripts/bench/make_corpus.py at the given
# scale once (into $FOLIO_BENCH_CORPUS, default /tmp/folio-bench-corpus for full and
# /tmp/folio-bench-corpus-small for small, reused across runs), then times each case
# with /usr/bin/time: wall seconds and peak resident memory, best of N runs, beside a
# peer doing the same work. "ratio" is the peer's time over folio's (above 1: folio
# is faster).
#
# Cases:
#   notebook → text      the pages notebook to plain text; peer: a Python script that
#                        reads metadata.json and concatenates the pages in pageOrder
#   notebook → zip       export's packing step; peer: folio pack (the layer's overhead)
#   zip → text           a zipped notebook, expanded then exported (a two-step chain);
#                        peer: unzip to a temporary folder, then the Python script
#   text → UTF-16        the notebook's text re-encoded with a byte-order mark; peer: iconv
#   plist → binary       the sample Info.plist 1 time (start-up cost); peer: plutil
# Expectation: within 1.5x of each peer and flat memory (under 64 MiB) for every case.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)

runs=1
scale=full
corpus=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--scale small|full] [--corpus DIR]" >&2; exit 64 ;;
  esac
done
if [ -z "$corpus" ]; then
  if [ "$scale" = full ]; then corpus=${FOLIO_BENCH_CORPUS:-/tmp/folio-bench-corpus}
  else corpus=/tmp/folio-bench-corpus-$scale; fi
fi

[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
swift build -c release --product folio >/dev/null
folio="$root/.build/release/folio"
if [ ! -d "$corpus/pages.examplenotebook" ]; then
  echo "bench: generating the $scale corpus in $corpus (once)" >&2
  rm -rf "$corpus"
  python3 scripts/bench/make_corpus.py "$corpus" --scale "$scale" >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/folio-bench-export.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
declarations="--declarations $root/Samples/NotebookApp/Info.plist"
notebook="$corpus/pages.examplenotebook"
find "$notebook" -type f -exec cat {} + >/dev/null

reference_time=""
printf '%-22s %-22s %9s %10s %7s\n' "case" "tool" "wall s" "peak MiB" "ratio"

# measure CASE TOOL CLEANUP COMMAND...: best wall time and its peak memory over $runs runs.
# The first tool of a case (folio) is the reference the others' ratios are taken against.
measure() {
  case_name=$1 tool=$2 cleanup=$3
  shift 3
  best="" best_rss=""
  i=0
  while [ $i -lt "$runs" ]; do
    sh -c "$cleanup"
    if ! /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>"$work/err"; then
      echo "bench: $tool failed: $(tail -3 "$work/err")" >&2
      return 0
    fi
    read -r wall rss <"$work/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall best_rss=$rss; fi
    i=$((i + 1))
  done
  if [ "$tool" = folio ]; then reference_time=$best; fi
  ratio=$(awk -v r="$reference_time" -v t="$best" 'BEGIN{ if (r > 0) printf "%.2f", t / r; else print "-" }')
  printf '%-22s %-22s %9s %10.1f %7s\n' "$case_name" "$tool" "$best" "$(awk -v k="$best_rss" 'BEGIN{print k/1024}')" "$ratio"
}

python_text='import json, os, sys
src, out = sys.argv[1], sys.argv[2]
meta = json.load(open(os.path.join(src, "metadata.json"), encoding="utf-8"))
with open(out, "w", encoding="utf-8", newline="") as o:
    o.write(meta["title"] + "\n")
    for page in meta["pageOrder"]:
        with open(os.path.join(src, "pages", page + ".txt"), encoding="utf-8", newline="") as p:
            o.write("\f\n" + p.read() + "\n")'

measure "notebook → text" folio "rm -f $work/n.txt" "$folio" export "$notebook" --to txt -o "$work/n.txt" $declarations --quiet
measure "notebook → text" "python script" "rm -f $work/p.txt" python3 -c "$python_text" "$notebook" "$work/p.txt"
if cmp -s "$work/n.txt" "$work/p.txt"; then echo "  (outputs identical)"; else echo "  (outputs DIFFER)" >&2; fi

measure "notebook → zip" folio "rm -f $work/n.zip" "$folio" export "$notebook" --to zip -o "$work/n.zip" $declarations --quiet
measure "notebook → zip" "folio pack" "rm -f $work/p.zip" "$folio" pack "$notebook" -o "$work/p.zip" --quiet

measure "zip → text" folio "rm -f $work/z.txt" "$folio" export "$work/n.zip" --from zip --to txt -o "$work/z.txt" $declarations --quiet
measure "zip → text" "unzip + python" "rm -rf $work/u $work/u.txt" sh -c "mkdir '$work/u' && unzip -q '$work/n.zip' -d '$work/u' && python3 -c '$python_text' '$work/u/pages.examplenotebook' '$work/u.txt'"

measure "text → UTF-16" folio "rm -f $work/n16.txt" "$folio" export "$work/n.txt" --to public.utf16-plain-text -o "$work/n16.txt" --quiet
measure "text → UTF-16" "iconv" "rm -f $work/i16.txt" sh -c "iconv -f UTF-8 -t UTF-16 '$work/n.txt' > '$work/i16.txt'"

cp "$root/Samples/NotebookApp/Info.plist" "$work/Info.plist"
measure "plist → binary" folio "rm -f $work/b.plist" "$folio" export "$work/Info.plist" --to com.apple.binary-property-list -o "$work/b.plist" --quiet
measure "plist → binary" "plutil" "rm -f $work/c.plist" plutil -convert binary1 -o "$work/c.plist" "$work/Info.plist"
