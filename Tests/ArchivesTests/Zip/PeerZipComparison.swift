import Archives
import FolioTestSupport
import Foundation
import Testing

/// Builds an archive with a Python script (`OUT` in it names the archive), then expands it
/// with Folio and with `bsdtar -x`, and reports every difference between the two trees.
///
/// - Parameters:
///   - script: Python code writing the archive to `OUT`.
///   - folder: The test's own temporary folder.
///   - label: What the archive is, for messages.
///   - policy: Folio's expansion policy (the top folder is always kept, as bsdtar keeps it).
///   - hdrcharset: The names' encoding, for bsdtar (`CP437`), which then writes them in
///     UTF-8 as Folio does.
/// - Returns: What Folio's expansion did.
/// - Throws: When Python fails to run, or Folio refuses the archive.
@discardableResult
func expectExpandsAsBsdtar(
  python script: String, in folder: URL, _ label: String,
  policy: ExpansionPolicy = ExpansionPolicy(keepsTopFolder: true), hdrcharset: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> ExpansionResult {
  let archive = folder.appendingPathComponent("archive.zip")
  let made = try runProcess(
    "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)], in: folder)
  try #require(made.status == 0, "\(label): \(made.errorText)", sourceLocation: sourceLocation)
  let theirs = folder.appendingPathComponent("theirs")
  try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
  // bsdtar turns the names into the locale's encoding: a UTF-8 one, as Folio writes.
  let options = hdrcharset.map { ["--options", "hdrcharset=\($0)"] } ?? []
  let extracted = try runProcess(
    "bsdtar", options + ["-xpf", archive.path, "-C", theirs.path],
    environment: ["LC_ALL": "C.UTF-8"])
  #expect(extracted.status == 0, "\(label): \(extracted.errorText)", sourceLocation: sourceLocation)
  let ours = folder.appendingPathComponent("ours")
  var policy = policy
  policy.keepsTopFolder = true
  let result = try Expander.expandSynchronously(archive, into: ours, policy: policy)
  var expected = treeSnapshot(theirs)
  var actual = treeSnapshot(ours)
  expected["."] = nil
  actual["."] = nil
  // Folio never restores group or other write (ExpansionPolicy.permissions).
  for key in expected.keys { expected[key]?.mode &= 0o755 }
  expectSameTree(expected, actual, label, sourceLocation: sourceLocation)
  #expect(!actual.isEmpty, "\(label): nothing was expanded", sourceLocation: sourceLocation)
  return result
}

/// Python helpers for scripts that write a zip and then change its bytes as other tools
/// wrote them: `central(path, name, offset, fmt, value)` and `local(...)` overwrite a field
/// (`offset` from the record's signature, `fmt` a `struct` format) of the named entry's
/// central-directory record or local header.
let pythonZipPatching = """
  import struct, zipfile
  def records(data):
      end = data.rfind(b'PK\\x05\\x06')
      at = struct.unpack_from('<I', data, end + 16)[0]
      while data[at:at + 4] == b'PK\\x01\\x02':
          n, e, c = struct.unpack_from('<HHH', data, at + 28)
          local = struct.unpack_from('<I', data, at + 42)[0]
          yield at, local, bytes(data[at + 46:at + 46 + n])
          at += 46 + n + e + c
  def patch(path, name, offset, fmt, value, in_local):
      data = bytearray(open(path, 'rb').read())
      for at, local, stored in records(data):
          if stored == name.encode():
              struct.pack_into(fmt, data, (local if in_local else at) + offset, value)
      open(path, 'wb').write(data)
  def central(path, name, offset, fmt, value):
      patch(path, name, offset, fmt, value, False)
  def local(path, name, offset, fmt, value):
      patch(path, name, offset, fmt, value, True)

  """
