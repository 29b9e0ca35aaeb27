import FolioTestSupport
import Foundation
import Packaging
import Testing

/// Builds an archive with a Python script (`OUT` in it names the archive), then expands it
/// with Folio and with `bsdtar -x`, and reports every difference between the two trees.
///
/// - Parameters:
///   - script: Python code writing the archive to `OUT`.
///   - folder: The test's own temporary folder.
///   - label: What the archive is, for messages.
///   - policy: Folio's expansion policy (the top folder is always kept, as bsdtar keeps it).
/// - Returns: What Folio's expansion did.
/// - Throws: When Python fails to run, or Folio refuses the archive.
@discardableResult
func expectExpandsAsBsdtar(
  python script: String, in folder: URL, _ label: String,
  policy: ExpansionPolicy = ExpansionPolicy(keepsTopFolder: true),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> ExpansionResult {
  let archive = folder.appendingPathComponent("archive.zip")
  let made = try runProcess(
    "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)], in: folder)
  try #require(made.status == 0, "\(label): \(made.errorText)", sourceLocation: sourceLocation)
  let theirs = folder.appendingPathComponent("theirs")
  try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
  let extracted = try runProcess("bsdtar", ["-xpf", archive.path, "-C", theirs.path])
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
