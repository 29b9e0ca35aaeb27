#!/bin/sh
# Builds folio for release and packages it for machines without the Swift toolchain.
#
#   scripts/release.sh [--binary PATH] [--out DIR] [--fast]
#
# Without --binary it builds `swift build -c release --static-swift-stdlib` (the Swift
# standard library and Foundation linked in; long on a small machine), then writes into DIR
# (default dist/):
#   folio-VERSION-linux-ARCH.tar.gz  bin/folio, share/man/man1/folio.1, the bash, zsh and
#                                    fish completions, README.md, the licence notices
#   folio_VERSION_DEBARCH.deb        the same in Debian's places; Depends lists the Debian
#                                    package of every shared library the binary loads
# The man page and completions come from the binary itself ('folio help --man',
# 'folio completions SHELL'), so they match it. --binary PATH packages an existing binary
# instead (the tests use the debug build to check the layout); a binary that needs a
# library no Debian package provides (the toolchain's) is refused unless --binary is given.
# --fast compresses lightly (for tests). scripts/check-package.sh checks the result.
set -eu
cd "$(dirname "$0")/.."

binary=""
out="dist"
fast=0
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --fast) fast=1; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "release: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done

scripts/bootstrap.sh
for tool in dpkg-deb dpkg-query ldd readelf gzip tar; do
  command -v "$tool" >/dev/null || { echo "release: '$tool' is missing" >&2; exit 1; }
done

strict=1
if [ -z "$binary" ]; then
  echo "release: building (swift build -c release --static-swift-stdlib)…" >&2
  binary="$(scripts/build-release.sh)"
else
  strict=0
fi
[ -x "$binary" ] || { echo "release: no executable at '$binary'" >&2; exit 1; }

version="$("$binary" --version | sed 's/^folio //')"
machine="$(uname -m)"
debarch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT INT TERM

# --- Debian package names for the shared libraries the binary needs -------------------
# Its direct dependencies (DT_NEEDED), as dpkg-shlibdeps takes them; theirs come with them.
depends=""
foreign=""
needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
for soname in $needed; do
  # `libz.so.1 => /lib/…/libz.so.1 (…)`, or the loader itself: `/lib64/ld-linux-x86-64.so.2 (…)`.
  library="$(ldd "$binary" | awk -v name="$soname" '$1 == name && $3 ~ /^\// {print $3} $1 ~ ("/" name "$") {print $1}' | head -n 1)"
  [ -n "$library" ] || { foreign="$foreign $soname(unresolved)"; continue; }
  owner="$(dpkg-query -S "$library" 2>/dev/null || dpkg-query -S "$(readlink -f "$library")" 2>/dev/null || true)"
  owner="$(printf '%s' "$owner" | head -n 1 | cut -d: -f1)"
  if [ -z "$owner" ]; then
    foreign="$foreign $library"
    continue
  fi
  upstream="$(dpkg-query -W -f='${Version}' "$owner" | sed 's/-[^-]*$//; s/^[0-9]*://')"
  case ", $depends," in *", $owner ("*) ;; *) depends="${depends:+$depends, }$owner (>= $upstream)" ;; esac
done
if [ -n "$foreign" ]; then
  if [ "$strict" -eq 1 ]; then
    echo "release: the binary needs libraries no Debian package provides:$foreign" >&2
    exit 1
  fi
  echo "release: note: not from Debian (a toolchain build?):$foreign" >&2
fi

# --- Files from the binary itself -----------------------------------------------------
mkdir -p "$work/generated"
"$binary" help --man > "$work/generated/folio.1"
"$binary" completions bash > "$work/generated/folio.bash"
"$binary" completions zsh > "$work/generated/_folio"
"$binary" completions fish > "$work/generated/folio.fish"

notices() {
  if [ -f LICENSE ]; then cat LICENSE; echo; fi
  cat docs/NOTICES
}

# --- Tarball ----------------------------------------------------------------------------
name="folio-$version-linux-$machine"
root="$work/$name"
mkdir -p "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/vendor-completions" "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/folio"
install -m 0644 "$work/generated/folio.1" "$root/share/man/man1/folio.1"
install -m 0644 "$work/generated/folio.bash" "$root/share/bash-completion/completions/folio"
install -m 0644 "$work/generated/_folio" "$root/share/zsh/vendor-completions/_folio"
install -m 0644 "$work/generated/folio.fish" "$root/share/fish/vendor_completions.d/folio.fish"
install -m 0644 README.md "$root/README.md"
notices > "$root/NOTICES"
[ -f LICENSE ] && install -m 0644 LICENSE "$root/LICENSE"
mkdir -p "$out"
level=9
[ "$fast" -eq 1 ] && level=1
tar -C "$work" --owner=0 --group=0 --numeric-owner --sort=name -cf - "$name" | gzip -"$level"n > "$out/$name.tar.gz"

# --- Debian package -----------------------------------------------------------------------
deb="$work/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr/bin" "$deb/usr/share/man/man1" "$deb/usr/share/doc/folio" \
  "$deb/usr/share/bash-completion/completions" "$deb/usr/share/zsh/vendor-completions" \
  "$deb/usr/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$deb/usr/bin/folio"
gzip -9n < "$work/generated/folio.1" > "$deb/usr/share/man/man1/folio.1.gz"
chmod 0644 "$deb/usr/share/man/man1/folio.1.gz"
install -m 0644 "$work/generated/folio.bash" "$deb/usr/share/bash-completion/completions/folio"
install -m 0644 "$work/generated/_folio" "$deb/usr/share/zsh/vendor-completions/_folio"
install -m 0644 "$work/generated/folio.fish" "$deb/usr/share/fish/vendor_completions.d/folio.fish"
notices > "$deb/usr/share/doc/folio/copyright"
chmod 0644 "$deb/usr/share/doc/folio/copyright"
gzip -9n < README.md > "$deb/usr/share/doc/folio/README.md.gz"
chmod 0644 "$deb/usr/share/doc/folio/README.md.gz"
size_kib="$(du -sk "$deb/usr" | cut -f1)"
cat > "$deb/DEBIAN/control" <<CONTROL
Package: folio
Version: $version
Architecture: $debarch
Maintainer: Folio developers <folio@invalid>
Installed-Size: $size_kib
Depends: $depends
Section: utils
Priority: optional
Description: document packages: type declarations, validation and archives
 Folio reads Apple-style type declarations (UTExportedTypeDeclarations,
 UTImportedTypeDeclarations, CFBundleDocumentTypes) from property lists,
 checks them for CI, and flattens document packages (folders handled as one
 file) to zip or tar and expands them again, safely and atomically.
CONTROL
find "$deb" -type d -exec chmod 0755 {} +
compression="-Zxz"
[ "$fast" -eq 1 ] && compression="-Zgzip -z1"
dpkg-deb --root-owner-group $compression --build "$deb" "$out/folio_${version}_${debarch}.deb" >/dev/null

echo "release: wrote $out/$name.tar.gz and $out/folio_${version}_${debarch}.deb" >&2
echo "release: Depends: $depends" >&2
