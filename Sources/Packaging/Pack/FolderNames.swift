import FolioSystem
import Foundation

/// A folder's names, each kept as its bytes followed by a NUL in one shared buffer, in the
/// order of their UTF-8 bytes when asked.
///
/// A pack walks every folder twice. As an array of `String`s, a folder of 20,000 names
/// (uuid-named pages) took 1.9 MB and three allocations a name each walk (the listing's
/// copy, the string, the array's growth), and sorting compared them through `String`'s
/// Unicode-aware comparison. Here a name costs its bytes and nine, the names are sorted by
/// `strcmp` (which orders NUL-terminated bytes as unsigned, the shorter prefix first: the
/// same order as comparing the UTF-8 bytes), and each name is handed to `fstatat`,
/// `openat` and `readlinkat` where it lies.
struct FolderNames {
  /// Every name's bytes, each followed by a NUL.
  private var bytes: [UInt8] = []
  /// Where each name starts in `bytes`, in the order they are visited.
  private var starts: [Int] = []

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
      if !Self.isASCII(name), String(validating: name, as: UTF8.self) == nil {
        invalid = Array(name)
        return false
      }
      append(name)
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

  /// Calls `body` with each name in turn, as its bytes and as a NUL-terminated C string
  /// (both valid only during the call).
  ///
  /// - Parameter body: Given the name's bytes (without the NUL) and the same bytes as a
  ///   C string.
  /// - Throws: What `body` throws.
  func forEach(
    _ body: (_ name: UnsafeBufferPointer<UInt8>, _ cName: UnsafePointer<CChar>) throws -> Void
  ) rethrows {
    try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      for start in starts {
        let name = base + start
        let cName = UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)
        try body(UnsafeBufferPointer(start: name, count: strlen(cName)), cName)
      }
    }
  }

  private mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
    starts.append(bytes.count)
    bytes.append(contentsOf: name)
    bytes.append(0)
  }

  private mutating func sort() {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let names = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
      starts.sort { strcmp(names + $0, names + $1) < 0 }
    }
  }

  private static func isASCII(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    var any: UInt8 = 0
    for byte in name { any |= byte }
    return any < 0x80
  }
}
