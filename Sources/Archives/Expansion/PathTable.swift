/// What an archive has put at each path below an expansion's root: the paths' bytes back to
/// back in one arena, found through an open-addressing table of 16 bytes a slot.
///
/// The expansion ledger records every entry and every folder above one. A dictionary from
/// each path's own array of bytes would cost an allocation a path (its header and malloc's
/// rounding) beside the dictionary's buckets; here a path costs its bytes and a slot. Hashes are the standard library's
/// seeded `Hasher`, so a hostile archive cannot choose names that collide.
///
/// A value with copy-on-write storage, as the dictionary it replaces.
struct PathTable {
  /// The longest path a table takes, in bytes (16 MiB less one): the ledger refuses longer
  /// names whatever its policy allows.
  static let longestPath = (1 << lengthBits) - 1
  /// The most bytes all paths together may take (1 TiB), far past any memory.
  static let largestArena = 1 << offsetBits

  private static let offsetBits = 40
  private static let lengthBits = 24

  /// One path's place in the arena, its hash and what is at it.
  private struct Slot {
    /// The path's offset in the arena (the low 40 bits) and its length (the high 24): a
    /// 32-bit offset would have ended the arena at 4 GiB, which a policy raising both the
    /// entry limit and the name limit could pass.
    var place: UInt64
    var hash: UInt32
    /// 0: empty; otherwise ``ExpansionLedger/Node`` as ``PathTable/encode(_:replacing:)`` writes it.
    var value: UInt32

    init(offset: Int, length: Int, hash: UInt32, value: UInt32) {
      precondition(offset < PathTable.largestArena && length <= PathTable.longestPath)
      place = UInt64(offset) | UInt64(length) << PathTable.offsetBits
      self.hash = hash
      self.value = value
    }

    var offset: Int { Int(truncatingIfNeeded: place & (1 << PathTable.offsetBits - 1)) }
    var length: Int { Int(truncatingIfNeeded: place >> PathTable.offsetBits) }

    static let empty = Slot(offset: 0, length: 0, hash: 0, value: 0)
  }

  private final class Storage {
    var arena: ByteArena
    var slots: [Slot]
    /// Symbolic links' targets, which the slots' values index.
    var linkTargets: [[UInt8]]
    var count: Int

    init(arena: ByteArena, slots: [Slot], linkTargets: [[UInt8]], count: Int) {
      self.arena = arena
      self.slots = slots
      self.linkTargets = linkTargets
      self.count = count
    }
  }

  private var storage: Storage

  /// Creates an empty table.
  ///
  /// - Parameters:
  ///   - paths: How many paths will be recorded, when known.
  ///   - bytes: How many bytes they take in all, when known.
  ///   Made that large at once, the table and the arena never grow on the way, which would
  ///   copy the table and, below malloc's threshold for pages of their own, the arena (a
  ///   zip's second ledger, after the check's, would grow in the heap beside the first).
  init(reservingPaths paths: Int = 0, bytes: Int = 0) {
    var slots = 16
    while slots * 3 < paths * 4 + 4 { slots *= 2 }
    storage = Storage(
      arena: ByteArena(capacity: max(bytes, 64)), slots: [Slot](repeating: .empty, count: slots),
      linkTargets: [], count: 0)
  }

  /// How many bytes the recorded paths take.
  var byteCount: Int { storage.arena.count }

  /// The bytes a slot takes (16, what the table's memory figures assume).
  static var slotByteCount: Int { MemoryLayout<Slot>.stride }

  /// How many paths are recorded.
  var count: Int { storage.count }

  /// What is at a path, or `nil` when nothing was recorded there.
  ///
  /// - Parameter path: The path's bytes (components joined with `/`).
  subscript(path: [UInt8]) -> ExpansionLedger.Node? {
    path.withUnsafeBufferPointer { bytes in
      let (index, found) = find(bytes, hash: Self.hash(bytes))
      guard found else { return nil }
      return decode(storage.slots[index].value)
    }
  }

  /// Records what is at a path, replacing what was.
  ///
  /// - Parameters:
  ///   - node: What the archive put there.
  ///   - path: The path's bytes.
  mutating func set(_ node: ExpansionLedger.Node, at path: [UInt8]) {
    if !isKnownUniquelyReferenced(&storage) {
      storage = Storage(
        arena: storage.arena.copy(), slots: storage.slots, linkTargets: storage.linkTargets,
        count: storage.count)
    }
    path.withUnsafeBufferPointer { bytes in
      let hash = Self.hash(bytes)
      var (index, found) = find(bytes, hash: hash)
      if found {
        storage.slots[index].value = encode(node, replacing: storage.slots[index].value)
        return
      }
      // At most three quarters full, so a search always meets an empty slot soon.
      if (storage.count + 1) * 4 > storage.slots.count * 3 {
        grow()
        index = find(bytes, hash: hash).index
      }
      let offset = storage.arena.append(bytes)
      storage.slots[index] = Slot(
        offset: offset, length: bytes.count, hash: hash, value: encode(node, replacing: 0))
      storage.count += 1
    }
  }

  /// Gives each recorded path to `body`, in no particular order, until it returns `false`.
  ///
  /// - Parameter body: Receives a path's bytes (valid during the call only).
  func forEachPath(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
    for slot in storage.slots where slot.value != 0 {
      if !body(storage.arena.bytes(at: slot.offset, length: slot.length)) { return }
    }
  }

  /// The slot holding a path, or the empty slot where it would go.
  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) -> (index: Int, found: Bool)
  {
    let mask = storage.slots.count - 1
    var index = Int(hash) & mask
    while true {
      let slot = storage.slots[index]
      if slot.value == 0 { return (index, false) }
      if slot.hash == hash, slot.length == bytes.count,
        storage.arena.bytes(at: slot.offset, length: bytes.count).elementsEqual(bytes)
      {
        return (index, true)
      }
      index = (index + 1) & mask
    }
  }

  /// Doubles the table and puts every slot in its new place (the arena stays).
  private mutating func grow() {
    let old = storage.slots
    storage.slots = []  // the old table's only reference is `old` while the new one fills
    var slots = [Slot](repeating: .empty, count: old.count * 2)
    let mask = slots.count - 1
    for slot in old where slot.value != 0 {
      var index = Int(slot.hash) & mask
      while slots[index].value != 0 { index = (index + 1) & mask }
      slots[index] = slot
    }
    storage.slots = slots
  }

  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return UInt32(truncatingIfNeeded: hasher.finalize())
  }

  // Values: 1 an implied folder, 2 a folder an entry named, 3 a file, 4 + i the symbolic
  // link whose target is linkTargets[i].
  private func encode(_ node: ExpansionLedger.Node, replacing old: UInt32) -> UInt32 {
    switch node {
    case .directory(explicit: false): return 1
    case .directory(explicit: true): return 2
    case .file: return 3
    case .symbolicLink(let target):
      // A link's target is known later for a zip (it is the entry's data): reuse its place.
      if old >= 4 {
        storage.linkTargets[Int(old - 4)] = target
        return old
      }
      storage.linkTargets.append(target)
      return UInt32(storage.linkTargets.count - 1 + 4)
    }
  }

  private func decode(_ value: UInt32) -> ExpansionLedger.Node {
    switch value {
    case 1: .directory(explicit: false)
    case 2: .directory(explicit: true)
    case 3: .file
    default: .symbolicLink(target: storage.linkTargets[Int(value - 4)])
    }
  }
}
