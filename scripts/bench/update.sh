#!/bin/sh
# Benchmarks `folio pack --update` against a fresh pack (issue 33 §3), unattended.
#
#   scripts/bench/update.sh [--runs N] [--scale small|full] [--folio PATH] [--keep DIR]
#
# Makes the pages package of scripts/bench/make_corpus.py (full: 20,000 pages, about
# 90 MiB) in a scratch folder, packs it once to a zip with --reproducible, changes one
# page (appends a line, new time), then times N times (default 3), alternating which
# goes first: a fresh `pack --reproducible --force` of the changed tree into another
# file, and `pack --reproducible --update` of the earlier zip (each update starts from a
# copy of the pre-change zip, so every run reuses 19,999 entries and compresses one).
# After each run the two outputs are compared with cmp: they must be byte-identical.
# Prints medians of wall seconds and of CPU seconds (user + system: the fairer figure on a
# shared machine), their ratios and the load average around the runs; --keep DIR keeps
# results.tsv. Times the binary users install (scripts/build-release.sh, built first, as
# the other benchmarks do) unless --folio names another.
set -eu
cd "$(dirname "$0")/../.."
runs=3
scale=full
folio=""
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --folio) folio=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--scale small|full] [--folio PATH] [--keep DIR]" >&2; exit 64 ;;
  esac
done
[ -n "$folio" ] || folio="$(scripts/build-release.sh)"
scratch=$(mktemp -d /tmp/folio-bench-update.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
python3 scripts/bench/make_corpus.py "$scratch/corpus" --scale "$scale" --only pages >/dev/null
package="$scratch/corpus/pages.examplenotebook"
"$folio" pack "$package" -o "$scratch/before.zip" --reproducible --quiet
page=$(ls "$package/pages" | head -n 1)
echo "one more line" >> "$package/pages/$page"
touch -d @1700000100 "$package/pages/$page"

seconds() { # command... -> "wall<TAB>cpu" seconds on stdout (cpu: user + system)
  # Timed from inside Python, around the command's own process (spawned, waited for), its
  # CPU from the children's resource usage: `date` processes around /usr/bin/time added
  # about 3 ms of their own to every run (measured on /bin/true), 4 % of an update.
  python3 -c '
import resource, subprocess, sys, time
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter_ns()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
wall = (time.perf_counter_ns() - start) / 1e9
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
print(f"{wall:.3f}\t{cpu:.3f}")
' "$@"
}
# Each run starts with nothing of the benchmark's own left to write back or to settle: the
# update's copy of the earlier zip is synced before it is timed (a real earlier zip has long
# been on disk), and so is everything before a fresh pack; then half a second passes, for
# what a sync leaves the kernel to finish (the blocks that copy's truncation freed are
# discarded on a file system mounted with discard).
fresh_run() {
  sync
  sleep 0.5
  seconds "$folio" pack "$package" -o "$scratch/fresh.zip" --reproducible --force --quiet
}
update_run() {
  cp "$scratch/before.zip" "$scratch/updated.zip"
  sync
  sleep 0.5
  seconds "$folio" pack "$package" -o "$scratch/updated.zip" --reproducible --update --quiet
}
# One untimed round of each first: the first runs after the corpus is made pay for caches
# still filling (its first fresh pack sets every page's access time), which later runs and
# a real package do not.
fresh_run >/dev/null
update_run >/dev/null
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
results="$scratch/results.tsv"
printf 'run\tcase\twall\tcpu\n' > "$results"
i=1
while [ "$i" -le "$runs" ]; do
  if [ $((i % 2)) -eq 1 ]; then
    printf '%s\tfresh\t%s\n' "$i" "$(fresh_run)" >> "$results"
    printf '%s\tupdate\t%s\n' "$i" "$(update_run)" >> "$results"
  else
    printf '%s\tupdate\t%s\n' "$i" "$(update_run)" >> "$results"
    printf '%s\tfresh\t%s\n' "$i" "$(fresh_run)" >> "$results"
  fi
  cmp "$scratch/fresh.zip" "$scratch/updated.zip"
  i=$((i + 1))
done
median() { # case column
  awk -F'\t' -v c="$1" -v k="$2" '$2 == c { print $k }' "$results" | sort -n |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
fresh=$(median fresh 3)
update=$(median update 3)
fresh_cpu=$(median fresh 4)
update_cpu=$(median update 4)
cat "$results"
echo "load average before and after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg)"
echo "scale $scale, $runs runs, medians: fresh pack ${fresh} s wall / ${fresh_cpu} s cpu; --update ${update} s wall / ${update_cpu} s cpu; speedup $(echo "scale=1; $fresh / $update" | bc)x wall, $(echo "scale=1; $fresh_cpu / $update_cpu" | bc)x cpu; outputs byte-identical (cmp)"
if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$results" "$keep/"; fi
