import FolioTestSupport
import Foundation

/// Checks archives with a peer that is not Folio: `bsdtar` extracts them, then the tree is
/// compared with the package they were made from.
enum ArchiveOracle {
  /// Differences between what `bsdtar` extracts from an archive and a package, empty when
  /// the archive holds the package entry for entry under its own name.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - package: The package folder it should hold.
  ///   - topFolder: The folder name inside the archive (default: the package's name).
  /// - Returns: Problems, empty when equal.
  /// - Throws: When a scratch folder cannot be made.
  static func differences(
    archive: URL, package: URL, topFolder: String? = nil
  ) throws -> [String] {
    let scratch = try makeTemporaryDirectory("oracle")
    defer { removeTree(scratch) }
    let result = try runProcess("bsdtar", ["-xpf", archive.path, "-C", scratch.path])
    guard result.status == 0 else {
      return ["bsdtar cannot extract \(archive.lastPathComponent): \(result.errorText)"]
    }
    let extracted = scratch.appendingPathComponent(topFolder ?? package.lastPathComponent)
    return TreeSnapshot.take(extracted).contentDifferences(from: TreeSnapshot.take(package))
      .map { "\(archive.lastPathComponent): \($0) differs" }
  }

  /// Makes an archive of a package with `bsdtar` (so expansion tests do not depend on
  /// Folio's own packer).
  ///
  /// - Parameters:
  ///   - package: The package folder.
  ///   - archive: The archive to write; its extension picks the format.
  /// - Throws: When `bsdtar` fails.
  static func make(_ archive: URL, of package: URL) throws {
    let format: [String] =
      archive.pathExtension == "zip" ? ["--format", "zip"] : ["-a"]
    let result = try runProcess(
      "bsdtar",
      ["-c"] + format + [
        "-f", archive.path, "-C", package.deletingLastPathComponent().path,
        package.lastPathComponent,
      ])
    guard result.status == 0 else {
      throw ShimFailure("bsdtar cannot make \(archive.path): \(result.errorText)")
    }
  }
}
