import FolioSystem
import FoundationEssentials
import Glibc

/// A folder's names, each kept as its bytes followed by a NUL in one shared buffer, in the
/// order of their UTF-8 bytes when asked.
///
/// A pack walks every folder twice. As an array of `String`s, a large folder's names would
/// cost three allocations a name each walk (the listing's copy, the string, the array's
/// growth), and sorting would compare them through `String`'s Unicode-aware comparison. Here a name costs its bytes and nine, the names are sorted by
/// `strcmp` (which orders NUL-terminated bytes as unsigned, the shorter prefix first: the
/// same order as comparing the UTF-8 bytes), and each name is handed to `fstatat`,
/// `openat` and `readlinkat` where it lies.
///
/// The names live in storage of the object's own and are read by index (``count``,
/// ``subscript(_:)``): the walk keeps its place in every folder on its path in a stack of
/// its own (``PackageWalker``) rather than in nested calls, and comes back to a folder's
/// names after its subfolders.
final class FolderNames {
  /// Every name's bytes, each followed by a NUL.
  private let bytes = ByteArena()
  /// Where each name starts in `bytes`, in the order they are visited (a folder's names
  /// take less than 4 GiB: a name is at most 255 bytes, and no file system lists 16
  /// million of them in one folder).
  ///
  /// Read for every name of a walk (by the walk's thread and its helper, once listed and
  /// sorted), one access at a time: not checked for overlapping access at run time.
  @exclusivity(unchecked) private var starts: [UInt32] = []

  /// Lists an open folder.
  ///
  /// - Parameters:
  ///   - folder: The open folder (not moved or closed).
  ///   - sorted: Whether to order the names by their bytes; otherwise they keep the
  ///     order the file system lists them in.
  /// - Throws: ``SystemError`` from the listing, or ``InvalidName`` for the first name
  ///   that is not valid UTF-8 (the listing stops there).
  init(folder: Int32, sorted: Bool) throws {
    var invalid: [UInt8]?
    try FolderListing.forEachNameInPlace(inFolder: folder) { name in
      // ASCII is valid UTF-8; only other names pay for the full check.
      if !name.isASCII, String(validating: name, as: UTF8.self) == nil {
        invalid = Array(name)
        return false
      }
      starts.append(UInt32(bytes.append(name, terminator: 0)))
      return true
    }
    if let invalid { throw InvalidName(bytes: invalid) }
    if sorted { sort() }
  }

  /// A name that is not valid UTF-8, as listed.
  struct InvalidName: Error {
    var bytes: [UInt8]
  }

  /// How many names there are.
  var count: Int { starts.count }

  /// A name, as its bytes (without the NUL) and as a NUL-terminated C string; both point
  /// into this object's storage and stay valid while it lives (callers that use them after
  /// their last use of the object keep it alive with `withExtendedLifetime`).
  ///
  /// - Parameter index: From 0 to ``count`` - 1.
  subscript(index: Int) -> (name: UnsafeBufferPointer<UInt8>, cName: UnsafePointer<CChar>) {
    let name = UnsafePointer(bytes.base + Int(starts[index]))
    let cName = UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)
    return (UnsafeBufferPointer(start: name, count: strlen(cName)), cName)
  }

  /// Orders the names by their bytes: first by their first eight bytes read as one
  /// big-endian number (a NUL and the zeros after it ordering a shorter name first, as
  /// `strcmp` does), which tells most pairs apart without following a pointer, then, for
  /// the pairs that share them, by `strcmp`.
  private func sort() {
    let base = bytes.base
    let names = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
    var keyed = starts.map { start -> (prefix: UInt64, start: UInt32) in
      var prefix: UInt64 = 0
      var index = 0
      var byte = base[Int(start)]
      while index < 8 {
        prefix = prefix << 8 | UInt64(byte)
        index += 1
        if byte != 0 { byte = base[Int(start) + index] }
      }
      return (prefix, start)
    }
    keyed.sort {
      $0.prefix != $1.prefix
        ? $0.prefix < $1.prefix : strcmp(names + Int($0.start), names + Int($1.start)) < 0
    }
    for index in keyed.indices { starts[index] = keyed[index].start }
  }
}
