import FolioSystem
public import Foundation
import Packaging

/// A package (a folder handled as one document) as a tree of ``PackageNode``s.
///
/// Reading a tree walks the folder once and records every item's name, kind,
/// size, permissions and modification date; no file's bytes are read until a
/// node is asked for them. Symbolic links are recorded, never followed.
public struct PackageTree: Sendable {
  /// The folder the tree was read from.
  public var url: URL
  /// The folder's own node; its children are the package's top level.
  public var root: PackageNode

  /// Reads a folder's structure.
  ///
  /// - Parameters:
  ///   - url: The package folder.
  ///   - displayName: How messages name the folder (defaults to its path).
  /// - Throws: ``ExportError`` `read-failed` when the folder or one of its subfolders
  ///   cannot be listed, or when `url` is not a folder.
  public init(reading url: URL, displayName: String? = nil) throws {
    self.url = url
    let display = displayName ?? url.path
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      throw ExportError(
        .readFailed, "cannot read '\(display)'", cause: POSIXErrorDescription(errno))
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw ExportError(.invalidInput, "'\(display)' is not a folder")
    }
    root = try Self.readNode(at: url, display: display, info: info)
  }

  /// The number of regular files in the tree.
  public var fileCount: Int { root.regularFiles.count }

  /// The total size of the tree's regular files in bytes.
  public var byteCount: Int64 { root.regularFiles.reduce(0) { $0 + ($1.node.byteCount ?? 0) } }

  private static func readNode(at url: URL, display: String, info: stat) throws -> PackageNode {
    let permissions = UInt16(info.st_mode & 0o7777)
    let modified = Date(
      timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec)
        / 1e9)
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      let names: [String]
      do {
        names = try FolderListing.names(atPath: url.path)
      } catch {
        throw ExportError(.readFailed, "cannot list '\(display)'", cause: error)
      }
      var children: [String: PackageNode] = [:]
      for name in names {
        let childURL = url.appendingPathComponent(name)
        var childInfo = stat()
        guard lstat(childURL.path, &childInfo) == 0 else {
          if errno == ENOENT { continue }  // Removed while listing: not part of the snapshot.
          throw ExportError(
            .readFailed, "cannot read '\(display)/\(name)'", cause: POSIXErrorDescription(errno))
        }
        children[name] = try readNode(at: childURL, display: display + "/" + name, info: childInfo)
      }
      return PackageNode(
        storage: .directory(children), displayPath: display, permissions: permissions,
        modificationDate: modified)
    case S_IFLNK:
      let destination: String
      do {
        destination = try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
      } catch {
        throw ExportError(.readFailed, "cannot read the link '\(display)'", cause: error)
      }
      return PackageNode(
        storage: .symbolicLink(destination), displayPath: display, permissions: permissions,
        modificationDate: modified)
    case S_IFREG:
      return PackageNode(
        storage: .disk(url, size: Int64(info.st_size)), displayPath: display,
        permissions: permissions, modificationDate: modified)
    default:
      throw ExportError(
        .invalidInput, "'\(display)' is a device, socket or pipe, which a package cannot hold")
    }
  }
}
