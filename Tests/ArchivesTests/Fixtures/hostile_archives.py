#!/usr/bin/env python3
"""Writes one hostile (or damaged) archive for Folio's expansion tests.

    hostile_archives.py CASE OUTPUT [OUTSIDE]

OUTSIDE is an absolute path outside the destination that absolute names point at.
Every case is built here, at test time, with zipfile/tarfile or raw bytes.
"""
import gzip, io, os, struct, sys, tarfile, zipfile, zlib

case, out = sys.argv[1], sys.argv[2]
outside = sys.argv[3] if len(sys.argv) > 3 else "/tmp/folio-outside"
EPOCH = 1_700_000_000


# ---------------------------------------------------------------- zip helpers
def zinfo(name, mode=0o100644):
    info = zipfile.ZipInfo(name, date_time=(2023, 11, 14, 22, 13, 20))
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def write_zip(entries, method=zipfile.ZIP_STORED):
    with zipfile.ZipFile(out, "w", method) as z:
        for name, data, mode in entries:
            info = zinfo(name, mode)
            info.compress_type = method
            z.writestr(info, data)


def patch(old, new, count=None):
    data = open(out, "rb").read()
    found = data.count(old)
    assert found >= 1, (old, found)
    if count is not None:
        assert found == count, (old, found)
    open(out, "wb").write(data.replace(old, new))


def local_header(name, data, crc=None, flags=0):
    crc = zlib.crc32(data) if crc is None else crc
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, 0, 0, 0, crc, len(data), len(data),
                       len(name), 0) + name


def central_record(name, data, offset, mode=0o100644):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, 0, 0, 0, 0, zlib.crc32(data),
                       len(data), len(data), len(name), 0, 0, 0, 0, mode << 16, offset) + name


def end_record(count, size, offset):
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, size, offset, 0)


# ---------------------------------------------------------------- raw zip builder
def deflate(data, level=9):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zentry(name, data=b"", method=8, mode=0o100644, **kw):
    """One entry for build_zip: overrides (size, csize, crc, flags, payload, local_*) in kw."""
    e = dict(name=name.encode() if isinstance(name, str) else name, data=data, method=method,
             mode=mode)
    e.update(kw)
    return e


def build_zip(entries, comment=b"", prefix=b"", adjusted=False, count=None, trailing=b"",
              zip64=None, listed=None, end_fields=None):
    """Writes a zip byte by byte. `listed`: indices the central directory names (default all);
    `zip64`: dict of ZIP64 end-record fields (count, size, offset, disks) to add a ZIP64 end
    record and locator; `end_fields`: overrides of the 32-bit end record."""
    body = bytearray(prefix)
    base = 0 if adjusted else len(prefix)
    records = []
    for e in entries:
        data = e["data"]
        payload = e.get("payload")
        if payload is None:
            payload = deflate(data) if e["method"] == 8 else data
        crc = e.get("crc", zlib.crc32(data))
        size = e.get("size", len(data))
        csize = e.get("csize", len(payload))
        flags = e.get("flags", 0)
        name = e["name"]
        offset = len(body) - base
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, e.get("local_flags", flags),
                            e.get("local_method", e["method"]), 0x6E2D, 0x576E,
                            e.get("local_crc", 0 if flags & 8 else crc),
                            e.get("local_csize", 0 if flags & 8 else csize),
                            e.get("local_size", 0 if flags & 8 else size),
                            len(e.get("local_name", name)), 0) + e.get("local_name", name)
        body += local + payload
        if flags & 8 and e.get("descriptor", True):
            body += struct.pack("<IIII", 0x08074B50, crc, csize, size)
        records.append((e, name, crc, csize, size, flags, offset))
    directory = bytearray()
    for index, (e, name, crc, csize, size, flags, offset) in enumerate(records):
        if listed is not None and index not in listed:
            continue
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, flags, e["method"],
                                 0x6E2D, 0x576E, crc, csize, size, len(name), 0, 0, 0, 0,
                                 e["mode"] << 16, e.get("offset", offset)) + name
    start = len(body) - base
    n = len(records) if listed is None else len(listed)
    body += directory
    fields = dict(disk=0, cd_disk=0, on_disk=n if count is None else count,
                  count=n if count is None else count, size=len(directory), offset=start)
    if zip64 is not None:
        record_offset = len(body) - base
        z = dict(count=n, size=len(directory), offset=start, disks=1)
        z.update(zip64)
        body += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, z["count"], z["count"],
                            z["size"], z["offset"])
        body += struct.pack("<IIQI", 0x07064B50, 0, z.get("record_offset", record_offset),
                            z["disks"])
    fields.update(end_fields or {})
    body += struct.pack("<IHHHHIIH", 0x06054B50, fields["disk"], fields["cd_disk"],
                        fields["on_disk"], fields["count"], fields["size"], fields["offset"],
                        len(comment)) + comment + trailing
    open(out, "wb").write(bytes(body))


def end_record_bytes(count, size, offset, comment_length):
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, size, offset, comment_length)



# ---------------------------------------------------------------- ISO 9660 builder
def build_iso(files, size, step):
    """An ISO 9660 image whose `files` files are `size` bytes each, file i starting `step`
    sectors after file i-1: with a step of 1 their extents overlap almost whole."""
    sector = 2048

    def both16(v):
        return struct.pack("<H", v) + struct.pack(">H", v)

    def both32(v):
        return struct.pack("<I", v) + struct.pack(">I", v)

    def record(extent, length, name, flags):
        n = len(name)
        total = 33 + n + (1 if n % 2 == 0 else 0)
        r = (struct.pack("<BB", total, 0) + both32(extent) + both32(length)
             + bytes([123, 11, 14, 22, 13, 20, 0, flags, 0, 0]) + both16(1) + bytes([n]) + name)
        return r + bytes(total - len(r))

    names = [b"F%05d.BIN;1" % i for i in range(files)]
    # The root folder's records, packed into sectors (a record never crosses one).
    sizes = [34, 34] + [len(record(0, 0, name, 0)) for name in names]
    sectors, used = 1, 0
    for length in sizes:
        if used + length > sector:
            sectors, used = sectors + 1, 0
        used += length
    root, data = 20, 20 + sectors
    records = [record(root, sectors * sector, b"\0", 2), record(root, sectors * sector, b"\1", 2)]
    records += [record(data + i * step, size, name, 0) for i, name in enumerate(names)]
    directory, current = bytearray(), bytearray()
    for r in records:
        if len(current) + len(r) > sector:
            directory += current + bytes(sector - len(current))
            current = bytearray()
        current += r
    directory += current + bytes(sector - len(current))
    total = data + files * step + (size + sector - 1) // sector
    pvd = bytearray(sector)
    pvd[0:7] = b"\x01CD001\x01"
    pvd[40:72] = b"FOLIO".ljust(32)
    pvd[80:88] = both32(total)
    pvd[120:132] = both16(1) + both16(1) + both16(sector)
    pvd[132:140] = both32(10)
    pvd[140:144] = struct.pack("<I", 18)
    pvd[148:152] = struct.pack(">I", 19)
    pvd[156:190] = record(root, sectors * sector, b"\0", 2)
    pvd[881] = 1
    terminator = bytearray(sector)
    terminator[0:7] = b"\xffCD001\x01"
    table_l = bytes([1, 0]) + struct.pack("<IH", root, 1) + b"\0\0"
    table_m = bytes([1, 0]) + struct.pack(">IH", root, 1) + b"\0\0"
    payload = bytes(range(256)) * ((files * step * sector + size) // 256 + 1)
    image = (bytes(16 * sector) + pvd + terminator + table_l + bytes(sector - 10) + table_m
             + bytes(sector - 10) + directory + payload)
    open(out, "wb").write(image + bytes(-len(image) % sector))


def sevenzip(arguments, files):
    """Runs 7z in a scratch folder holding `files` (name -> bytes), writing `out`."""
    import subprocess, tempfile
    with tempfile.TemporaryDirectory() as scratch:
        for name, data in files.items():
            path = os.path.join(scratch, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "wb").write(data)
        target = os.path.join(scratch, "out.7z")  # 7z adds an extension to a name without one
        subprocess.run(["7z", "a", "-bd", "-y"] + arguments + [target] + list(files), cwd=scratch,
                       check=True, stdout=subprocess.DEVNULL)
        os.replace(target, out)


# ---------------------------------------------------------------- tar helpers
def write_tar(members, mode="w"):
    with tarfile.open(out, mode, format=tarfile.PAX_FORMAT) as t:
        for info, data in members:
            info.mtime = EPOCH
            t.addfile(info, io.BytesIO(data) if data is not None else None)


def tfile(name, data=b"x", mode=0o644):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    return info, data


def tlink(name, target, kind=tarfile.SYMTYPE):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def tdir(name):
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode = 0o755
    return info, None


def tspecial(name, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.devmajor, info.devminor = 1, 3
    return info, None


# ---------------------------------------------------------------- cases
if case == "zip-absolute":
    write_zip([("ok.txt", b"fine", 0o100644), (outside + "/evil.txt", b"evil", 0o100644)])
elif case == "zip-dotdot":
    write_zip([("ok.txt", b"fine", 0o100644), ("../evil.txt", b"evil", 0o100644)])
elif case == "zip-dotdot-inner":
    write_zip([("a/../../evil.txt", b"evil", 0o100644)])
elif case == "zip-backslash":
    write_zip([("..\\evil.txt", b"evil", 0o100644)])
elif case == "zip-backslash-windows-dotdot":
    # Made on MS-DOS: '\\' is read as a separator, and the '..' it then shows is refused.
    with zipfile.ZipFile(out, "w") as z:
        info = zipfile.ZipInfo("a\\..\\..\\evil.txt", date_time=(2023, 11, 14, 22, 13, 20))
        info.create_system = 0
        z.writestr(info, b"evil")
elif case == "zip-drive-letter":
    write_zip([("C:/evil.txt", b"evil", 0o100644)])
elif case == "zip-nul":
    write_zip([("goodQtxt", b"evil", 0o100644)])
    patch(b"goodQtxt", b"good\x00txt", count=2)
elif case == "zip-symlink-escape":
    write_zip([("link", b"../../escape", 0o120777)])
elif case == "zip-symlink-absolute":
    write_zip([("link", outside.encode(), 0o120777)])
elif case == "zip-write-through-symlink":
    write_zip([("dir", b"sub", 0o120777), ("dir/file.txt", b"through", 0o100644)])
elif case == "zip-device":
    write_zip([("null", b"", 0o020666)])
elif case == "zip-fifo":
    write_zip([("pipe", b"", 0o010644)])
elif case == "zip-duplicate":
    import warnings
    warnings.simplefilter("ignore")
    write_zip([("a.txt", b"first", 0o100644), ("a.txt", b"second", 0o100644)])
elif case == "zip-case-collision":
    write_zip([("Readme.txt", b"one", 0o100644), ("README.txt", b"two", 0o100644)])
elif case == "zip-normalization-collision":
    write_zip([("caf\u00e9.txt", b"nfc", 0o100644), ("cafe\u0301.txt", b"nfd", 0o100644)])
elif case == "zip-name-too-long":
    write_zip([("a" * 300 + ".txt", b"long", 0o100644)])
elif case == "zip-overlap":
    # Fifield's "quoted" overlap: entry a's stored data holds entry b's local header and data.
    inner = b"kernel " * 100
    b_local = local_header(b"b", inner)
    a_data = b_local + inner
    a_local = local_header(b"a", a_data)
    body = a_local + a_data
    directory = central_record(b"a", a_data, 0) + central_record(b"b", inner, len(a_local))
    open(out, "wb").write(body + directory + end_record(2, len(directory), len(body)))
elif case == "zip-local-name-mismatch":
    write_zip([("good.txt", b"data", 0o100644)])
    data = bytearray(open(out, "rb").read())
    data[30:38] = b"evil.txt"  # the local header's name only
    open(out, "wb").write(bytes(data))
elif case == "zip-local-size-mismatch":
    write_zip([("good.txt", b"data", 0o100644)])
    data = bytearray(open(out, "rb").read())
    data[22:26] = struct.pack("<I", 999)  # the local uncompressed size only
    open(out, "wb").write(bytes(data))
elif case == "zip-bad-crc":
    write_zip([("a.txt", b"hello world " * 10, 0o100644)])
    crc = struct.pack("<I", zlib.crc32(b"hello world " * 10))
    patch(crc, struct.pack("<I", zlib.crc32(b"something else")), count=2)
elif case == "zip-encrypted":
    write_zip([("secret.txt", b"cipher", 0o100644)])
    data = bytearray(open(out, "rb").read())
    data[6] |= 1  # local flags
    cd = data.index(b"PK\x01\x02")
    data[cd + 8] |= 1  # central flags
    open(out, "wb").write(bytes(data))
elif case == "zip-ratio-bomb":
    write_zip([("zeros.bin", bytes(20 << 20), 0o100644)], method=zipfile.ZIP_DEFLATED)
elif case == "zip-truncated":
    write_zip([("a.txt", os.urandom(5000), 0o100644), ("b.txt", os.urandom(5000), 0o100644)])
    data = open(out, "rb").read()
    open(out, "wb").write(data[: len(data) // 2])
elif case == "zip-directory-out-of-bounds":
    write_zip([("a.txt", b"data", 0o100644)])
    data = bytearray(open(out, "rb").read())
    end = data.rindex(b"PK\x05\x06")
    data[end + 16:end + 20] = struct.pack("<I", 0x7FFFFFF0)  # central directory offset
    data[end + 12:end + 16] = struct.pack("<I", 0x7FFFFFF0)  # and size, past the file
    open(out, "wb").write(bytes(data))
elif case == "zip-entry-count-lie":
    write_zip([("a.txt", b"data", 0o100644)])
    data = bytearray(open(out, "rb").read())
    end = data.rindex(b"PK\x05\x06")
    data[end + 8:end + 12] = struct.pack("<HH", 60000, 60000)
    open(out, "wb").write(bytes(data))
elif case == "zip-local-offset-out-of-bounds":
    write_zip([("a.txt", b"data", 0o100644)])
    data = bytearray(open(out, "rb").read())
    central = data.index(b"PK\x01\x02")
    data[central + 42:central + 46] = struct.pack("<I", 0x10000000)
    open(out, "wb").write(bytes(data))
elif case == "zip-extra-overrun":
    write_zip([("a.txt", b"data", 0o100644)])
    data = bytearray(open(out, "rb").read())
    central = data.index(b"PK\x01\x02")
    name_length, extra_length = struct.unpack("<HH", data[central + 28:central + 32])
    # declare a 2-byte extra field holding a field header that claims 500 bytes
    field = struct.pack("<HH", 0x5455, 500)
    data[central + 30:central + 32] = struct.pack("<H", len(field))
    at = central + 46 + name_length
    data[at:at + extra_length] = field
    end = data.rindex(b"PK\x05\x06")
    size = struct.unpack("<I", data[end + 12:end + 16])[0]
    data[end + 12:end + 16] = struct.pack("<I", size - extra_length + len(field))
    open(out, "wb").write(bytes(data))
elif case == "zip-end-count-too-low":
    # Two records in the directory, the end record declares one: a reader that walks the
    # directory to its end sees the bomb a reader that trusts the count does not.
    build_zip([zentry("small.txt", b"small"), zentry("bomb.bin", bytes(8 << 20))], count=1)
elif case == "zip-end-count-too-high":
    build_zip([zentry("a.txt", b"a"), zentry("b.txt", b"b")], count=3)
elif case == "zip-end-decoy-in-comment":
    # A decoy end record inside the real one's comment, its comment running past the file.
    decoy = end_record_bytes(1, 46, 0, 500)
    build_zip([zentry("a.txt", b"real")], comment=b"xx" + decoy + b"yy")
elif case == "zip-end-decoy-closing":
    # A decoy end record inside the comment whose own (empty) comment ends the file too.
    decoy = end_record_bytes(0, 0, 0, 0)
    build_zip([zentry("a.txt", b"real")], comment=b"xx" + decoy)
elif case == "zip-end-trailing-bytes":
    build_zip([zentry("a.txt", b"real")], trailing=b"appended junk")
elif case == "zip64-locator-zero-disks":
    # The ZIP64 records (disk count 0) name one small entry; the 32-bit end record, which a
    # reader rejecting the locator falls back to, names both.
    build_zip([zentry("small.txt", b"small"), zentry("bomb.bin", bytes(8 << 20))],
              zip64=dict(disks=0, count=1, size=46 + 9), end_fields=dict(count=2, on_disk=2))
elif case == "zip64-count-disagrees":
    build_zip([zentry("a.txt", b"a"), zentry("b.txt", b"b")], zip64=dict(count=1),
              end_fields=dict(count=2, on_disk=2))
elif case == "zip64-offset-disagrees":
    build_zip([zentry("a.txt", b"a")], zip64=dict(offset=0), end_fields=dict(offset=0x30))
elif case == "zip64-record-missing":
    build_zip([zentry("a.txt", b"a")], zip64=dict(record_offset=3))
elif case == "zip64-valid":
    build_zip([zentry("a.txt", b"a" * 100), zentry("b.txt", b"b")],
              zip64=dict(), end_fields=dict(count=0xFFFF, on_disk=0xFFFF, offset=0xFFFFFFFF))
elif case == "zip-orphan-local-bomb":
    # A local entry no directory record names (a bomb), before the one the directory names:
    # only a streaming reader reaches it.
    build_zip([zentry("bomb.bin", bytes(64 << 20)), zentry("small.txt", b"small")], listed=[1])
elif case == "zip-size-lie-bomb":
    # Both headers declare 1,000 bytes; the DEFLATE data holds 64 MiB.
    build_zip([zentry("liar.bin", bytes(64 << 20), size=1000, crc=zlib.crc32(bytes(1000)))])
elif case == "zip-descriptor-size-lie-bomb":
    # Sizes deferred to a data descriptor (flag bit 3): the directory says 1,000 bytes.
    build_zip([zentry("liar.bin", bytes(64 << 20), flags=8, size=1000,
                      crc=zlib.crc32(bytes(1000)))])
elif case == "zip-short-data":
    build_zip([zentry("short.bin", os.urandom(4000), size=5000)])
elif case == "zip-deflate-ends-early":
    data = b"abc" * 100
    build_zip([zentry("early.txt", data, payload=deflate(data) + b"\x00" * 16)])
elif case == "zip-stored-sizes-differ":
    build_zip([zentry("a.txt", b"abcdef", method=0, csize=6, size=5)])
elif case == "zip-deflate64":
    build_zip([zentry("big.bin", b"data", method=9, payload=b"\x03\x00")])
elif case == "zip-ppmd":
    build_zip([zentry("text.txt", b"data", method=98, payload=b"\x00" * 8)])
elif case == "zip-aes":
    build_zip([zentry("secret.txt", b"data", method=99, payload=b"\x00" * 8, flags=1)])
elif case == "zip-sfx":
    build_zip([zentry("Note/", b"", mode=0o040755), zentry("Note/a.txt", b"self-extracting")],
              prefix=b"#!/bin/sh\necho stub\nexit 0\n" + bytes(100))
elif case == "zip-sfx-adjusted":
    build_zip([zentry("Note/", b"", mode=0o040755), zentry("Note/a.txt", b"self-extracting")],
              prefix=b"#!/bin/sh\necho stub\nexit 0\n" + bytes(100), adjusted=True)
elif case == "zip-same-local-header":
    # Two directory records naming one local header (a quoted overlap at distance 0).
    build_zip([zentry("a.txt", b"x" * 100)])
    data = bytearray(open(out, "rb").read())
    cd = data.index(b"PK\x01\x02")
    end = data.rindex(b"PK\x05\x06")
    record = bytes(data[cd:end])
    second = record.replace(b"a.txt", b"b.txt")
    data[cd:end] = record + second
    end = data.rindex(b"PK\x05\x06")
    data[end + 8:end + 16] = struct.pack("<HHI", 2, 2, len(record) * 2)
    open(out, "wb").write(bytes(data))
elif case == "zip-unwrap-link-sibling":
    # Inside the archive's root, but outside DEST once 'pkg/' is unwrapped into it.
    write_zip([("pkg/", b"", 0o040755), ("pkg/x.txt", b"x", 0o100644),
               ("pkg/l", b"../pkg/x.txt", 0o120777)])
elif case == "zip-unwrap-link-folder":
    write_zip([("pkg/", b"", 0o040755), ("pkg/x.txt", b"x", 0o100644),
               ("pkg/d", b"../pkg", 0o120777)])
elif case == "zip-unwrap-link-climbs-back":
    write_zip([("pkg/", b"", 0o040755), ("pkg/sub/", b"", 0o040755),
               ("pkg/x.txt", b"x", 0o100644), ("pkg/sub/l", b"../../pkg/x.txt", 0o120777)])
elif case == "zip-unwrap-link-inside":
    write_zip([("pkg/", b"", 0o040755), ("pkg/sub/", b"", 0o040755),
               ("pkg/x.txt", b"x", 0o100644), ("pkg/sub/l", b"../x.txt", 0o120777)])
elif case == "tar-unwrap-link-sibling":
    write_tar([tdir("pkg"), tfile("pkg/x.txt"), tlink("pkg/l", "../pkg/x.txt")])
elif case == "tar-unwrap-link-folder":
    write_tar([tdir("pkg"), tfile("pkg/x.txt"), tlink("pkg/d", "../pkg")])
elif case == "tar-unwrap-link-through-link":
    # Each hop stays inside the archive; 'up' leaves DEST after unwrapping.
    write_tar([tdir("pkg"), tfile("pkg/x.txt"), tdir("pkg/sub"), tlink("pkg/sub/up", "../.."),
               tlink("pkg/l", "sub/up/pkg/x.txt")])
elif case == "tar-unwrap-hardlink":
    write_tar([tdir("pkg"), tfile("pkg/x.txt", b"shared"), tlink("pkg/h", "pkg/x.txt", tarfile.LNKTYPE),
               tlink("pkg/l", "x.txt")])
elif case == "7z-lzma-bomb":
    sevenzip(["-t7z", "-m0=lzma", "-mx=9"], {"zeros.bin": bytes(64 << 20)})
elif case == "7z-small":
    sevenzip(["-t7z"], {"Note/a.txt": b"seven " * 100, "Note/b.txt": b"zip"})
elif case == "iso-overlapping-extents":
    build_iso(files=200, size=1 << 20, step=1)
elif case == "iso-small":
    build_iso(files=3, size=3000, step=2)
elif case in ("tar-xz-bomb", "tar-zst-bomb", "tar-bz2-bomb"):
    import bz2, lzma, subprocess
    write_tar([tfile("zeros.bin", bytes(64 << 20))])
    raw = open(out, "rb").read()
    if case == "tar-xz-bomb":
        packed = lzma.compress(raw, preset=9)
    elif case == "tar-bz2-bomb":
        packed = bz2.compress(raw, 9)
    else:
        packed = subprocess.run(["zstd", "-19", "-q", "-c"], input=raw, capture_output=True,
                                check=True).stdout
    open(out, "wb").write(packed)
elif case == "cpio-gz-bomb":
    # newc cpio: one 256 MiB file of zeros, gzipped.
    def newc(name, size, mode):
        fields = [1, mode, 0, 0, 1, EPOCH, size, 0, 0, 0, 0, len(name) + 1, 0]
        header = b"070701" + b"".join(b"%08X" % f for f in fields) + name + b"\0"
        return header + bytes(-len(header) % 4)
    body = newc(b"zeros.bin", 256 << 20, 0o100644) + bytes(256 << 20)
    body += newc(b"TRAILER!!!", 0, 0)
    open(out, "wb").write(gzip.compress(body, 9))
elif case == "zip-bzip2-bomb":
    import bz2
    data = bytes(64 << 20)
    build_zip([zentry("zeros.bin", data, method=12, payload=bz2.compress(data, 9))])
elif case == "zip-gz-bomb":
    # A zip of zeros (stored, so itself 32 MiB), gzipped: it must be copied to be read.
    write_zip([("zeros.bin", bytes(32 << 20), 0o100644)])
    raw = open(out, "rb").read()
    open(out, "wb").write(gzip.compress(raw, 9))
elif case == "zip-many":
    write_zip([(f"f{i}.txt", b"x", 0o100644) for i in range(5)])
elif case == "zip-large":
    write_zip([("big.bin", b"y" * 5000, 0o100644)])
elif case == "zip-macos":
    write_zip([("Note/", b"", 0o040755), ("Note/a.txt", b"a", 0o100644),
               ("__MACOSX/Note/._a.txt", b"\x00\x05\x16\x07", 0o100644),
               ("Note/._a.txt", b"\x00\x05\x16\x07", 0o100644)])
elif case == "zip-setuid":
    write_zip([("tool", b"#!/bin/sh\n", 0o106777), ("shared/", b"", 0o041777)])

elif case == "tar-absolute":
    write_tar([tfile(outside + "/evil.txt")])
elif case == "tar-dotdot":
    write_tar([tfile("ok.txt"), tfile("sub/../../evil.txt")])
elif case == "tar-symlink-escape":
    write_tar([tlink("link", "../outside")])
elif case == "tar-symlink-absolute":
    write_tar([tlink("link", outside)])
elif case == "tar-symlink-chain":
    write_tar([tdir("d"), tlink("d/x", ".."), tlink("d/y", "x/..")])
elif case == "tar-symlink-late-redirect":
    write_tar([tdir("d"), tlink("d/y", "x/.."), tlink("d/x", "..")])
elif case == "tar-write-through-symlink":
    write_tar([tdir("sub"), tlink("s", "sub"), tfile("s/f.txt")])
elif case == "tar-hardlink-outside":
    write_tar([tlink("h", "../../etc/passwd", tarfile.LNKTYPE)])
elif case == "tar-hardlink-absolute":
    write_tar([tlink("h", "/etc/passwd", tarfile.LNKTYPE)])
elif case == "tar-hardlink-missing":
    write_tar([tlink("h", "nothing-here", tarfile.LNKTYPE)])
elif case == "tar-hardlink-to-symlink":
    write_tar([tlink("s", "f.txt"), tfile("f.txt"), tlink("h", "s", tarfile.LNKTYPE)])
elif case == "tar-device":
    write_tar([tspecial("null", tarfile.CHRTYPE)])
elif case == "tar-block-device":
    write_tar([tspecial("disk", tarfile.BLKTYPE)])
elif case == "tar-fifo":
    write_tar([tspecial("pipe", tarfile.FIFOTYPE)])
elif case == "tar-duplicate":
    write_tar([tfile("a.txt", b"first"), tfile("a.txt", b"second")])
elif case == "tar-case-collision":
    write_tar([tdir("Pages"), tfile("pages/a.txt")])
elif case == "tar-path-conflict":
    write_tar([tfile("a"), tfile("a/b")])
elif case == "tar-bad-checksum":
    write_tar([tfile("a.txt", b"A" * 100), tfile("b.txt", b"B" * 100)])
    data = bytearray(open(out, "rb").read())
    # the second header (after pax header blocks): find b.txt's ustar header and break its checksum
    index = data.rindex(b"b.txt\x00")
    data[index + 148:index + 156] = b"0000000\x00"
    open(out, "wb").write(bytes(data))
elif case == "tar-huge-declared":
    # A 3 KB archive whose header declares 1 TiB.
    info, _ = tfile("huge.bin", b"")
    info.size = 1 << 40
    info.mtime = EPOCH
    header = info.tobuf(format=tarfile.PAX_FORMAT)
    open(out, "wb").write((header + b"h" * 3072)[:3072])
elif case == "tar-short-data":
    write_tar([tfile("a.txt", b"z" * 10000)])
    data = open(out, "rb").read()
    index = data.rindex(b"z" * 10)
    open(out, "wb").write(data[: index - 6000])
elif case == "tar-gz-bad-trailer":
    write_tar([tfile("a.txt", b"hello " * 1000)], mode="w:gz")
    data = bytearray(open(out, "rb").read())
    data[-8] ^= 0xFF  # CRC-32 in the trailer
    open(out, "wb").write(bytes(data))
elif case == "tar-gz-bad-length":
    write_tar([tfile("a.txt", b"hello " * 1000)], mode="w:gz")
    data = bytearray(open(out, "rb").read())
    data[-1] ^= 0x01  # ISIZE in the trailer
    open(out, "wb").write(bytes(data))
elif case == "tar-gz-truncated":
    write_tar([tfile("a.txt", os.urandom(50000))], mode="w:gz")
    data = open(out, "rb").read()
    open(out, "wb").write(data[: len(data) - 20000])
elif case == "tar-gz-garbage":
    write_tar([tfile("a.txt", b"fine")], mode="w:gz")
    data = bytearray(open(out, "rb").read())
    data[20:40] = b"\xff" * 20  # inside the deflate stream
    open(out, "wb").write(bytes(data))
elif case == "tar-gz-bomb":
    write_tar([tfile("zeros.bin", bytes(20 << 20))], mode="w:gz")
elif case == "tar-pax-nul-path":
    info, data = tfile("placeholder.txt", b"evil")
    info.pax_headers = {"path": "nul\x00hidden.txt"}
    write_tar([(info, data)])
elif case == "tar-pax-nul-linkpath":
    info, data = tlink("link", "x")
    info.pax_headers = {"linkpath": "ok\x00/../../etc/passwd"}
    write_tar([(info, data)])
elif case == "tar-gnu-longname-nul":
    info, data = tfile("n" * 120, b"evil")
    with tarfile.open(out, "w", format=tarfile.GNU_FORMAT) as t:
        info.mtime = EPOCH
        t.addfile(info, io.BytesIO(data))
    raw = bytearray(open(out, "rb").read())
    at = raw.index(b"n" * 120)  # the GNU long-name entry's data
    raw[at + 3] = 0
    open(out, "wb").write(bytes(raw))
elif case == "tar-gz-multi-member":
    write_tar([tfile("a.txt", b"first " * 3000), tfile("b.txt", b"second " * 3000)])
    raw = open(out, "rb").read()
    open(out, "wb").write(gzip.compress(raw[:4096]) + gzip.compress(raw[4096:9000])
                          + gzip.compress(raw[9000:]))
elif case == "tar-gz-multi-member-bad-second":
    write_tar([tfile("a.txt", b"first " * 3000), tfile("b.txt", b"second " * 3000)])
    raw = open(out, "rb").read()
    second = bytearray(gzip.compress(raw[4096:]))
    second[-8] ^= 0xFF  # the second member's CRC-32
    open(out, "wb").write(gzip.compress(raw[:4096]) + bytes(second))
elif case == "tar-gz-zero-padding":
    write_tar([tfile("a.txt", b"padded")])
    raw = open(out, "rb").read()
    open(out, "wb").write(gzip.compress(raw) + bytes(700))
elif case == "tar-gz-trailing-junk":
    write_tar([tfile("a.txt", b"junk follows")])
    raw = open(out, "rb").read()
    open(out, "wb").write(gzip.compress(raw) + b"not gzip")
elif case == "tar-gz-trailing-too-much":
    write_tar([tfile("a.txt", b"noise follows")])
    raw = open(out, "rb").read()
    open(out, "wb").write(gzip.compress(raw) + b"not gzip" + os.urandom((1 << 20) + 1))
elif case in ("tar-gz-gz", "tar-gz-xz", "tar-xz-gz", "tar-gz-bz2", "tar-zst-gz", "tar-gz-gz-gz"):
    import bz2, lzma, subprocess
    write_tar([tdir("Note"), tfile("Note/a.txt", b"nested " * 500), tlink("Note/l", "a.txt")])
    raw = open(out, "rb").read()
    def zst(b):
        return subprocess.run(["zstd", "-q", "-c"], input=b, capture_output=True, check=True).stdout
    layers = {"gz": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress, "zst": zst}
    for layer in case.split("-")[1:]:
        raw = layers[layer](raw)
    open(out, "wb").write(raw)
elif case in ("tar-zst-skippable-first", "tar-zst-frames", "tar-zst-skippable-between"):
    # Frame sequences `zstd -d` accepts: a skippable frame (magic 0x184D2A50-5F) first, the
    # tar split over several frames, skippable frames between and after them.
    import subprocess
    write_tar([tdir("Note"), tfile("Note/a.txt", b"frames " * 500)])
    raw = open(out, "rb").read()
    def zst(b):
        return subprocess.run(["zstd", "-q", "-c"], input=b, capture_output=True, check=True).stdout
    def skippable(magic, body):
        return struct.pack("<II", magic, len(body)) + body
    if case == "tar-zst-skippable-first":
        packed = skippable(0x184D2A50, b"seekable index") + zst(raw)
    elif case == "tar-zst-frames":
        packed = zst(raw[:1000]) + zst(raw[1000:5000]) + zst(raw[5000:])
    else:
        packed = (skippable(0x184D2A5F, b"") + zst(raw[:3000]) + skippable(0x184D2A53, b"xyz")
                  + zst(raw[3000:]) + skippable(0x184D2A5E, bytes(100)))
    subprocess.run(["zstd", "-t", "-q"], input=packed, check=True)
    open(out, "wb").write(packed)
elif case == "tar-gz-xz-bad-inner-trailer":
    import lzma
    write_tar([tfile("a.txt", b"inner " * 500)])
    inner = bytearray(gzip.compress(open(out, "rb").read()))
    inner[-8] ^= 0xFF
    open(out, "wb").write(lzma.compress(bytes(inner)))
elif case == "tar-root-mode-0000":
    root = tdir(".")
    root[0].mode = 0
    write_tar([root, tfile("./a.txt", b"a")])
elif case == "tar-top-mode-0500":
    top = tdir("top")
    top[0].mode = 0o500
    write_tar([top, tfile("top/a.txt", b"a")])
elif case == "tar-empty":
    open(out, "wb").write(bytes(10240))
elif case == "zero-bytes":
    open(out, "wb").write(b"")
elif case == "tar-setuid":
    write_tar([tfile("tool", b"#!/bin/sh\n", mode=0o6777), tdir("shared")])
    # give "shared" the sticky bit and group/other write
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as t:
        for info, data in [tfile("tool", b"#!/bin/sh\n", mode=0o6777), tdir("shared")]:
            info.mtime = EPOCH
            if info.isdir():
                info.mode = 0o1777
            t.addfile(info, io.BytesIO(data) if data is not None else None)
elif case == "tar-dot-root":
    write_tar([tdir("."), tdir("./Note"), tfile("./Note/a.txt", b"a"), tfile("./b.txt", b"b")])
else:
    sys.exit(f"unknown case {case}")
