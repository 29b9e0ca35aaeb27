import Glibc

/// How much file data the whole machine holds in memory that is not on disk yet:
/// what a `syncfs` would have to write besides a caller's own.
///
/// Read from `/proc/meminfo` (`Dirty` plus `Writeback`): the kernel counts it
/// for every file system together, so it is at least what any one of them holds.
package enum UnwrittenData {
  /// The bytes waiting to be written or being written, machine-wide.
  ///
  /// - Returns: The sum of `Dirty` and `Writeback`, or `nil` when `/proc/meminfo`
  ///   cannot be read or holds neither.
  package static func bytes() -> Int64? {
    // /proc/meminfo is about 1.5 KiB.
    guard let text = try? FileContents.read(atPath: "/proc/meminfo", limit: 64 << 10) else {
      return nil
    }
    return bytes(inMeminfo: text)
  }

  /// The sum of `Dirty` and `Writeback` in `/proc/meminfo`'s text.
  ///
  /// - Parameter text: The file's bytes (`Name:   1234 kB` lines).
  /// - Returns: The bytes, or `nil` when neither line is there.
  package static func bytes(inMeminfo text: some Collection<UInt8>) -> Int64? {
    var total: Int64 = 0
    var found = false
    var line: [UInt8] = []
    for byte in text + [0x0A] {
      guard byte == 0x0A else {
        line.append(byte)
        continue
      }
      defer { line.removeAll(keepingCapacity: true) }
      guard let colon = line.firstIndex(of: 0x3A) else { continue }
      let name = line[..<colon]
      guard name.elementsEqual("Dirty".utf8) || name.elementsEqual("Writeback".utf8) else {
        continue
      }
      var value: Int64 = 0
      var digits = 0
      for byte in line[(colon + 1)...] where byte >= 0x30 && byte <= 0x39 {
        value = value * 10 + Int64(byte - 0x30)
        digits += 1
      }
      guard digits > 0 else { continue }
      // The kernel writes every line in kB (KiB).
      total += value * 1024
      found = true
    }
    return found ? total : nil
  }
}
