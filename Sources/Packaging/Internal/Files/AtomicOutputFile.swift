import FolioSystem
import Foundation

/// A file written under a temporary name beside its destination and moved
/// into place only when complete.
///
/// The temporary is named `.<name>.folio-tmp-<pid>-<random>` so a leftover is
/// recognisable. ``commit()`` flushes it to disk (`fsync`), renames it over the
/// destination and flushes the directory; ``discard()`` (also run by `deinit`
/// when neither was called) removes it, leaving any existing destination as it
/// was.
/// Creating one first removes the leftovers of killed runs for the same
/// destination (see ``LeftoverTemporaries``).
final class AtomicOutputFile {
  /// Where the finished file goes.
  let destination: URL
  /// The temporary file's path.
  let temporaryPath: String
  /// The temporary file's open descriptor, for writing.
  let descriptor: Int32
  private var finished = false

  /// The marker every Folio temporary carries in its name.
  static let temporaryMarker = ".folio-tmp-"

  /// Creates the temporary file beside a destination.
  ///
  /// - Parameter destination: The final path; its folder must exist.
  /// - Throws: ``PackagingError`` when the destination is a folder or the
  ///   temporary cannot be created.
  init(destination: URL) throws {
    let path = destination.path
    var info = stat()
    if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      throw PackagingError(.fileSystem, "cannot write archive '\(path)': it is a folder")
    }
    LeftoverTemporaries.remove(beside: destination, marker: Self.temporaryMarker)
    let folder = destination.deletingLastPathComponent().path
    let name = destination.lastPathComponent
    var created: (String, Int32)?
    for _ in 0..<16 {
      let random = String(UInt32.random(in: .min ... .max), radix: 16)
      let candidate = folder + "/." + name + Self.temporaryMarker + "\(getpid())-" + random
      let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      if descriptor >= 0 {
        created = (candidate, descriptor)
        break
      }
      if errno != EEXIST {
        throw PackagingError.system("cannot create a temporary file beside '\(path)'", errno: errno)
      }
    }
    guard let created else {
      throw PackagingError(.fileSystem, "cannot create a temporary file beside '\(path)'")
    }
    self.destination = destination
    (temporaryPath, descriptor) = created
  }

  deinit {
    if !finished { discard() }
  }

  /// Flushes the temporary, renames it over the destination, and flushes the folder.
  ///
  /// - Throws: ``PackagingError`` when a step fails; the temporary is removed then.
  func commit() throws {
    guard !finished else { return }
    if SystemCall.retryingInterrupts({ fsync(descriptor) }) != 0 {
      let code = errno
      discard()
      throw PackagingError.system("cannot flush '\(destination.path)' to disk", errno: code)
    }
    finished = true
    close(descriptor)
    if rename(temporaryPath, destination.path) != 0 {
      let code = errno
      unlink(temporaryPath)
      throw PackagingError.system(
        "cannot move the archive into place at '\(destination.path)'", errno: code)
    }
    let folder = open(
      destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      _ = SystemCall.retryingInterrupts { fsync(folder) }
      close(folder)
    }
  }

  /// Closes and removes the temporary; the destination is left as it was.
  func discard() {
    guard !finished else { return }
    finished = true
    close(descriptor)
    unlink(temporaryPath)
  }
}
