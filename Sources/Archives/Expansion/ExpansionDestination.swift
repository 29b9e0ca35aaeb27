import FolioSystem
import FoundationEssentials
import Glibc

/// Where an expansion writes, settled before a byte of the archive is read.
///
/// - An existing destination that is a symbolic link (`Current -> Versions/2`) is
///   resolved once, explicitly: the folder it points at is replaced or updated, the
///   link itself stays, and the result names both. Nothing inside the destination is
///   ever followed (see ``StagingFolder/adoptUnchangedFiles(source:top:)``).
/// - The archive is never the destination: replacing or updating refuses a destination
///   that *is* the archive (`expand self.tar -o self.tar --force`) or holds it at any
///   depth, compared by device and inode, so no spelling, link or mount slips by.
struct ExpansionDestination {
  /// The destination as given (standardised).
  let given: URL
  /// The folder that is written: `given`, or where it points when it is a symbolic link.
  let folder: URL
  /// Whether something is already there.
  let exists: Bool

  /// The symbolic link the destination was given as, when it was one.
  var link: URL? { folder == given ? nil : given }

  /// Settles the destination of an expansion.
  ///
  /// - Parameters:
  ///   - destination: The destination as given.
  ///   - replacePolicy: What to do when it exists.
  ///   - input: The archive, to keep it out of what is replaced.
  /// - Returns: The settled destination.
  /// - Throws: ``PackagingError``: `output-exists`, `archive-inside-destination`,
  ///   `destination-write-failed` (no parent folder, a dangling link).
  static func settle(_ destination: URL, replacePolicy: ReplacePolicy, input: ArchiveInput) throws
    -> Self
  {
    let given = destination.standardizedFileURL
    let exists = try PackagingError.check(replacePolicy, outputAt: given.path, updatable: true)
    var folder = given
    var info = stat()
    if exists && lstat(given.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(given.path, nil) else {
        throw PackagingError(
          .destinationWriteFailed,
          "'\(given.path)' is a symbolic link to nothing that exists",
          cause: SystemError(errno: errno))
      }
      folder = URL(fileURLWithPath: String(cString: resolved))
      free(resolved)
    }
    var parentInfo = stat()
    let parent = folder.deletingLastPathComponent().path
    guard stat(parent, &parentInfo) == 0, parentInfo.st_mode & S_IFMT == S_IFDIR else {
      throw PackagingError(.destinationWriteFailed, "the folder '\(parent)' does not exist")
    }
    if exists, case .file(let archive) = input {
      try refuseArchive(archive, inside: folder)
    }
    return ExpansionDestination(given: given, folder: folder, exists: exists)
  }

  /// Refuses a destination that is the archive, or any folder holding it.
  private static func refuseArchive(_ archive: URL, inside folder: URL) throws {
    var archiveInfo = stat()
    var folderInfo = stat()
    guard stat(archive.path, &archiveInfo) == 0, lstat(folder.path, &folderInfo) == 0 else {
      return
    }
    func same(_ info: stat) -> Bool {
      info.st_dev == folderInfo.st_dev && info.st_ino == folderInfo.st_ino
    }
    if same(archiveInfo) {
      throw PackagingError(
        .archiveInsideDestination,
        "'\(archive.path)' is the destination itself: expanding would replace the archive being read"
      )
    }
    guard folderInfo.st_mode & S_IFMT == S_IFDIR, let real = realpath(archive.path, nil) else {
      return
    }
    var ancestor = URL(fileURLWithPath: String(cString: real)).deletingLastPathComponent()
    free(real)
    while true {
      var info = stat()
      if stat(ancestor.path, &info) == 0, same(info) {
        throw PackagingError(
          .archiveInsideDestination,
          "'\(archive.path)' is inside '\(folder.path)', which expanding would replace")
      }
      if ancestor.path == "/" { return }
      ancestor.deleteLastPathComponent()
    }
  }
}
