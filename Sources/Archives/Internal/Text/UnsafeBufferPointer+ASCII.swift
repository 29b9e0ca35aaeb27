extension UnsafeBufferPointer<UInt8> {
  /// Whether every byte is ASCII (below 0x80).
  ///
  /// ASCII is valid UTF-8, already in NFC, and ordered alike as bytes and as text. One
  /// pass, no branch a byte, for names met by the thousand (a pack's listings, the
  /// folding of every name it writes or expands).
  var isASCII: Bool {
    var any: UInt8 = 0
    for byte in self { any |= byte }
    return any < 0x80
  }
}
