#!/bin/sh
# Expansion benchmark: folio expand against bsdtar -x, Info-ZIP unzip and Python's
# zipfile/tarfile on the same archives, in the same run, with wall time and peak memory.
#
#   scripts/bench/expand.sh [--scale small|full] [WORKDIR]
#
# The corpus comes from ../shared/bench/make_corpus.py (full: 20,000 pages and 1 GiB of
# media); archives of `pages` and `media` are written once by bsdtar as zip, tar and
# tar.zst. Each tool expands each archive into a fresh folder on the same file system;
# the best of RUNS (default 2) is printed beside folio's, with the ratio tool/folio.
# folio runs with every safety check on (the default policy); it flushes the tree to disk
# (syncfs) before its rename, which the peers never do, so it is also shown with --no-sync.
set -eu
cd "$(dirname "$0")/../.."
scale=full
if [ "${1:-}" = "--scale" ]; then scale=$2; shift 2; fi
work=${1:-/tmp/folio-bench-expand-$scale}
runs=${RUNS:-2}
shared=${FOLIO_SHARED:-../shared}

if [ -z "${FOLIO:-}" ]; then
  swift build -c release --product folio >/dev/null
  FOLIO=$(swift build -c release --show-bin-path)/folio
fi
mkdir -p "$work"
if [ ! -d "$work/corpus/media.examplenotebook" ]; then
  rm -rf "$work/corpus"
  python3 "$shared/bench/make_corpus.py" "$work/corpus" --scale "$scale" >/dev/null
fi
for package in pages media; do
  for format in zip tar tar.zst; do
    archive="$work/$package.$format"
    [ -f "$archive" ] && continue
    case $format in
      zip) bsdtar -C "$work/corpus" --format zip -cf "$archive" "$package.examplenotebook" ;;
      tar) bsdtar -C "$work/corpus" -cf "$archive" "$package.examplenotebook" ;;
      tar.zst) bsdtar -C "$work/corpus" --zstd -cf "$archive" "$package.examplenotebook" ;;
    esac
  done
done

FOLIO="$FOLIO" WORK="$work" RUNS="$runs" python3 - <<'PY'
import os, shutil, subprocess, sys, time

folio, work, runs = os.environ["FOLIO"], os.environ["WORK"], int(os.environ["RUNS"])

def measure(argv):
    """Wall seconds and peak resident memory (MiB) of one run.

    GNU time forks the tool from its own small process, so the peak is the tool's
    (a child spawned straight from Python starts with Python's page tables)."""
    report = os.path.join(work, "time.txt")
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report] + argv,
                          stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}")
    peak_kib = int(open(report).read().split()[-1])
    return wall, peak_kib / 1024

def tools(archive, fmt, out):
    yield "folio expand", [folio, "expand", "-q", "-o", out, archive]
    yield "folio --no-sync", [folio, "expand", "-q", "--no-sync", "-o", out, archive]
    yield "bsdtar -x", ["sh", "-c", f'mkdir "{out}" && exec bsdtar -xf "{archive}" -C "{out}"']
    if fmt == "zip":
        yield "unzip", ["unzip", "-q", archive, "-d", out]
        yield "python zipfile", ["python3", "-m", "zipfile", "-e", archive, out]
    elif fmt == "tar":
        yield "python tarfile", ["python3", "-c",
            f"import tarfile; tarfile.open({archive!r}).extractall({out!r})"]

print(f"{'archive':<16} {'tool':<16} {'wall s':>8} {'peak MiB':>9} {'vs folio':>9}")
for package in ("pages", "media"):
    for fmt in ("zip", "tar", "tar.zst"):
        archive = os.path.join(work, f"{package}.{fmt}")
        base = None
        for name, argv in tools(archive, fmt, os.path.join(work, "out")):
            best = None
            for _ in range(runs):
                out = os.path.join(work, "out")
                shutil.rmtree(out, ignore_errors=True)
                subprocess.run(["sync"])
                wall, peak = measure(argv)
                best = (wall, peak) if best is None or wall < best[0] else best
            shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
            if base is None:
                base = best[0]
            ratio = best[0] / base
            print(f"{package + '.' + fmt:<16} {name:<16} {best[0]:>8.2f} {best[1]:>9.1f} {ratio:>8.2f}x",
                  flush=True)
PY
