import Archives
#if !canImport(Darwin)
  import FolioSystem
  public import FoundationEssentials

  extension FileWrapper {
    /// The most bytes ``init(serializedRepresentation:)`` expands a serialization to.
    static let serializationMemoryLimit: Int64 = 256 << 20

    /// The wrapper as one block of data, for the pasteboard, a network message or a
    /// database field; ``init(serializedRepresentation:)`` reads it back.
    ///
    /// Foundation's format is undocumented, so Folio's is its own and documented: a zip
    /// archive (PKWARE's APPNOTE). A directory wrapper is one top folder named after its
    /// ``preferredFilename`` (`Folder` when it has none) holding its children under the
    /// names ``write(to:options:originalContentsURL:)`` gives them; a regular file or a
    /// symbolic link is one entry of its name (`File`). Permissions and modification dates
    /// are kept as zip records them. The data is not interchangeable with Foundation's.
    ///
    /// `nil` when a child cannot be read (a lazily read file that is gone) or written.
    public var serializedRepresentation: Data? {
      try? serializedData()
    }

    /// Reads a wrapper from data made by ``serializedRepresentation``.
    ///
    /// The data is read as `expand` reads a zip archive, under ``ExpansionPolicy/default``
    /// and holding at most 256 MiB of file bytes: unsafe names, links that leave the tree,
    /// oversized or over-compressed entries are refused. Foundation's own (undocumented)
    /// serialization is not understood.
    ///
    /// - Parameter serializeRepresentation: The data; `nil` is returned when it is not a
    ///   serialization Folio can read.
    public convenience init?(serializedRepresentation serializeRepresentation: Data) {
      guard let (node, name, attributes) = try? Self.readSerialization(serializeRepresentation)
      else { return nil }
      self.init(
        node: node, displayPath: "(serialized file wrapper)/" + name, fileAttributes: attributes)
      preferredFilename = name
    }

    private func serializedData() throws -> Data {
      let folder = try Self.makeScratchFolder()
      defer { FileTree.remove(atPath: folder) }
      let archive = URL(fileURLWithPath: folder + "/wrapper.zip")
      try withArchiveWriter(at: archive, format: .zip) { writer in
        let name = preferredFilename ?? filename ?? (isDirectory ? "Folder" : "File")
        try FileWrapperTreeWriter.checkName(name, in: "(serialized file wrapper)")
        try addEntries(named: name, to: writer)
      }
      return Data(try FileContents.read(atPath: archive.path))
    }

    private func addEntries(named path: String, to writer: ArchiveWriter) throws {
      let attributes = ArchiveEntryAttributes(
        permissions: UInt16(recordedPermissions ?? (isDirectory ? 0o755 : 0o644)),
        modificationTime: recordedModificationDate ?? Date(timeIntervalSince1970: 0))
      switch node {
      case .regularFile:
        try writer.addFile(path, data: try readRegularFileContents(), attributes: attributes)
      case .symbolicLink(let destination):
        try writer.addSymbolicLink(path, target: destination, attributes: attributes)
      case .directory(let children):
        try writer.addDirectory(path, attributes: attributes)
        var used = Set(children.keys.filter { !$0.contains(FileWrapper.uniquingMarker) })
        for key in children.keys.sorted() {
          guard let child = children[key] else { continue }
          let name = FileWrapperTreeWriter.fileName(for: key, child: child, used: &used)
          try FileWrapperTreeWriter.checkName(name, in: path)
          try child.addEntries(named: path + "/" + name, to: writer)
        }
      }
    }

    private static func readSerialization(_ data: Data) throws -> (Node, String, [String: Any]) {
      let folder = try makeScratchFolder()
      defer { FileTree.remove(atPath: folder) }
      let archive = URL(fileURLWithPath: folder + "/wrapper.zip")
      try data.write(to: archive)
      let (node, name, attributes) = try readArchive(
        archive, policy: .default, memoryLimit: serializationMemoryLimit, reporter: nil)
      // A lone file or link reads as a root of one entry, with no folder entry (so no
      // recorded attributes) of its own; a directory wrapper reads as its top folder.
      if case .directory(let children) = node, name == "wrapper", attributes.isEmpty,
        children.count == 1,
        let (childName, child) = children.first, !child.isDirectory
      {
        return (child.node, childName, child.fileAttributes)
      }
      return (node, name, attributes)
    }

    private static func makeScratchFolder() throws -> String {
      let path =
        FileManager.default.temporaryDirectory.path + "/folio-wrapper-"
        + UUID().uuidString
      do {
        try FileTree.createFolders(atPath: path, permissions: 0o700)
      } catch {
        throw PackagingError(
          .fileWriteFailed, "cannot create a temporary folder at '\(path)'", cause: error)
      }
      return path
    }
  }
#endif
