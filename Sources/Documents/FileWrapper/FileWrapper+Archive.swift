public import Archives
package import ProgressReporting
#if !canImport(Darwin)
  public import FoundationEssentials

  extension FileWrapper {
    /// How many bytes of files a wrapper read from an archive holds in memory by default.
    public static let defaultArchiveMemoryLimit: Int64 = 256 << 20

    /// Reads the tree an archive holds, without expanding it to disk.
    ///
    /// Any archive `expand` reads will do: zip (read through its checked central
    /// directory), tar plain or compressed, and the others libarchive knows. Every
    /// entry goes through the rules `expand` applies (``ExpansionPolicy``): unsafe
    /// names, links that leave the tree, devices, duplicates, collisions, and the size,
    /// count and ratio limits; a refusal throws the error `expand` would, naming the
    /// entry. When the entries all sit in one top folder (as `folio pack` writes a
    /// package), that folder is the wrapper, as `expand` unwraps it, unless the policy
    /// keeps top folders.
    ///
    /// The archive is read once, start to end, and its files' bytes are held in
    /// memory, so the wrapper is complete and nothing can change under it; past
    /// `memoryLimit` bytes the read stops with `archive-too-large-for-memory`, and the
    /// archive is better expanded.
    ///
    /// - Parameters:
    ///   - url: The archive.
    ///   - policy: The rules and limits, as for `expand`.
    ///   - memoryLimit: The most file bytes to hold.
    /// - Throws: ``PackagingError``: `expand`'s refusals, `corrupt-archive`,
    ///   `archive-too-large-for-memory`.
    public convenience init(
      archiveAt url: URL, policy: ExpansionPolicy = .default,
      memoryLimit: Int64 = FileWrapper.defaultArchiveMemoryLimit
    ) throws {
      let (node, name, attributes) = try Self.readArchive(
        url, policy: policy, memoryLimit: memoryLimit, reporter: nil)
      self.init(node: node, displayPath: url.path + "/" + name, fileAttributes: attributes)
      filename = name
      preferredFilename = name
    }

    /// Reads an archive's tree into memory, reporting files and bytes to `manager`.
    ///
    /// - Parameters:
    ///   - url: The archive.
    ///   - policy: The rules and limits, as for `expand`.
    ///   - memoryLimit: The most file bytes to hold.
    ///   - manager: Where progress goes and cancellation is checked.
    /// - Returns: The tree.
    /// - Throws: As ``init(archiveAt:policy:memoryLimit:)``.
    package static func reading(
      archiveAt url: URL, policy: ExpansionPolicy, memoryLimit: Int64 = defaultArchiveMemoryLimit,
      manager: ProgressManager?
    ) throws -> FileWrapper {
      let (node, name, attributes) = try readArchive(
        url, policy: policy, memoryLimit: memoryLimit, reporter: manager)
      let wrapper = FileWrapper(
        node: node, displayPath: url.path + "/" + name, fileAttributes: attributes)
      wrapper.filename = name
      wrapper.preferredFilename = name
      return wrapper
    }

    /// Reads an archive's tree into memory: the work of ``init(archiveAt:policy:memoryLimit:)``.
    static func readArchive(
      _ url: URL, policy: ExpansionPolicy, memoryLimit: Int64, reporter: ProgressManager?
    ) throws -> (Node, String, [String: Any]) {
      let (rootItem, name) = try ArchiveMemoryTarget.expand(
        url, policy: policy, memoryLimit: memoryLimit, reporter: reporter)
      let display = url.path + "/" + name
      let root = wrapper(for: rootItem, display: display)
      return (root.node, name, root.fileAttributes)
    }

    private static func wrapper(for item: ArchiveMemoryTarget.Item, display: String) -> FileWrapper
    {
      let node: Node
      switch item.kind {
      case .file(let data): node = .regularFile(.memory(data))
      case .symbolicLink(let destination): node = .symbolicLink(destination)
      case .directory(let children):
        var wrappers: [String: FileWrapper] = [:]
        for (name, child) in children {
          let wrapper = wrapper(for: child, display: display + "/" + name)
          wrapper.filename = name
          wrapper.preferredFilename = name
          wrappers[name] = wrapper
        }
        node = .directory(wrappers)
      }
      var attributes: [String: Any] = [:]
      if let permissions = item.permissions {
        attributes[FileAttributeKey.posixPermissions.rawValue] = Int(permissions & 0o7777)
      }
      if let time = item.time {
        attributes[FileAttributeKey.modificationDate.rawValue] = Date(
          timeIntervalSince1970: TimeInterval(time.seconds) + TimeInterval(time.nanoseconds) / 1e9)
      }
      FileWrapper.record(item.extendedAttributes, in: &attributes)
      return FileWrapper(node: node, displayPath: display, fileAttributes: attributes)
    }
  }
#endif
