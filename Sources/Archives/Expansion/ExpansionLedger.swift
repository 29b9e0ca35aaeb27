import FoundationEssentials

/// The path-safety rules of an expansion, applied entry by entry, with the
/// record of what the archive has created so far.
///
/// The ledger is the single place where names are judged: the zip
/// pre-check runs the central directory through one, the expander runs
/// every header libarchive hands it through another. It never touches the
/// disk; it answers where an entry may go, or throws a ``PackagingError``
/// naming the entry and the rule.
struct ExpansionLedger {
  /// Where an admitted entry goes.
  enum Admission: Equatable {
    /// Create the entry at these components below the root.
    case expand(RelativePath)
    /// The entry names the root itself (`./`); nothing to create.
    case root
    /// The entry is macOS metadata (`__MACOSX/`, `._name`) and is skipped.
    case skipAppleDouble
  }

  /// What the archive has put at a path.
  enum Node: Equatable {
    /// A folder, named by an entry (`explicit`) or only implied by deeper names.
    case directory(explicit: Bool)
    /// A regular file (or a hard link to one).
    case file
    /// A symbolic link with its raw target.
    case symbolicLink(target: [UInt8])
  }

  /// The most symbolic links followed while resolving one target, as Linux's `MAXSYMLINKS`.
  static let maxLinkHops = 40
  /// The longest symbolic-link target in bytes (`PATH_MAX`).
  static let maxLinkTargetLength = 4_096

  let policy: ExpansionPolicy
  private(set) var nodes: PathTable
  private var foldedSpellings = FoldedSpellingHashes()
  /// Whether this ledger judges names that differ only by case or normalisation: not when
  /// the policy allows them, nor when an earlier ledger judged them (see ``init``).
  private let judgesCollisions: Bool
  private(set) var symbolicLinks: [(path: RelativePath, target: [UInt8], name: EntryName)] = []
  private(set) var entryCount = 0
  private var topLevelNames: Set<PathKey> = []
  /// The first component last inserted into `topLevelNames`.
  private var lastTopLevelName: String?
  /// The folder (its path's bytes) above the last entry whose parents were checked.
  private var checkedParent: [UInt8]?

  /// The name of the archive's only top-level entry, when that entry is a folder.
  var singleTopFolder: String? {
    guard topLevelNames.count == 1, let only = topLevelNames.first,
      case .directory = nodes[only.bytes]
    else { return nil }
    return String(decoding: only.bytes, as: UTF8.self)
  }

  /// Creates an empty ledger.
  ///
  /// - Parameters:
  ///   - policy: The rules.
  ///   - paths: How many paths (entries and the folders above them) it will record, when
  ///     known (a zip's check counts them before the expansion records them again).
  ///   - pathBytes: How many bytes those paths take in all, when known.
  ///   - collisionsChecked: Whether another ledger with the same policy has already judged
  ///     every name this one will see for spellings that differ only by case or
  ///     normalisation (a zip's check, over the directory the expansion then reads): this
  ///     one then keeps no folded spellings (16 bytes a path, 0.5 MB for 20,000) and folds
  ///     no names. Its entries may be fewer (a selection), never others.
  init(
    policy: ExpansionPolicy, reservingPaths paths: Int = 0, pathBytes: Int = 0,
    collisionsChecked: Bool = false
  ) {
    self.policy = policy
    judgesCollisions = !collisionsChecked && !policy.allowsNameCollisions
    nodes = PathTable(reservingPaths: paths, bytes: pathBytes)
    if judgesCollisions {
      foldedSpellings = FoldedSpellingHashes(expectedCount: paths)
    }
  }

  /// How many paths are recorded (entries, and the folders above them no entry named).
  var pathCount: Int { nodes.count }
  /// How many bytes the recorded paths take.
  var pathBytes: Int { nodes.byteCount }

  /// Judges one entry and records it.
  ///
  /// - Parameters:
  ///   - name: The entry's name as stored.
  ///   - kind: What the entry creates.
  ///   - linkTarget: A link's target; `nil` for other kinds, or when it is not known yet
  ///     (the zip central directory keeps symbolic-link targets in the data).
  /// - Returns: Where the entry goes, or that it is skipped.
  /// - Throws: ``PackagingError`` naming the entry and the rule it breaks.
  mutating func admit(
    _ name: EntryName, kind: ArchiveEntryInfo.Kind, linkTarget: EntryName? = nil
  ) throws -> Admission {
    entryCount += 1
    if entryCount > policy.maxEntryCount {
      throw PackagingError(
        .tooManyEntries,
        "entry \(name.display) is number \(entryCount): more than the limit of \(policy.maxEntryCount) entries"
      )
    }
    guard let path = try Self.relativePath(of: name, policy: policy) else {
      guard kind == .directory else {
        throw PackagingError(.emptyName, "entry \(name.display) has no name below the root")
      }
      return .root
    }
    if policy.skipsAppleDouble, path.isAppleDouble { return .skipAppleDouble }
    if let first = path.components.first, first != lastTopLevelName {
      topLevelNames.insert(PathKey(Array(first.utf8)))
      lastTopLevelName = first
    }
    if kind.isSpecial {
      throw PackagingError(
        .specialFileEntry,
        "entry \(name.display) is a \(kind.words); devices, FIFOs and sockets are never created")
    }

    // Every folder above the entry must be a folder, not a file or a link. The folder of
    // the entry before passed this check, and a folder stays one (every later conflict
    // throws), so an entry beside it skips the walk and its lookups.
    let pathBytes = path.bytes
    let parentEnd = pathBytes.lastIndex(of: UInt8(ascii: "/")) ?? 0
    let parentChecked =
      parentEnd > 0 && checkedParent?.elementsEqual(pathBytes[..<parentEnd]) == true
    if !parentChecked {
      try checkParents(of: path, name: name)
      if parentEnd > 0 { checkedParent = Array(pathBytes[..<parentEnd]) }
    }

    switch (nodes[pathBytes], kind) {
    case (nil, _):
      try recordFolded(pathBytes, entry: name)
    case (.directory(explicit: false), .directory):
      break
    case (.directory(explicit: false), _):
      throw PackagingError(
        .pathConflict,
        "entry \(name.display) is a \(kind.words) where earlier entries need a folder")
    default:
      throw PackagingError(.duplicateEntry, "entry \(name.display) appears more than once")
    }

    switch kind {
    case .directory:
      nodes.set(.directory(explicit: true), at: pathBytes)
    case .file:
      nodes.set(.file, at: pathBytes)
    case .hardLink:
      guard let linkTarget else {
        throw PackagingError(.hardLinkTargetMissing, "hard link \(name.display) names no target")
      }
      _ = try hardLinkTarget(of: name, target: linkTarget)
      nodes.set(.file, at: pathBytes)
    case .symbolicLink:
      let target = linkTarget?.bytes ?? []
      if let linkTarget {
        try checkSymbolicLink(name, at: path, target: linkTarget)
      }
      nodes.set(.symbolicLink(target: target), at: pathBytes)
      symbolicLinks.append((path, target, name))
    case .characterDevice, .blockDevice, .fifo, .socket:
      break  // refused above
    }
    return .expand(path)
  }

  /// Checks that every folder above an entry is a folder, not a file or a link, and
  /// records the ones no entry named yet as implied folders.
  private mutating func checkParents(of path: RelativePath, name: EntryName) throws {
    var prefix: [UInt8] = []
    for (position, component) in path.components.dropLast().enumerated() {
      if position > 0 { prefix.append(UInt8(ascii: "/")) }
      prefix.append(contentsOf: component.utf8)
      switch nodes[prefix] {
      case .symbolicLink:
        throw PackagingError(
          .writeThroughSymlink,
          "entry \(name.display) would be written through the symbolic link \(EntryName(bytes: prefix).display)"
        )
      case .file:
        throw PackagingError(
          .pathConflict,
          "entry \(name.display) needs a folder where \(EntryName(bytes: prefix).display) is a file"
        )
      case .directory:
        break
      case nil:
        try recordFolded(prefix, entry: name)
        nodes.set(.directory(explicit: false), at: prefix)
      }
    }
  }

  /// Resolves a hard link's target to a regular file the archive created earlier.
  ///
  /// - Parameters:
  ///   - name: The hard link's own name, for messages.
  ///   - target: The target as stored (a name relative to the archive's root).
  /// - Returns: The target's path.
  /// - Throws: ``PackagingError`` when the target leaves the root or is not an earlier file.
  func hardLinkTarget(of name: EntryName, target: EntryName) throws -> RelativePath {
    let path: RelativePath?
    do {
      path = try Self.relativePath(of: target, policy: policy)
    } catch let error as PackagingError
      where error.code == .absolutePath || error.code == .parentComponent
    {
      throw PackagingError(
        .linkOutsideDestination,
        "hard link \(name.display) points to \(target.display), outside the destination")
    }
    guard let path, nodes[path.bytes] == .file else {
      throw PackagingError(
        .hardLinkTargetMissing,
        "hard link \(name.display) points to \(target.display), which is not a file earlier in the archive"
      )
    }
    return path
  }

  /// Checks a symbolic link once its target is known, against the links recorded so far.
  ///
  /// - Parameters:
  ///   - name: The link's name, for messages.
  ///   - path: Where the link goes.
  ///   - target: The link's target as stored.
  /// - Throws: ``PackagingError`` when the target leaves the root.
  mutating func checkSymbolicLink(_ name: EntryName, at path: RelativePath, target: EntryName)
    throws
  {
    if target.bytes.isEmpty || target.bytes.contains(0) {
      throw PackagingError(
        .linkOutsideDestination, "symbolic link \(name.display) has an empty target")
    }
    if target.bytes.count > Self.maxLinkTargetLength {
      throw PackagingError(
        .nameTooLong,
        "symbolic link \(name.display) has a target longer than \(Self.maxLinkTargetLength) bytes")
    }
    var hops = 0
    let resolved = resolve(
      Self.split(target.bytes), from: Array(path.components.dropLast()), hops: &hops)
    guard resolved != nil else {
      throw PackagingError(
        .linkOutsideDestination,
        "symbolic link \(name.display) points to \(target.display), outside the destination")
    }
    if let index = symbolicLinks.lastIndex(where: { $0.path == path }) {
      symbolicLinks[index].target = target.bytes
    }
    nodes.set(.symbolicLink(target: target.bytes), at: path.bytes)
  }

  /// Checks every symbolic link again against the whole archive, once all entries are known.
  ///
  /// A link judged early could be redirected by a link that came later
  /// (`d/x -> ..` then `d/y -> x/..`); resolving each target through every
  /// recorded link at the end closes that gap.
  ///
  /// When the archive's one top folder becomes the destination, links are judged
  /// against *that* folder, the one the entries land in: `pkg/l -> ../pkg/x.txt`
  /// stays inside the archive's root, but once `pkg/` is unwrapped into DEST it
  /// points at a sibling of DEST. Every step of the resolution must stay inside, not
  /// only its end.
  ///
  /// - Parameter top: When the archive's one top folder becomes the destination,
  ///   links must stay inside it; `nil` when the whole root is the destination.
  /// - Throws: ``PackagingError`` naming the first link that leaves.
  func verifySymbolicLinks(within top: String? = nil) throws {
    let floor = top == nil ? 0 : 1
    for link in symbolicLinks {
      var hops = 0
      let resolved = resolve(
        Self.split(link.target), from: Array(link.path.components.dropLast()), hops: &hops,
        floor: floor)
      let inside = resolved.map { top == nil || $0.first == top } ?? false
      if !inside {
        let landing = top.map { " (the folder \(EntryName($0).display), which becomes it)" } ?? ""
        throw PackagingError(
          .linkOutsideDestination,
          "symbolic link \(link.name.display) points to \(EntryName(bytes: link.target).display), outside the destination\(landing)"
        )
      }
    }
  }

  /// Follows `target` from the folder `start`, through recorded links; `nil` when it
  /// leaves the root (or climbs above its first `floor` components), is absolute, or
  /// loops.
  private func resolve(
    _ target: [String]?, from start: [String], hops: inout Int, floor: Int = 0
  ) -> [String]? {
    guard let target else { return nil }  // absolute
    var stack = start
    for component in target {
      if component == "." || component.isEmpty { continue }
      if component == ".." {
        if stack.count <= floor { return nil }
        stack.removeLast()
        continue
      }
      stack.append(component)
      if case .symbolicLink(let inner) = nodes[Array(stack.joined(separator: "/").utf8)] {
        hops += 1
        if hops > Self.maxLinkHops || inner.isEmpty { return nil }
        guard
          let next = resolve(
            Self.split(inner), from: Array(stack.dropLast()), hops: &hops, floor: floor)
        else { return nil }
        stack = next
      }
    }
    return stack
  }

  /// The components of a link target, or `nil` when it is absolute.
  private static func split(_ bytes: [UInt8]) -> [String]? {
    if bytes.first == UInt8(ascii: "/") { return nil }
    return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
      .map { String(decoding: $0, as: UTF8.self) }
  }

  /// Records a path's folded spelling, refusing a second spelling of it.
  ///
  /// Only hashes are kept (16 bytes a path); on a hash match the earlier
  /// spelling is looked for among the recorded paths, so a hash collision
  /// is never reported as a name collision.
  private mutating func recordFolded(_ path: [UInt8], entry: EntryName) throws {
    guard judgesCollisions else { return }
    let folded = Self.folded(path)
    guard foldedSpellings.record(path, folded: folded) else { return }
    var spelling: [UInt8]?
    nodes.forEachPath { recorded in
      guard !recorded.elementsEqual(path), Self.folded(Array(recorded)) == folded else {
        return true
      }
      spelling = Array(recorded)
      return false
    }
    if let spelling {
      throw PackagingError(
        .nameCollision,
        "entry \(entry.display): \(EntryName(bytes: path).display) and \(EntryName(bytes: spelling).display) differ only by case or Unicode normalisation"
      )
    }
  }

  /// A path's spelling with case and Unicode normalisation folded away (NFC, then lower case).
  static func folded(_ path: [UInt8]) -> [UInt8] {
    // ASCII, nearly every name: nothing to normalise, lower case in one pass over the bytes
    // (a pack or an expansion folds every one of its names).
    if path.withUnsafeBufferPointer(\.isASCII) {
      return [UInt8](unsafeUninitializedCapacity: path.count) { folded, count in
        path.withUnsafeBufferPointer { foldASCII($0, into: folded) }
        count = path.count
      }
    }
    let text = String(decoding: path, as: UTF8.self)
    // NFC through the standard library's own normalization (what String's `==` compares),
    // as Foundation's `precomposedStringWithCanonicalMapping` gives it.
    let composed = String(decoding: text._nfcCodeUnits, as: UTF8.self)
    return Array(composed.lowercased().utf8)
  }

  /// An ASCII path's folded spelling: its upper-case letters in lower case.
  ///
  /// - Parameters:
  ///   - path: The path's bytes, all ASCII.
  ///   - folded: As many bytes, to fill.
  static func foldASCII(
    _ path: UnsafeBufferPointer<UInt8>, into folded: UnsafeMutableBufferPointer<UInt8>
  ) {
    for index in path.indices {
      let byte = path[index]
      folded[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
  }

  /// Splits an entry name into safe components, or throws the rule it breaks.
  ///
  /// `.` components and empty ones (`a//b`, a trailing `/`) are dropped.
  ///
  /// - Parameters:
  ///   - name: The entry's name as stored.
  ///   - policy: The name-length limits.
  /// - Returns: The path, or `nil` when the name is the root itself (`.`, `./`).
  /// - Throws: ``PackagingError`` naming the entry and the rule.
  static func relativePath(of name: EntryName, policy: ExpansionPolicy) throws -> RelativePath? {
    let bytes = name.bytes
    if bytes.isEmpty {
      throw PackagingError(.emptyName, "an entry has an empty name")
    }
    if bytes.contains(0) {
      throw PackagingError(.nulInName, "entry \(name.display) has a NUL byte in its name")
    }
    if bytes.first == UInt8(ascii: "/") {
      throw PackagingError(.absolutePath, "entry \(name.display) has an absolute name")
    }
    if bytes.contains(UInt8(ascii: "\\")) {
      throw PackagingError(
        .backslashInName, "entry \(name.display) uses '\\' in its name (a Windows separator)")
    }
    // The path table's own limit (16 MiB) holds whatever a policy allows.
    let longest = min(policy.maxNameLength, PathTable.longestPath)
    if bytes.count > longest {
      throw PackagingError(
        .nameTooLong,
        "entry \(name.display) has a name of \(bytes.count) bytes, more than the limit of \(longest)"
      )
    }
    guard let text = name.string else {
      throw PackagingError(
        .invalidNameEncoding, "entry \(name.display) has a name that is not UTF-8")
    }
    var components: [String] = []
    for piece in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
      if piece.elementsEqual([UInt8(ascii: ".")]) { continue }
      if piece.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
        throw PackagingError(.parentComponent, "entry \(name.display) has a '..' component")
      }
      if piece.count > policy.maxComponentLength {
        throw PackagingError(
          .nameTooLong,
          "entry \(name.display) has a component of \(piece.count) bytes, more than the limit of \(policy.maxComponentLength)"
        )
      }
      components.append(String(decoding: piece, as: UTF8.self))
    }
    if let first = components.first, first.utf8.count == 2, first.hasSuffix(":"),
      first.first?.isLetter == true, first.first?.isASCII == true
    {
      throw PackagingError(.absolutePath, "entry \(name.display) starts with a drive letter")
    }
    _ = text
    return components.isEmpty ? nil : RelativePath(components: components)
  }
}

/// A checked path below an expansion's root: no empty, `.` or `..` components.
struct RelativePath: Hashable, Sendable {
  /// The components, outermost first.
  let components: [String]

  /// The components joined with `/`, joined once: an expansion asks for it several times
  /// an entry (the ledger's keys, progress, messages), and `joined(separator:)` cost
  /// about 2,000 instructions a call.
  let string: String

  /// A path of these components.
  ///
  /// - Parameter components: Non-empty names without `/`, outermost first.
  init(components: [String]) {
    self.components = components
    string = components.joined(separator: "/")
  }

  // The joined spelling says everything: components hold no `/`.
  static func == (a: RelativePath, b: RelativePath) -> Bool { a.string == b.string }
  func hash(into hasher: inout Hasher) { hasher.combine(string) }

  /// The joined path as UTF-8 bytes (the ledger's exact key).
  var bytes: [UInt8] { Array(string.utf8) }

  /// Whether this is macOS metadata: inside `__MACOSX/`, or an AppleDouble `._name`.
  var isAppleDouble: Bool {
    components.first == "__MACOSX" || (components.last?.hasPrefix("._") ?? false)
  }
}
