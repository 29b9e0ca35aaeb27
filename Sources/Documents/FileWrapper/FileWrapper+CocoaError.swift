import Archives
import FolioSystem

#if !canImport(Darwin)
  import FoundationEssentials
  import Glibc

  extension FileWrapper {
    /// The user-info keys Apple's Cocoa errors carry (FoundationEssentials spells the
    /// values, not the constants: `NSFilePathErrorKey`, `NSURLErrorKey`,
    /// `NSUnderlyingErrorKey`, `NSLocalizedDescriptionKey`).
    private enum CocoaKey {
      static let filePath = "NSFilePath"
      static let url = "NSURL"
      static let underlying = "NSUnderlyingError"
      static let description = "NSLocalizedDescription"
    }

    /// Runs a read and throws what Apple's `FileWrapper` throws when it fails: a
    /// `CocoaError` (`fileReadNoSuchFile`, `fileReadNoPermission`, `fileReadUnknown`) with
    /// the URL and path, and Folio's error, naming the item, as its underlying error.
    ///
    /// - Parameters:
    ///   - url: The item read.
    ///   - body: The read.
    /// - Throws: The Cocoa error for a ``PackagingError``; anything else as thrown.
    static func throwingCocoaErrors<T>(reading url: URL, _ body: () throws -> T) throws -> T {
      do {
        return try body()
      } catch let error as PackagingError {
        throw cocoaError(for: error, url: url, writing: false)
      }
    }

    /// Runs a write and throws what Apple's `FileWrapper` throws when it fails
    /// (`fileWriteFileExists`, `fileWriteNoPermission`, `fileWriteOutOfSpace`,
    /// `fileWriteVolumeReadOnly`, `fileNoSuchFile` for a missing folder,
    /// `fileWriteUnknown`), with Folio's error as the underlying error.
    ///
    /// - Parameters:
    ///   - url: The destination.
    ///   - body: The write.
    /// - Throws: The Cocoa error for a ``PackagingError``; anything else as thrown.
    static func throwingCocoaErrors(writing url: URL, _ body: () throws -> Void) throws {
      do {
        try body()
      } catch let error as PackagingError {
        throw cocoaError(for: error, url: url, writing: true)
      }
    }

    /// The Cocoa error for a failed read or write, by the failure's errno or code.
    static func cocoaError(for error: PackagingError, url: URL, writing: Bool) -> CocoaError {
      let number = errorNumber(of: error)
      let name = url.lastPathComponent
      let folder = url.deletingLastPathComponent().lastPathComponent
      let code: CocoaError.Code
      let text: String
      switch (writing, error.code, number) {
      case (false, .fileVanished, _), (false, _, ENOENT), (false, _, ENOTDIR):
        code = .fileReadNoSuchFile
        text = "The file “\(name)” couldn’t be opened because there is no such file."
      case (false, _, EACCES), (false, _, EPERM):
        code = .fileReadNoPermission
        text = "The file “\(name)” couldn’t be opened because you don’t have permission to view it."
      case (false, _, _):
        code = .fileReadUnknown
        text = "The file “\(name)” couldn’t be opened."
      case (true, .fileExists, _), (true, _, EEXIST):
        code = .fileWriteFileExists
        text =
          "The file “\(name)” couldn’t be saved in the folder “\(folder)” because a file with the same name already exists."
      case (true, _, EACCES), (true, _, EPERM):
        code = .fileWriteNoPermission
        text = "You don’t have permission to save the file “\(name)” in the folder “\(folder)”."
      case (true, _, ENOSPC), (true, _, EDQUOT):
        code = .fileWriteOutOfSpace
        text = "The file “\(name)” couldn’t be saved because there isn’t enough space."
      case (true, _, EROFS):
        code = .fileWriteVolumeReadOnly
        text = "The file “\(name)” couldn’t be saved because the volume is read only."
      case (true, _, ENOENT), (true, _, ENOTDIR):
        code = .fileNoSuchFile
        text = "The folder “\(folder)” doesn’t exist."
      case (true, _, _):
        code = .fileWriteUnknown
        text = "The file “\(name)” couldn’t be saved."
      }
      return CocoaError(
        code,
        userInfo: [
          CocoaKey.filePath: url.path, CocoaKey.url: url, CocoaKey.underlying: error,
          CocoaKey.description: text,
        ])
    }

    /// The errno under a Folio error, if a system call failed.
    private static func errorNumber(of error: PackagingError) -> Int32? {
      switch error.rootCause {
      case let cause as POSIXError: cause.code.rawValue
      case let cause as SystemError: cause.errno
      default: nil
      }
    }
  }
#endif
