#!/bin/sh
# Splits each pipeline case's peak memory into what the process allocated and what it mapped.
#
#   scripts/bench/memory.sh [--runs N] [--corpus DIR]
#
# pipeline.sh reports the peak resident set (`/usr/bin/time`'s %M), which counts two kinds
# of page: anonymous ones (the heap, stacks, buffers: memory the process itself takes) and
# file-backed ones (the pages of the binary and its libraries it touched; clean, shared
# with every other process mapping them, and given back under pressure). A 20 MB static
# Swift binary touches many more of the latter than bsdtar. This script samples
# /proc/PID/status every 2 ms while each tool runs (RssAnon, RssFile) and takes the peak
# resident set from wait4, then prints the medians over N runs (default 3) per case, folio
# with --jobs 1 and with its default jobs, beside bsdtar and Info-ZIP zip.
#
# It builds folio as pipeline.sh does (the static build scripts/release.sh ships) and uses
# the same corpus ($FOLIO_BENCH_CORPUS, default /tmp/folio-bench-corpus; generated once).
# Sampling misses peaks shorter than 2 ms, so the anonymous and file figures are each a
# little under their true peaks; the total comes from the kernel and is exact. Run it on
# an otherwise idle machine; it takes about 5 minutes (3 runs, full corpus).
set -eu
cd "$(dirname "$0")/../.."

runs=3
corpus=${FOLIO_BENCH_CORPUS:-/tmp/folio-bench-corpus}
usage="usage: $0 [--runs N] [--corpus DIR]"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    -h | --help) echo "$usage"; exit 0 ;;
    *) echo "$usage" >&2; exit 64 ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) echo "$usage" >&2; exit 64 ;; esac
for tool in bsdtar zip python3; do
  command -v "$tool" >/dev/null || { echo "memory: $tool is missing (scripts/bootstrap.sh installs it)" >&2; exit 1; }
done

echo "memory: building folio (release, static Swift libraries, as scripts/release.sh)" >&2
folio="$(scripts/build-release.sh)"
if [ ! -d "$corpus/pages.examplenotebook" ] || [ ! -d "$corpus/media.examplenotebook" ]; then
  echo "memory: generating the corpus in $corpus (once)" >&2
  rm -rf "$corpus"
  python3 scripts/bench/make_corpus.py "$corpus" --scale full >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/folio-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

python3 - "$folio" "$corpus" "$work" "$runs" <<'EOF'
import os, shutil, statistics, subprocess, sys, time

folio, corpus, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
out = os.path.join(work, "out")
pages = os.path.join(corpus, "pages.examplenotebook")

# Archives bsdtar wrote, for the expansions.
for name, flags, package in [("pages.zip", ["--format", "zip"], "pages"),
                             ("media.zip", ["--format", "zip"], "media"),
                             ("media.tar.zst", ["--zstd"], "media")]:
    subprocess.run(["bsdtar", "-cf", os.path.join(work, name)] + flags +
                   ["-C", corpus, f"{package}.examplenotebook"], check=True)

def folio_rows(*arguments):
    return [("folio -j1", [folio, *arguments, "--quiet", "--jobs", "1"]),
            ("folio", [folio, *arguments, "--quiet"])]

cases = [
    ("pack pages → zip", [("zip -r -6", ["zip", "-qr", "-6", out + ".zip", pages]),
                          ("bsdtar --format zip", ["bsdtar", "-cf", out + ".zip", "--format", "zip", "-C", corpus, "pages.examplenotebook"])]
     + folio_rows("pack", pages, "-o", out + ".zip")),
    ("pack pages → tar", [("bsdtar", ["bsdtar", "-cf", out + ".tar", "-C", corpus, "pages.examplenotebook"])]
     + folio_rows("pack", pages, "-o", out + ".tar")),
    ("pack pages → tar.zst", [("bsdtar --zstd", ["bsdtar", "-cf", out + ".tar.zst", "--zstd", "-C", corpus, "pages.examplenotebook"])]
     + folio_rows("pack", pages, "-o", out + ".tar.zst")),
]
for name in ["pages.zip", "media.zip", "media.tar.zst"]:
    path = os.path.join(work, name)
    rows = [("bsdtar -x", ["sh", "-c", f"mkdir '{out}' && exec bsdtar -xf '{path}' -C '{out}'"])]
    if name.endswith(".zip"):
        rows.append(("unzip", ["unzip", "-q", path, "-d", out]))
    cases.append((f"expand {name} --no-sync", rows + folio_rows("expand", path, "-o", out, "--no-sync")))

def clean():
    for suffix in ["", ".zip", ".tar", ".tar.zst"]:
        target = out + suffix
        if os.path.isdir(target):
            shutil.rmtree(target)
        elif os.path.exists(target):
            os.remove(target)

def status_kib(pid):
    values = {}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("RssAnon", "RssFile"):
                    values[key] = int(rest.split()[0])
    except OSError:
        pass
    return values

def measure(command):
    """Peak RssAnon and RssFile sampled, peak RSS from the kernel (KiB)."""
    # The peak RSS comes from /usr/bin/time, as in pipeline.sh: Python's own child would
    # count Python's pages until it execs. The tool is time's child (`sh -c '… exec …'`
    # replaces the shell, same pid).
    report = os.path.join(work, "time")
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report, *command],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    anon = file = 0
    child = None
    while process.poll() is None:
        if child is None:
            try:
                with open(f"/proc/{process.pid}/task/{process.pid}/children") as children:
                    child = int(children.read().split()[0])
            except (OSError, IndexError, ValueError):
                pass
        if child is not None:
            values = status_kib(child)
            anon = max(anon, values.get("RssAnon", 0))
            file = max(file, values.get("RssFile", 0))
        time.sleep(0.002)
    if process.returncode != 0:
        raise SystemExit(f"memory: {' '.join(command)} failed ({process.returncode})")
    with open(report) as text:
        peak = int(text.read().split()[-1])
    return anon, file, peak

print(f"Peak memory by kind: {runs} runs, medians (MiB); anonymous and file pages sampled every 2 ms")
print(f"{'case':30} {'tool':20} {'anonymous':>10} {'file':>8} {'peak RSS':>9}")
for case, tools in cases:
    samples = {tool: [] for tool, _ in tools}
    for index in range(runs):
        ordered = tools if index % 2 == 0 else list(reversed(tools))
        for tool, command in ordered:
            clean()
            samples[tool].append(measure(command))
    clean()
    for tool, _ in tools:
        anon, file, peak = (statistics.median(s[i] for s in samples[tool]) for i in range(3))
        print(f"{case:30} {tool:20} {anon / 1024:10.1f} {file / 1024:8.1f} {peak / 1024:9.1f}")
EOF
