extension ZipArchive {
  /// The fixed part of a central-directory record (APPNOTE 4.3.12), read from its 46
  /// bytes at once: one unaligned load a field, where the slice's generic reads took two
  /// bounds-checked bytes a field, for every record of every zip opened.
  struct CentralRecordFields {
    static let size = 46

    let signature: UInt32
    /// The high byte of "version made by": the system whose attributes the record holds.
    let hostSystem: UInt8
    let flags: UInt16
    let method: UInt16
    let dosTime: UInt32
    let crc32: UInt32
    let compressedSize: UInt32
    let size: UInt32
    let nameLength: Int
    let extraLength: Int
    let commentLength: Int
    let disk: UInt16
    let externalAttributes: UInt32
    let localHeaderOffset: UInt32

    /// Reads the fields where they lie.
    ///
    /// - Parameter raw: At least ``size`` bytes, the record's first.
    init(raw: UnsafeRawBufferPointer) {
      precondition(raw.count >= Self.size, "a central-directory record's fixed part")
      signature = raw.uint32(at: 0)
      hostSystem = raw[5]
      flags = raw.uint16(at: 8)
      method = raw.uint16(at: 10)
      dosTime = raw.uint32(at: 12)
      crc32 = raw.uint32(at: 16)
      compressedSize = raw.uint32(at: 20)
      size = raw.uint32(at: 24)
      nameLength = Int(raw.uint16(at: 28))
      extraLength = Int(raw.uint16(at: 30))
      commentLength = Int(raw.uint16(at: 32))
      disk = raw.uint16(at: 34)
      externalAttributes = raw.uint32(at: 38)
      localHeaderOffset = raw.uint32(at: 42)
    }
  }

  /// The fixed part of a local header (APPNOTE 4.3.7), read from its 30 bytes at once.
  struct LocalHeaderFields {
    static let size = 30

    let signature: UInt32
    let flags: UInt16
    let method: UInt16
    let crc32: UInt32
    let compressedSize: UInt32
    let size: UInt32
    let nameLength: Int
    let extraLength: Int

    /// Reads the fields where they lie.
    ///
    /// - Parameter raw: At least ``size`` bytes, the header's first.
    init(raw: UnsafeRawBufferPointer) {
      precondition(raw.count >= Self.size, "a local header's fixed part")
      signature = raw.uint32(at: 0)
      flags = raw.uint16(at: 6)
      method = raw.uint16(at: 8)
      crc32 = raw.uint32(at: 14)
      compressedSize = raw.uint32(at: 18)
      size = raw.uint32(at: 22)
      nameLength = Int(raw.uint16(at: 26))
      extraLength = Int(raw.uint16(at: 28))
    }
  }
}
