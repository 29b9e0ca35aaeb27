#!/bin/sh
# Writes scripts/release/link-order.txt: the functions folio runs, for the linker to place
# together at the front of the shipped binary.
#
#   scripts/release/make-link-order.sh
#
# Why: the static binary's code is 17 MB (the Swift runtime, Foundation, folio), and the
# kernel maps code 64 KiB around every page a process touches ("fault-around"). Functions a
# run needs lie scattered among ones it never calls, so a `folio pack` held about 14 MiB of
# code pages resident for perhaps a tenth of that in functions it ran, most of its peak
# memory. Placed together (lld's --symbol-ordering-file, which moves sections), the same
# run touches far fewer pages. This is the order-file technique that Chrome, Firefox and
# Android's runtime use for the same reason.
#
# How: it builds the static release binary as scripts/build-release.sh does, without an
# order, runs folio's jobs under valgrind's callgrind (pack, expand, list and export in each
# format, with one job and two, plist, validate and types commands) on a small deterministic
# corpus, and lists the functions that ran: those with a section of their own first, then
# those in shared sections (see below), each group laid out by which runs used it (see the
# key below). A function missing from the order (renamed since, or
# never trained) is only placed later; the binary behaves the same either way. Run it again
# after larger changes and commit the result; it takes a few minutes.
set -eu
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "make-link-order: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

order=scripts/release/link-order.txt
work=$(mktemp -d "${TMPDIR:-/tmp}/folio-link-order.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Train on a binary laid out without an order: the names are the same either way.
# The linker's map says which section holds each function (below).
folio=$(FOLIO_LINK_ORDER=none FOLIO_LINK_MAP="$work/folio.map" scripts/build-release.sh)
# The benchmark's small corpus, cut down further: under callgrind every instruction costs
# fifty, and 400 pages and one 6 MiB file (several of zip's 1 MiB chunks) run the same code
# as 20,000 pages and 1 GiB.
python3 scripts/bench/make_corpus.py "$work/corpus" --scale small >/dev/null
pages="$work/corpus/pages.examplenotebook"
media="$work/corpus/media.examplenotebook"
mixed="$work/corpus/mixed.examplenotebook"
find "$pages/pages" -type f | sort | tail -n +401 | xargs rm -f
for clip in "$media"/media/*; do
  head -c 6291456 "$clip" >"$clip.part" && mv "$clip.part" "$clip"
done
rm -f "$media"/media/clip-[1-9]*.bin
plist=Samples/NotebookApp/Info.plist
sample=Samples/Notebook.examplenotebook
out="$work/out"
mkdir -p "$out"

n=0
# run [--status N] ARGUMENTS: folio ARGUMENTS under callgrind, which must exit with N (0).
run() {
  expected=0
  if [ "$1" = --status ]; then expected=$2; shift 2; fi
  n=$((n + 1))
  status=0
  valgrind --tool=callgrind --demangle=no --dump-instr=no --error-exitcode=0 \
    --callgrind-out-file="$work/cg.$n.%p" "$folio" "$@" >/dev/null 2>"$work/log.$n" || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "make-link-order: folio $* exited with $status, not $expected:" >&2
    grep -v '^==' "$work/log.$n" | tail -5 >&2
    exit 1
  fi
}

# The order of these runs is the order of the layout (see below): first the cases
# scripts/bench/memory.sh measures (one job, then the default), then the rest.
run --version
for jobs in 1 2; do
  run pack "$pages" -o "$out/pages-$jobs.tar" --jobs "$jobs" --quiet
  run pack "$pages" -o "$out/pages-$jobs.zip" --jobs "$jobs" --quiet
  run pack "$pages" -o "$out/pages-$jobs.tar.zst" --jobs "$jobs" --quiet
  run expand "$out/pages-$jobs.zip" -o "$out/first-pages-$jobs-zip" --jobs "$jobs" --no-sync --quiet
  run pack "$media" -o "$out/media-$jobs.zip" --jobs "$jobs" --quiet
  run expand "$out/media-$jobs.zip" -o "$out/first-media-$jobs-zip" --jobs "$jobs" --no-sync --quiet
  run pack "$media" -o "$out/media-$jobs.tar.zst" --jobs "$jobs" --quiet
  run expand "$out/media-$jobs.tar.zst" -o "$out/first-media-$jobs-zst" --jobs "$jobs" --no-sync --quiet
done
# Archives other tools wrote take other paths through the readers (data descriptors, pax
# headers): bsdtar's, as the benchmarks expand them.
if command -v bsdtar >/dev/null; then
  bsdtar -cf "$out/bsdtar-pages.zip" --format zip -C "$(dirname "$pages")" "$(basename "$pages")"
  bsdtar -cf "$out/bsdtar-pages.tar" -C "$(dirname "$pages")" "$(basename "$pages")"
  for jobs in 1 2; do
    run expand "$out/bsdtar-pages.zip" -o "$out/bsdtar-pages-$jobs-zip" --jobs "$jobs" --no-sync --quiet
    run expand "$out/bsdtar-pages.tar" -o "$out/bsdtar-pages-$jobs-tar" --jobs "$jobs" --no-sync --quiet
  done
fi
for jobs in 1 2; do
  for format in zip tar tar.gz tar.zst; do
    run pack "$pages" -o "$out/pages-$jobs-p.$format" --jobs "$jobs" --progress json
    run expand "$out/pages-$jobs-p.$format" -o "$out/pages-$jobs-$format" --jobs "$jobs"
    run expand "$out/pages-$jobs-p.$format" -o "$out/pages-$jobs-$format-n" --jobs "$jobs" --no-sync
  done
  run pack "$mixed" -o "$out/mixed-$jobs.tar" --jobs "$jobs"
  run expand "$out/mixed-$jobs.tar" -o "$out/mixed-$jobs" --jobs "$jobs"
done
run list "$out/pages-1.zip"
run list "$out/mixed-1.tar" --names
run export "$sample" --to zip -o "$out/Notebook.zip" --declarations "$plist" --progress live
run export "$sample" --to public.plain-text -o "$out/Notebook.txt" --declarations "$plist" --explain
run plist lint "$plist"
run plist convert "$plist" --to json -o "$out/Info.json"
run validate --strict "$plist"
run validate --format json Tests/Fixtures/InfoPlists/HexFiend__HexFiend__app__Info.plist
printf '<?xml version="1.0"?>\n<plist><dict><key>a</key></plist>\n' >"$out/broken.plist"
run --status 1 plist lint "$out/broken.plist"
run types identify --declarations "$plist" "$sample"
run types show com.apple.package
run --help

# Every function that ran: callgrind names each one once per file, as "fn=(id) name".
python3 - "$work" "$order" "$folio" "$work/folio.map" <<'EOF'
import collections, glob, os, re, sys
work, order = sys.argv[1], sys.argv[2]
used_by = collections.defaultdict(set)  # name -> numbers of the runs that ran it
binary = os.path.realpath(sys.argv[3])
paths = glob.glob(os.path.join(work, "cg.*"))
for path in paths:
    run = int(os.path.basename(path).split(".")[1])
    objects, functions = {}, {}
    current = None
    with open(path, errors="replace") as f:
        for line in f:
            # "ob=(id) path" names the object for the "fn=(id) name" lines after it; each
            # is spelled out once per file and referred to by its id after that.
            # "cob=" and "cfn=" (a callee's) define ids too.
            m = re.match(r"(c?)ob=\((\d+)\)(?: (.+))?$", line)
            if m:
                if m.group(3):
                    objects[m.group(2)] = os.path.realpath(m.group(3).strip())
                if not m.group(1):
                    current = objects.get(m.group(2))
                continue
            m = re.match(r"(c?)fn=\((\d+)\)(?: (\S+))?", line)
            if m:
                if m.group(3):
                    functions[m.group(2)] = m.group(3)
                if not m.group(1) and current == binary:
                    # Callgrind marks a recursive level as name'2; code without a symbol
                    # shows as its address, which no linker order can name.
                    name = re.sub(r"'\d+$", "", functions[m.group(2)])
                    if not name.startswith(("0x", "(")):
                        used_by[name].add(run)

# The linker moves sections, not functions. Most functions have a section of their own, but
# some objects keep many in one `.text` (1.6 MB of the standard library's), and a local name
# such as `__swift_destroy_boxed_opaque_existential_0Tm` names a function in hundreds of
# objects. A name in a shared section would drag the whole section to the front, and a
# local name every object's copy, spreading the functions that run over megabytes again.
# So the names with a section of their own come first, then those in shared sections (the
# sections a run needs, together after them), and names defined more than once are left out.
# The map spells C++ functions (the Swift runtime's) demangled, and callgrind mangled: their
# section, `.text.<mangled name>`, gives the mangled one.
sections_of = collections.defaultdict(list)  # name -> [(section id, symbols in it)]
in_text, section, members = False, None, []
def close_section():
    if section is not None:
        for name in members:
            sections_of[name].append((section, len(members)))
with open(sys.argv[4], errors="replace") as f:
    for line in f:
        fields = line.split()
        if len(fields) == 5 and fields[4] == ".text":
            in_text = True
            continue
        if not in_text:
            continue
        if len(fields) == 5 and fields[4].startswith(".") and not fields[4].startswith(".text"):
            break  # the next output section
        if ":(" in line:
            close_section()
            section, members = fields[0], []
            m = re.search(r":\(\.text\.(_Z\S+)\)$", line.strip())
            if m:
                members.append(m.group(1))
        elif len(fields) == 5 and section is not None:
            members.append(fields[4])
    close_section()

# The layout: the kernel maps 64 KiB around each page touched, so what counts is how few
# 64 KiB windows each run's functions span. Sorting by how many runs used a function (the
# first order) interleaved, say, functions only pack used with ones only expand used. Here
# each function's key is the list of runs, in the order above, that used it or not: a
# function every run needs comes first, every function of the first run (pack → tar, one
# job) lies in one stretch, those the second run shares with it first in that stretch, and
# so on; a later run's functions split into more stretches, so the runs memory.sh measures
# come first.
runs = sorted({run for users in used_by.values() for run in users})
def key(name):
    users = used_by[name]
    return (tuple(run not in users for run in runs), name)
own, shared = [], []
for name in used_by:
    places = sections_of.get(name, [])
    if len(places) != 1:
        continue  # not in .text, or a local name defined in several objects
    (own if places[0][1] <= 4 else shared).append(name)
with open(order, "w") as f:
    for name in sorted(own, key=key) + sorted(shared, key=key):
        f.write(f"{name}\n")
print(
    f"make-link-order: {len(own)} functions with a section of their own, then {len(shared)} in"
    f" shared sections, of {len(used_by)} that ran in {len(paths)} runs; written to {order}",
    file=sys.stderr)
EOF
