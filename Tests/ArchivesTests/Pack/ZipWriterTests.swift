import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// Folio's own zip writer against the readers people use: every peer tests and
/// extracts the same bytes, whatever the number of jobs and the time zone.
@Suite struct ZipWriterTests {
  /// A package with what a writer must get right: small and large files (one
  /// large file cut into many chunks, text and random), an empty file and an
  /// empty folder, a symbolic link, modes, and a non-ASCII name.
  static func makeTree(in folder: URL) throws -> URL {
    let random = PackTestTrees.randomBytes(400_000, seed: 11)
    return try PackTestTrees.make(
      folder.appendingPathComponent("Mixed.pkg"),
      files: [
        "metadata.json": Data(#"{"title":"Zip writer"}"#.utf8),
        "pages/a.txt": PackTestTrees.text(3_000),
        "pages/b.txt": PackTestTrees.text(9_000),
        "pages/Ünïcödé 文稿.txt": PackTestTrees.text(500),
        "pages/empty.txt": Data(),
        "media/large.bin": PackTestTrees.text(300_000) + random + PackTestTrees.text(350_001),
        "media/noise.bin": random,
        "media/photo.jpg": PackTestTrees.text(40_000),
        "bin/tool.sh": Data("#!/bin/sh\necho hi\n".utf8),
      ],
      modes: ["bin/tool.sh": 0o755, "pages/b.txt": 0o600], emptyFolders: ["empty/inner"],
      links: ["pages/latest": "a.txt"])
  }

  @Test func aCentralDirectoryPastItsMemoryLimitIsSpilledAndReadWhole() async throws {
    try await withTemporaryDirectory("zip-spill") { folder in
      // Names of 230 bytes: about 290 bytes a record, so 29,000 pass the limit twice.
      let count = 29_000
      var files: [String: Data] = [:]
      let stem = String(repeating: "n", count: 220)
      for number in 0..<count {
        files["pages/\(stem)-\(10_000 + number).txt"] = Data("\(number)".utf8)
      }
      let tree = try PackTestTrees.make(folder.appendingPathComponent("Many.pkg"), files: files)
      let archive = folder.appendingPathComponent("many.zip")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(jobs: 1))
      let records = count * (46 + "Many.pkg/pages/".utf8.count + stem.utf8.count + 10)
      #expect(records > 2 * ZipArchiveOutput.centralDirectoryMemoryLimit)
      #expect(try runProcess("unzip", ["-tq", archive.path]).status == 0)
      let listing = try runProcess("python3", ["-m", "zipfile", "-l", archive.path])
      #expect(listing.status == 0)
      #expect(listing.outputText.split(separator: "\n").count == 1 + count + 2)
      let out = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      #expect(try runProcess("bsdtar", ["-xf", archive.path, "-C", out.path]).status == 0)
      let got = try TreeManifest(of: out.appendingPathComponent("Many.pkg"))
      #expect(got.differences(from: try TreeManifest(of: tree)) == [])
    }
  }

  @Test func everyPeerTestsAndExtractsTheSameBytes() async throws {
    try await withTemporaryDirectory("zip-peers") { folder in
      let tree = try Self.makeTree(in: folder)
      let archive = folder.appendingPathComponent("m.zip")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(jobs: 2))
      #expect(try runProcess("unzip", ["-tq", archive.path]).status == 0)
      #expect(try runProcess("python3", ["-m", "zipfile", "-t", archive.path]).status == 0)
      #expect(try runProcess("bsdtar", ["-tf", archive.path]).status == 0)
      let sevenZip = try runProcess("7z", ["t", archive.path])
      #expect(sevenZip.status == 0, "7z t: \(sevenZip.outputText)")

      let expected = try TreeManifest(of: tree)
      // unzip and bsdtar restore modes, times and links: the whole tree must match.
      for (tool, arguments) in [
        ("unzip", ["-q", archive.path, "-d"]), ("bsdtar", ["-xf", archive.path, "-C"]),
      ] {
        let out = folder.appendingPathComponent("out-\(tool)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try runProcess(tool, arguments + [out.path])
        #expect(result.status == 0, "\(tool): \(result.errorText)")
        var got = try TreeManifest(of: out.appendingPathComponent("Mixed.pkg"))
        var want = expected
        if tool == "unzip" {
          // unzip sets no time on the links it makes.
          for (path, entry) in want.entries where entry.kind == "symlink" {
            want.entries[path]?.modificationTime = 0
            got.entries[path]?.modificationTime = 0
          }
        }
        #expect(got.differences(from: want) == [], "\(tool)")
      }
      // 7-Zip and Python: the same files, links and bytes.
      let sevenOut = folder.appendingPathComponent("out-7z")
      #expect(try runProcess("7z", ["x", "-o" + sevenOut.path, archive.path]).status == 0)
      let python = folder.appendingPathComponent("out-python")
      #expect(
        try runProcess("python3", ["-m", "zipfile", "-e", archive.path, python.path]).status == 0)
      for out in [sevenOut, python] {
        let got = try TreeManifest(of: out.appendingPathComponent("Mixed.pkg"))
        for (path, entry) in expected.entries where entry.kind == "file" {
          #expect(got.entries[path]?.contents == entry.contents, "\(out.lastPathComponent) \(path)")
        }
      }
      let sevenLink = try FileManager.default.destinationOfSymbolicLink(
        atPath: sevenOut.appendingPathComponent("Mixed.pkg/pages/latest").path)
      #expect(sevenLink == "a.txt")
    }
  }

  @Test func headersCarryTheRealSizesAndTheUnixFieldsPeersRead() async throws {
    try await withTemporaryDirectory("zip-headers") { folder in
      let tree = try Self.makeTree(in: folder)
      let archive = folder.appendingPathComponent("m.zip")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(jobs: 3))
      // No data descriptors (flag bit 3); local and central sizes and CRC agree; Unix host;
      // UTF-8 flag exactly on the non-ASCII name; modes in the external attributes.
      let script = #"""
        import struct, sys, zipfile, stat
        z = zipfile.ZipFile(sys.argv[1])
        raw = open(sys.argv[1], 'rb').read()
        for i in z.infolist():
            sig, ver, flags, method, t, d, crc, csize, size, n, m = struct.unpack(
                '<IHHHHHIIIHH', raw[i.header_offset:i.header_offset + 30])
            assert sig == 0x04034b50, i.filename
            assert flags & 8 == 0, ('data descriptor', i.filename)
            assert (crc, csize, size) == (i.CRC, i.compress_size, i.file_size), i.filename
            assert i.create_system == 3, i.filename
            ascii = all(ord(c) < 128 for c in i.filename)
            assert bool(flags & 0x800) == (not ascii), ('utf-8 flag', i.filename)
            assert bool(i.flag_bits & 0x800) == (not ascii), i.filename
            mode = i.external_attr >> 16
            print(oct(mode), i.compress_type, i.filename)
        """#
      let result = try runProcess("python3", ["-c", script, archive.path])
      #expect(result.status == 0, "\(result.errorText)")
      let lines = Set(result.outputText.split(separator: "\n").map(String.init))
      #expect(lines.contains("0o100755 0 Mixed.pkg/bin/tool.sh"))  // too small to gain: stored
      #expect(lines.contains("0o100600 8 Mixed.pkg/pages/b.txt"))
      #expect(
        lines.contains("0o120755 0 Mixed.pkg/pages/latest")
          || lines.contains("0o120777 0 Mixed.pkg/pages/latest"))
      #expect(lines.contains("0o40755 0 Mixed.pkg/empty/inner/"))
      #expect(lines.contains("0o100644 0 Mixed.pkg/media/noise.bin"))
      #expect(lines.contains("0o100644 0 Mixed.pkg/media/photo.jpg"))
      #expect(lines.contains("0o100644 8 Mixed.pkg/media/large.bin"))
      #expect(lines.contains("0o100644 0 Mixed.pkg/pages/empty.txt"))
    }
  }

  @Test func reproducibleArchivesAreTheSameBytesWhateverTheJobs() async throws {
    try await withTemporaryDirectory("zip-jobs") { folder in
      let tree = try Self.makeTree(in: folder)
      var archives: [Data] = []
      for jobs in [1, 2, 3, 8] {
        let archive = folder.appendingPathComponent("j\(jobs).zip")
        _ = try await Packer.pack(
          tree, to: archive, options: PackOptions(reproducible: true, jobs: jobs))
        archives.append(try Data(contentsOf: archive))
      }
      #expect(Set(archives).count == 1)
    }
  }

  @Test func theTimeZoneChangesNoByteAndTimesAreUTC() throws {
    let folder = try makeTemporaryDirectory("zip-tz")
    defer { removeTree(folder) }
    let tree = try Self.makeTree(in: folder)
    var archives: [Data] = []
    for zone in ["UTC", "America/Los_Angeles", "Asia/Kathmandu"] {
      let archive = folder.appendingPathComponent("tz-\(archives.count).zip")
      let result = try FolioBinary.run(
        ["pack", tree.path, "-o", archive.path, "--reproducible", "--quiet"],
        environment: ["TZ": zone])
      #expect(result.status == 0, "\(result.errorText)")
      archives.append(try Data(contentsOf: archive))
    }
    #expect(Set(archives).count == 1)
    // 1,700,000,000 is 2023-11-14 22:13:20 UTC: the MS-DOS fields say so (seconds halved).
    let script = """
      import sys, zipfile
      print(zipfile.ZipFile(sys.argv[1]).getinfo('Mixed.pkg/pages/a.txt').date_time)
      """
    let shown = try runProcess(
      "python3", ["-c", script, folder.appendingPathComponent("tz-0.zip").path])
    #expect(
      shown.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        == "(2023, 11, 14, 22, 13, 20)")
  }

  @Test func dosTimesAreUTCAndClampedToTheirRange() {
    let (time, date) = ZipEntryRecord.dosDateTime(1_700_000_000)
    #expect(date == UInt16(2023 - 1980) << 9 | 11 << 5 | 14)
    #expect(time == 22 << 11 | 13 << 5 | 10)
    #expect(ZipEntryRecord.dosDateTime(0).date == 1 << 5 | 1)  // 1980-01-01
    #expect(ZipEntryRecord.dosDateTime(Int64.max).date == UInt16(127) << 9 | 12 << 5 | 31)
  }

  /// The arithmetic gives `gmtime_r`'s date and time over the whole range: every day's
  /// first and last second, and an hour a day that moves through the clock.
  @Test func dosTimesAgreeWithGmtimeOverTheirRange() {
    func reference(_ seconds: Int64) -> (time: UInt16, date: UInt16) {
      var clock = time_t(seconds)
      var parts = tm()
      _ = gmtime_r(&clock, &parts)
      return (
        UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2),
        UInt16(parts.tm_year - 80) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
      )
    }
    var mismatches: [Int64] = []
    var day: Int64 = 315_532_800
    var index: Int64 = 0
    while day <= 4_354_819_198 {
      for seconds in [day, day + 86_399, day + (index * 3_607) % 86_400] {
        let (time, date) = ZipEntryRecord.dosDateTime(seconds)
        let expected = reference(min(seconds, 4_354_819_198))
        if time != expected.time || date != expected.date { mismatches.append(seconds) }
      }
      day += 86_400
      index += 1
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test func zip64FieldsAppearExactlyWhereSizesOrOffsetsOverflow() {
    var record = ZipEntryRecord(
      name: "big.bin", method: .stored, mode: 0o100644,
      modificationTime: 1_700_000_000)
    record.size = 5 << 30
    record.compressedSize = 5 << 30
    record.localHeaderOffset = 7
    record.localUsesZip64 = true
    let local = record.localHeader
    // Version 4.5, sizes 0xFFFFFFFF, and a ZIP64 field of 16 bytes (size, then compressed size).
    #expect(local[4] == 45)
    #expect(Array(local[18..<26]) == [UInt8](repeating: 0xFF, count: 8))
    #expect(Self.extraFields(local, nameLength: 7, at: 26).map(\.tag) == [0x5455, 0x0001])
    #expect(Self.extraFields(local, nameLength: 7, at: 26).last?.length == 16)
    // The central record: both sizes there too, the small offset not.
    let central = record.centralHeader
    #expect(Self.extraFields(central, nameLength: 7, at: 28).last?.length == 16)
    #expect(Array(central[42..<46]) == [7, 0, 0, 0])

    var small = record
    small.size = 10
    small.compressedSize = 10
    small.localUsesZip64 = false
    small.localHeaderOffset = 6 << 30
    #expect(small.localHeader[4] == 10)
    #expect(Self.extraFields(small.localHeader, nameLength: 7, at: 26).map(\.tag) == [0x5455])
    // Only the offset overflows: an 8-byte ZIP64 field in the central record.
    #expect(Self.extraFields(small.centralHeader, nameLength: 7, at: 28).last?.length == 8)
    #expect(Array(small.centralHeader[42..<46]) == [0xFF, 0xFF, 0xFF, 0xFF])
  }

  /// The (tag, length) of each extra field of a header whose name length sits at `offset`.
  static func extraFields(_ header: [UInt8], nameLength: Int, at offset: Int) -> [(
    tag: Int, length: Int
  )] {
    let extraLength = Int(header[offset + 2]) | Int(header[offset + 3]) << 8
    let fixed = offset == 26 ? 30 : 46
    var position = fixed + nameLength
    var fields: [(Int, Int)] = []
    while position + 4 <= fixed + nameLength + extraLength {
      let tag = Int(header[position]) | Int(header[position + 1]) << 8
      let length = Int(header[position + 2]) | Int(header[position + 3]) << 8
      fields.append((tag, length))
      position += 4 + length
    }
    return fields
  }
}
