/// The bytes of a path as a dictionary key, hashed in one call.
///
/// An array of bytes hashes element by element, one call into the standard library per
/// byte; for the tens of thousands of names a pack or an expansion records, that was a
/// visible share of the profile. This key hashes the whole buffer at once and compares as
/// the bytes do.
struct PathKey: Hashable, Sendable {
  /// The path's bytes, as stored or as folded.
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  static func == (a: PathKey, b: PathKey) -> Bool { a.bytes == b.bytes }
}
