/// An expansion target that writes nothing: it keeps, per path, what `expand` would
/// create (kind, stored mode, time, size and a CRC-32 of the bytes), so `verify` runs the
/// expansion's readers and rules and can compare the result with a folder afterwards.
final class VerificationTarget: ExpansionTarget {
  /// What the archive would create at one path.
  struct Item {
    enum Kind: Equatable {
      case directory
      case file(size: Int64, crc: UInt32)
      case symbolicLink([UInt8])
    }
    var kind: Kind
    /// The permission bits as stored (setuid, setgid and sticky included).
    var permissions: UInt32?
    var time: StagingFolder.Time?
  }

  /// The items by path; a hard link holds a copy of its target's item.
  private(set) var items: [String: Item] = [:]
  /// Stored modes by path, noted before the item is made.
  private var storedPermissions: [String: UInt32] = [:]
  /// Bytes of file data read.
  private(set) var byteCount: Int64 = 0

  func noteEntry(_ info: ArchiveEntryInfo, at path: RelativePath) {
    storedPermissions[path.string] = info.permissions & 0o7777
  }

  func makeDirectory(_ path: RelativePath, permissions: UInt32, time: StagingFolder.Time?) throws {
    // Parents an entry implies without naming them are folders too.
    for count in 1..<path.components.count {
      let parent = path.components[0..<count].joined(separator: "/")
      if items[parent] == nil { items[parent] = Item(kind: .directory) }
    }
    items[path.string] = Item(
      kind: .directory, permissions: storedPermissions[path.string] ?? permissions, time: time)
  }

  func setRootAttributes(permissions: UInt32, time: StagingFolder.Time?) {}

  func createFile(_ path: RelativePath) throws -> VerificationFile {
    VerificationFile(path: path, target: self)
  }

  func link(_ path: RelativePath, to target: RelativePath) throws {
    guard let item = items[target.string] else {
      throw PackagingError(
        .hardLinkTargetMissing, "the hard link \(path.string) has no target \(target.string)")
    }
    items[path.string] = item
  }

  func addSymbolicLink(_ path: RelativePath, target: [UInt8], time: StagingFolder.Time?) {
    items[path.string] = Item(
      kind: .symbolicLink(target), permissions: storedPermissions[path.string], time: time)
  }

  fileprivate func finish(
    _ path: RelativePath, size: Int64, crc: UInt32, permissions: UInt32,
    time: StagingFolder.Time?
  ) {
    byteCount += size
    items[path.string] = Item(
      kind: .file(size: size, crc: crc), permissions: storedPermissions[path.string] ?? permissions,
      time: time)
  }
}

/// A regular file `verify` reads: its bytes go into a CRC-32 and are dropped.
final class VerificationFile: ExpansionTargetFile {
  private let path: RelativePath
  private unowned let target: VerificationTarget
  private var crc: UInt32 = 0
  /// How far the CRC has reached; holes before a later block count as zeros.
  private var end: Int64 = 0
  /// Whether a block came before the CRC's end (never from Folio's readers, which hand
  /// data over in order); the CRC then describes nothing and the bytes count as different.
  private var outOfOrder = false

  init(path: RelativePath, target: VerificationTarget) {
    self.path = path
    self.target = target
  }

  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
    guard offset >= end else {
      outOfOrder = true
      return
    }
    addZeros(offset - end)
    crc = LibDeflate.crc32(crc, bytes)
    end = offset + Int64(bytes.count)
  }

  func extend(to length: Int64) throws {
    if length > end { addZeros(length - end) }
  }

  func finish(permissions: UInt32, time: StagingFolder.Time?) throws {
    target.finish(
      path, size: end, crc: outOfOrder ? ~crc : crc, permissions: permissions, time: time)
  }

  private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

  private func addZeros(_ count: Int64) {
    var left = count
    Self.zeros.withUnsafeBytes { zeros in
      while left > 0 {
        let step = Int(min(left, Int64(zeros.count)))
        crc = LibDeflate.crc32(crc, UnsafeRawBufferPointer(rebasing: zeros[..<step]))
        left -= Int64(step)
      }
    }
    end += count
  }
}
