package import FoundationEssentials

/// An expansion target that keeps the tree in memory, for a file wrapper read from an
/// archive (the document layer turns the tree into wrappers): what `expand` would write, held as folders, files and links, within a limit
/// on the file bytes held.
package final class ArchiveMemoryTarget: ExpansionTarget {
  /// One item of the tree; a hard link shares its target's item.
  package final class Item {
    package enum Kind {
      case directory([String: Item])
      case file(Data)
      case symbolicLink(String)
    }
    package var kind: Kind
    package var permissions: UInt32?
    package var time: StagingFolder.Time?
    package var extendedAttributes: [ExtendedAttribute] = []

    init(_ kind: Kind) { self.kind = kind }

    var children: [String: Item] {
      get {
        if case .directory(let children) = kind { return children }
        return [:]
      }
      set { kind = .directory(newValue) }
    }
  }

  /// The archive's root: the folder `expand` would create.
  package let root = Item(.directory([:]))
  /// The most file bytes held.
  let limit: Int64
  /// The archive, for messages.
  let archiveName: String
  private(set) var bytesHeld: Int64 = 0

  package init(limit: Int64, archiveName: String) {
    self.limit = limit
    self.archiveName = archiveName
  }

  func makeDirectory(_ path: RelativePath, permissions: UInt32, time: StagingFolder.Time?) throws {
    let folder = try directory(path.components[...])
    folder.permissions = permissions
    folder.time = time
  }

  func setRootAttributes(permissions: UInt32, time: StagingFolder.Time?) {
    root.permissions = permissions
    root.time = time
  }

  func createFile(_ path: RelativePath) throws -> MemoryFile {
    let item = Item(.file(Data()))
    try place(item, at: path)
    return MemoryFile(item: item, target: self, path: path)
  }

  func link(_ path: RelativePath, to target: RelativePath) throws {
    guard let item = lookup(target.components) else {
      throw PackagingError(
        .hardLinkTargetMissing, "'\(archiveName)': the hard link \(path.string) has no target")
    }
    try place(item, at: path)
  }

  func addSymbolicLink(_ path: RelativePath, target: [UInt8], time: StagingFolder.Time?) {
    let item = Item(.symbolicLink(String(decoding: target, as: UTF8.self)))
    item.time = time
    try? place(item, at: path)
  }

  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofDirectory path: RelativePath) {
    lookup(path.components)?.extendedAttributes = attributes
  }

  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofExisting path: RelativePath)
    -> Bool
  {
    guard let item = lookup(path.components) else { return false }
    if case .symbolicLink = item.kind { return false }
    item.extendedAttributes = attributes
    return true
  }

  /// A tree in memory sets every attribute.
  var attributeWarnings: [ArchiveWarning] { [] }

  /// Counts bytes about to be held, refusing past the limit.
  func hold(_ count: Int64, for path: RelativePath) throws {
    bytesHeld += count
    if bytesHeld > limit {
      throw PackagingError(
        .archiveTooLargeForMemory,
        "'\(archiveName)' holds more than \(limit) bytes of files (at \(path.string)), more than a file wrapper keeps in memory; expand it instead"
      )
    }
  }

  package func lookup(_ components: [String]) -> Item? {
    var current = root
    for component in components {
      guard let next = current.children[component] else { return nil }
      current = next
    }
    return current
  }

  private func directory(_ components: ArraySlice<String>) throws -> Item {
    var current = root
    for component in components {
      if let next = current.children[component] {
        guard case .directory = next.kind else {
          throw PackagingError(
            .pathConflict, "'\(archiveName)': \(components.joined(separator: "/")) is not a folder")
        }
        current = next
      } else {
        let made = Item(.directory([:]))
        current.children[component] = made
        current = made
      }
    }
    return current
  }

  private func place(_ item: Item, at path: RelativePath) throws {
    let parent = try directory(path.components.dropLast())
    parent.children[path.components[path.components.count - 1]] = item
  }
}

/// A regular file an expansion is writing into memory.
final class MemoryFile: ExpansionTargetFile {
  private let item: ArchiveMemoryTarget.Item
  private unowned let target: ArchiveMemoryTarget
  private var data = Data()
  private let path: RelativePath

  init(item: ArchiveMemoryTarget.Item, target: ArchiveMemoryTarget, path: RelativePath) {
    self.item = item
    self.target = target
    self.path = path
  }

  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
    let end = offset + Int64(bytes.count)
    if end > Int64(data.count) {
      try target.hold(end - Int64(data.count), for: path)
      data.append(Data(count: Int(end) - data.count))
    }
    data.replaceSubrange(Int(offset)..<Int(end), with: bytes)
  }

  func extend(to length: Int64) throws {
    guard length > Int64(data.count) else { return }
    try target.hold(length - Int64(data.count), for: path)
    data.append(Data(count: Int(length) - data.count))
  }

  func finish(
    permissions: UInt32, time: StagingFolder.Time?, attributes: [ExtendedAttribute]
  ) throws {
    item.kind = .file(data)
    item.permissions = permissions
    item.time = time
    item.extendedAttributes = attributes
  }
}
