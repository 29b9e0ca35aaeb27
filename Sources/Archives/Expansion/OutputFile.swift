import FolioSystem
import FoundationEssentials
import Glibc

/// A regular file being written by an expansion, through its own descriptor.
final class OutputFile {
  /// The file below the staging root.
  let path: RelativePath
  private var descriptor: Int32
  private unowned let staging: StagingFolder
  /// The logical size so far (the end of the furthest write or hole).
  private(set) var size: Int64 = 0
  private var position: Int64 = 0
  /// The bytes written (holes not counted).
  private var written: Int64 = 0
  /// When the expansion is durable, what starts the disk writing of a large file
  /// while it is still being written, so its flush at the end has little left to wait for.
  private var writeBehind: WriteBehind?

  init(descriptor: Int32, path: RelativePath, staging: StagingFolder) {
    self.descriptor = descriptor
    self.path = path
    self.staging = staging
    if staging.flusher != nil { writeBehind = WriteBehind(descriptor: descriptor) }
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Writes bytes at `offset` (past the current end leaves a hole, as sparse tar entries do).
  ///
  /// - Parameters:
  ///   - bytes: The data.
  ///   - offset: Where in the file it goes.
  /// - Throws: ``PackagingError`` naming the file.
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
    if offset != position {
      guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw failure("cannot seek in") }
      position = offset
      writeBehind?.moved(to: offset)
    }
    let code = SystemCall.writeAll(descriptor, bytes)
    if code != 0 { throw failure("cannot write", errno: code) }
    position += Int64(bytes.count)
    written += Int64(bytes.count)
    writeBehind?.wrote(bytes.count)
    size = max(size, position)
  }

  /// Extends the file to `length` with a hole (a sparse entry's trailing hole).
  ///
  /// - Parameter length: The logical length, already counted against the budget.
  /// - Throws: ``PackagingError`` naming the file.
  func extend(to length: Int64) throws {
    guard length > size else { return }
    guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure("cannot extend") }
    size = length
  }

  /// Sets the final mode and time and closes the file.
  ///
  /// - Parameters:
  ///   - permissions: The permission bits.
  ///   - time: The modification time, if stored.
  /// - Throws: ``PackagingError`` naming the file.
  ///   - attributes: The extended attributes to set (before the mode, which may take
  ///     away the write permission `user.*` attributes need; ACLs after it).
  func finish(
    permissions: UInt32, time: StagingFolder.Time?, attributes: [ExtendedAttribute] = []
  ) throws {
    var handedOver = false
    defer {
      if !handedOver { close(descriptor) }
      descriptor = -1
    }
    let acls =
      attributes.isEmpty
      ? [] : staging.setUserAttributes(attributes, descriptor: descriptor, path: path)
    guard fchmod(descriptor, mode_t(permissions)) == 0 else {
      throw failure("cannot set the mode of")
    }
    if !acls.isEmpty { staging.setACLs(acls, descriptor: descriptor, path: path) }
    if let time {
      var times = [StagingFolder.timespecOf(time), StagingFolder.timespecOf(time)]
      guard futimens(descriptor, &times) == 0 else { throw failure("cannot set the time of") }
    }
    staging.recordFile(path, size: size, written: written)
    if let flusher = staging.flusher {
      flusher.fileWritten(
        descriptor, name: EntryName(path.string).display,
        reopenable: permissions & UInt32(S_IRUSR) != 0)
      handedOver = true
    }
  }

  private func failure(_ action: String, errno code: Int32 = errno) -> PackagingError {
    PackagingError(
      .destinationWriteFailed, "\(action) '\(path.string)'", cause: SystemError(errno: code))
  }
}
