import Archives
import FolioTestSupport
import Foundation
import Testing

/// Formats libarchive reads for Folio, expanded to the tree `bsdtar -x` gives: entries whose
/// data must never be asked for, zisofs files whose last blocks are zeros, RPM packages.
@Suite struct LibArchiveSourceTests {
  /// Runs a Python script (`OUT` names the archive it writes, in `folder`), then expands the
  /// archive with bsdtar and with Folio and compares the trees.
  @discardableResult
  static func expectExpandsAsBsdtar(
    python script: String, in folder: URL, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ExpansionResult {
    let archive = folder.appendingPathComponent("archive")
    let made = try runProcess(
      "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)], in: folder)
    try #require(made.status == 0, "\(label): \(made.errorText)", sourceLocation: sourceLocation)
    let theirs = folder.appendingPathComponent("theirs")
    try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
    let extracted = try runProcess(
      "bsdtar", ["-xpf", archive.path, "-C", theirs.path], environment: ["LC_ALL": "C.UTF-8"])
    #expect(
      extracted.status == 0, "\(label): \(extracted.errorText)", sourceLocation: sourceLocation)
    let ours = folder.appendingPathComponent("ours")
    let result = try Expander.expandSynchronously(
      archive, into: ours, policy: ExpansionPolicy(keepsTopFolder: true))
    var expected = treeSnapshot(theirs)
    var actual = treeSnapshot(ours)
    expected["."] = nil
    actual["."] = nil
    for key in expected.keys { expected[key]?.mode &= 0o755 }
    expectSameTree(expected, actual, label, sourceLocation: sourceLocation)
    #expect(!actual.isEmpty, "\(label): nothing was expanded", sourceLocation: sourceLocation)
    return result
  }

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// libarchive's own RAR 5 test archive: a folder, and a link RAR 5 marks as a folder,
  /// beside a file and its links (see Fixtures/rar5/SOURCES.md).
  @Test func rar5FoldersAreCreatedWithoutReadingTheirData() async throws {
    try await withTemporaryDirectory("rar5-folders") { folder in
      let encoded = Self.fixtures.appendingPathComponent(
        "rar5/test_read_format_rar5_unicode.rar.uu")
      let script = """
        import binascii
        out = b''
        for line in open('\(encoded.path)').read().splitlines()[1:]:
            if line in ('end', '`', ''):
                continue
            out += binascii.a2b_uu(line)
        open('OUT', 'wb').write(out)
        """
      let result = try Self.expectExpandsAsBsdtar(python: script, in: folder, "rar5")
      #expect(result.directoryCount == 1)
      #expect(result.fileCount == 1)
    }
  }

  /// Files in zisofs form as mkzftree writes them (an all-zero block stored as nothing, an
  /// empty file as a header and one pointer), put on an ISO by `genisoimage -z`.
  @Test(.enabled(if: programExists("genisoimage"), "needs genisoimage (scripts/bootstrap.sh)"))
  func zisofsFilesEndingInZeroBlocksExpandWhole() async throws {
    try await withTemporaryDirectory("zisofs") { folder in
      let script = """
        import os, struct, subprocess, zlib
        files = {
            'tail-zeros.bin': b'data' * 20000 + bytes(32768 * 3),
            'middle-zeros.bin': b'data' * 10000 + bytes(32768 * 3) + b'end' * 1000,
            'all-zeros.bin': bytes(32768 * 2 + 100),
            'text.txt': b'compressible line\\n' * 10000,
            'empty.txt': b'',
        }
        os.makedirs('tree/sub', exist_ok=True)
        for name, data in files.items():
            blocks = [data[i:i + 32768] for i in range(0, len(data), 32768)]
            head = bytes.fromhex('37E45396C9DBD607') + struct.pack('<IBBBB', len(data), 4, 15, 0, 0)
            pointers, body = [16 + 4 * (len(blocks) + 1)], b''
            for block in blocks:
                packed = b'' if block.count(0) == len(block) else zlib.compress(block, 9)
                body += packed
                pointers.append(pointers[-1] + len(packed))
            table = b''.join(struct.pack('<I', p) for p in pointers)
            open(os.path.join('tree/sub', name), 'wb').write(head + table + body)
        subprocess.run(['genisoimage', '-quiet', '-R', '-z', '-o', 'OUT', 'tree'], check=True)
        """
      let result = try Self.expectExpandsAsBsdtar(python: script, in: folder, "zisofs")
      #expect(result.fileCount == 5)
      let tail = try Data(contentsOf: folder.appendingPathComponent("ours/sub/tail-zeros.bin"))
      #expect(tail.count == 80000 + 32768 * 3)
    }
  }

  /// A package as rpmbuild lays it out (lead, signature header padded to 8 bytes, header,
  /// then a gzipped newc cpio), expanded as bsdtar expands it.
  @Test func rpmPayloadsExpand() async throws {
    try await withTemporaryDirectory("rpm") { folder in
      let script = """
        import gzip, os, struct, subprocess
        os.makedirs('tree/usr/share/doc/demo', exist_ok=True)
        open('tree/usr/share/doc/demo/README', 'w').write('rpm payload')
        cpio = subprocess.run(['bsdtar', '--format', 'newc', '-cf', '-', '-C', 'tree', 'usr'],
                              check=True, capture_output=True).stdout
        lead = struct.pack('>4sBBhh66shh16s', bytes.fromhex('EDABEEDB'), 3, 0, 0, 1,
                           b'demo-1.0-1', 1, 5, bytes(16))
        def header(entries, pad):
            index, store = b'', b''
            for tag, kind, data in entries:
                index += struct.pack('>iiii', tag, kind, len(store), 1)
                store += data
            h = bytes.fromhex('8EADE80100000000') + struct.pack('>ii', len(entries), len(store))
            h += index + store
            return h + bytes((8 - len(h) % 8) % 8 if pad else 0)
        signature = header([(1000, 4, struct.pack('>i', 0))], True)
        main = header([(1000, 6, b'demo\\0'), (1125, 6, b'gzip\\0'), (1124, 6, b'cpio\\0')], False)
        open('OUT', 'wb').write(lead + signature + main + gzip.compress(cpio))
        """
      let result = try Self.expectExpandsAsBsdtar(python: script, in: folder, "rpm")
      #expect(result.fileCount == 1)
    }
  }
}
