#!/bin/sh
# Installs the Debian packages Folio needs to build and test, if any are missing.
# As root it runs apt-get itself; otherwise it prints the exact command and stops.
set -eu

# shared-mime-info: the Linux desktop's type database folio reads; file and libglib2.0-bin
# (gio): the tools the type-identification test compares folio with. genisoimage: writes
# the zisofs ISO images the ISO 9660 reading test expands.
packages="pkg-config libarchive-dev libxml2-dev zlib1g-dev libdeflate-dev libzstd-dev libarchive-tools zip unzip zstd xz-utils bzip2 python3 time p7zip-full git python3-jsonschema zsh fish groff-base shared-mime-info file libglib2.0-bin genisoimage"
missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "bootstrap: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "bootstrap: missing packages; run this, then try again:" >&2
  echo "  sudo apt-get install -y$missing" >&2
  exit 1
fi
