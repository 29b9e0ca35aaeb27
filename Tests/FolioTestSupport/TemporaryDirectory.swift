import FolioSystem
public import Foundation

/// A fresh folder for one test, removed when the body returns or throws.
///
/// - Parameters:
///   - name: A word naming the test, to recognise leftovers.
///   - body: The work, given the folder's URL.
/// - Returns: Whatever the body returns.
/// - Throws: Whatever the body throws.
public func withTemporaryDirectory<T>(
  _ name: String = "test", _ body: (URL) async throws -> T
) async throws -> T {
  let url = try makeTemporaryDirectory(name)
  defer { removeTree(url) }
  return try await body(url)
}

/// Creates a fresh folder under the system's temporary directory.
///
/// - Parameter name: A word naming the test.
/// - Returns: The folder's URL.
/// - Throws: When the folder cannot be created.
public func makeTemporaryDirectory(_ name: String = "test") throws -> URL {
  let base = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
    .appendingPathComponent("folio-tests", isDirectory: true)
  let url = base.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url.resolvingSymlinksInPath()
}

/// Removes a tree even where a test took away write or search permission
/// (FolioSystem's ``FileTree/remove(atPath:)``, the library's own).
///
/// - Parameter url: The tree's root.
public func removeTree(_ url: URL) {
  FileTree.remove(atPath: url.path)
}

/// A synchronous variant of `withTemporaryDirectory` for tests that need no `await`.
public func withTemporaryDirectoryBlocking(_ body: (URL) throws -> Void) throws {
  let url = try makeTemporaryDirectory("export")
  defer { removeTree(url) }
  try body(url)
}
