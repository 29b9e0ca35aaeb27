#!/bin/sh
# Checks what scripts/release.sh made, as a user without the Swift toolchain would get it.
#
#   scripts/check-package.sh [--debug] [--chroot DIR] DIST
#
# For DIST's .deb: dpkg-deb --info shows the fields and a Depends naming libarchive13 and
# libxml2; dpkg-deb --contents lists the binary, the man page and the three completions; the
# binary, unpacked, loads only libraries that Debian packages in Depends provide (ldd), and
# nothing from the toolchain. The tarball holds the same files. --debug (for a --binary debug
# build, as the tests make) checks the layout only. --chroot DIR also installs the .deb with
# apt-get in a Debian 12 tree made by debootstrap in DIR (as root; needs debootstrap and
# Debian's mirror) and runs folio there.
set -eu
debug=0
chroot_dir=""
while [ $# -gt 1 ]; do
  case "$1" in
    --debug) debug=1; shift ;;
    --chroot) chroot_dir="$2"; shift 2 ;;
    *) break ;;
  esac
done
dist="${1:?usage: scripts/check-package.sh [--debug] [--chroot DIR] DIST}"
deb="$(ls "$dist"/folio_*.deb | head -n 1)"
tarball="$(ls "$dist"/folio-*-linux-*.tar.gz | head -n 1)"
fail() { echo "check-package: $*" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT INT TERM

info="$(dpkg-deb --info "$deb")"
for field in Package Version Architecture Maintainer Installed-Size Depends Description; do
  printf '%s\n' "$info" | grep -q "^ $field: " || fail "$deb has no $field field"
done
depends="$(dpkg-deb --field "$deb" Depends)"
for package in libarchive13 libxml2; do
  printf '%s\n' "$depends" | grep -q "\\b$package\\b" || fail "Depends does not name $package: $depends"
done

contents="$(dpkg-deb --contents "$deb" | awk '{print $6}')"
for path in ./usr/bin/folio ./usr/share/man/man1/folio.1.gz \
  ./usr/share/bash-completion/completions/folio ./usr/share/zsh/vendor-completions/_folio \
  ./usr/share/fish/vendor_completions.d/folio.fish ./usr/share/doc/folio/copyright; do
  printf '%s\n' "$contents" | grep -qx "$path" || fail "$deb lacks $path"
done
dpkg-deb --contents "$deb" | awk '$2 != "root/root" {print; bad = 1} END {exit bad}' \
  || fail "$deb has files not owned by root"

entries="$(tar -tzf "$tarball")"
top="$(basename "$tarball" .tar.gz)"
for path in bin/folio share/man/man1/folio.1 share/bash-completion/completions/folio \
  share/zsh/vendor-completions/_folio share/fish/vendor_completions.d/folio.fish README.md NOTICES; do
  printf '%s\n' "$entries" | grep -qx "$top/$path" || fail "$tarball lacks $top/$path"
done

dpkg-deb --extract "$deb" "$work/root"
binary="$work/root/usr/bin/folio"
"$binary" --version >/dev/null || fail "the packaged folio does not run"
zcat "$work/root/usr/share/man/man1/folio.1.gz" | grep -q '^\.TH FOLIO 1' || fail "the man page has no .TH line"

if [ "$debug" -eq 0 ]; then
  if ldd "$binary" | grep -q 'not found'; then fail "unresolved libraries: $(ldd "$binary" | grep 'not found')"; fi
  if ldd "$binary" | grep -q -e /opt/swift -e libswiftCore -e libFoundation; then
    fail "the binary loads the Swift toolchain's libraries: $(ldd "$binary" | grep -e swift -e Foundation)"
  fi
  # Every library it loads comes from a Debian package; those it names itself are in Depends.
  for library in $(ldd "$binary" | awk '/=> \// {print $3}'); do
    owner="$(dpkg-query -S "$library" 2>/dev/null || dpkg-query -S "$(readlink -f "$library")" 2>/dev/null || true)"
    [ -n "$owner" ] || fail "$library belongs to no Debian package"
  done
  for soname in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    library="$(ldd "$binary" | awk -v name="$soname" '$1 == name && $3 ~ /^\// {print $3} $1 ~ ("/" name "$") {print $1}' | head -n 1)"
    owner="$(dpkg-query -S "$library" 2>/dev/null | head -n 1 | cut -d: -f1)"
    printf '%s\n' "$depends" | grep -q "\\b$owner\\b" || fail "$soname ($owner) is not in Depends"
  done
fi

if [ -n "$chroot_dir" ]; then
  command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
  if [ ! -x "$chroot_dir/usr/bin/apt-get" ]; then
    debootstrap --variant=minbase bookworm "$chroot_dir" http://deb.debian.org/debian >/dev/null
  fi
  cp "$deb" "$chroot_dir/tmp/"
  # Swift reads its arguments from /proc/self/cmdline: a real system has /proc, a bare chroot not.
  mountpoint -q "$chroot_dir/proc" || mount -t proc proc "$chroot_dir/proc"
  trap 'umount "$chroot_dir/proc" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
  chroot "$chroot_dir" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/$(basename "$deb")" >/dev/null \
    || fail "apt-get install failed in $chroot_dir"
  chroot "$chroot_dir" sh -c 'folio --version && mkdir -p /tmp/p.pkg && echo hi > /tmp/p.pkg/a.txt && cd /tmp && folio pack p.pkg -o p.tar.gz --force && folio list p.tar.gz && test -f /usr/share/man/man1/folio.1.gz && test -f /usr/share/bash-completion/completions/folio' \
    || fail "folio does not run in $chroot_dir"
  if chroot "$chroot_dir" sh -c 'ls /opt/swift /usr/bin/swift' >/dev/null 2>&1; then fail "the chroot has a Swift toolchain"; fi
fi
echo "check-package: $deb and $tarball look right"
