public import Foundation

/// One item of a package: a folder of named children, a regular file, or a symbolic link.
///
/// Like Foundation's `FileWrapper`, a node read from disk knows its structure
/// (names, kinds, sizes) from the start but reads a file's bytes only when
/// asked, through ``regularFileContents()`` or, for big files, in chunks
/// through ``readContents(chunkSize:_:)``. Because the bytes come later, the
/// file may be gone by then: such a read throws `file-vanished` naming the file.
/// Nodes built in memory (``file(_:)``, ``directory(_:)``) hold their bytes.
public struct PackageNode: Sendable {
  /// How many bytes a chunked read hands over at a time.
  public static let readChunkSize = 256 * 1024

  /// What the node is.
  public enum Kind: String, Sendable, Hashable {
    case directory
    case regularFile
    case symbolicLink
  }

  /// Where a file's bytes are.
  enum Storage: Sendable {
    case directory([String: PackageNode])
    case memory(Data)
    case disk(URL, size: Int64)
    case symbolicLink(String)
  }

  var storage: Storage
  /// The path shown in messages (`Notebook.examplenotebook/pages/A.txt`).
  public internal(set) var displayPath: String
  /// The permission bits (`0o755`), when known; writers apply them.
  public var permissions: UInt16?
  /// When the item was last modified, when known; writers apply it.
  public var modificationDate: Date?

  init(
    storage: Storage, displayPath: String, permissions: UInt16? = nil, modificationDate: Date? = nil
  ) {
    self.storage = storage
    self.displayPath = displayPath
    self.permissions = permissions
    self.modificationDate = modificationDate
  }

  /// A regular file holding `data`.
  ///
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - permissions: Its permission bits, if they matter (an executable script).
  /// - Returns: The node.
  public static func file(_ data: Data, permissions: UInt16? = nil) -> PackageNode {
    PackageNode(storage: .memory(data), displayPath: "", permissions: permissions)
  }

  /// A folder holding named children.
  ///
  /// - Parameter children: The children by name; a name is one path component.
  /// - Returns: The node.
  public static func directory(_ children: [String: PackageNode]) -> PackageNode {
    PackageNode(storage: .directory(children), displayPath: "")
  }

  /// A symbolic link pointing at `destination`, stored verbatim.
  ///
  /// - Parameter destination: The link's target text.
  /// - Returns: The node.
  public static func symbolicLink(to destination: String) -> PackageNode {
    PackageNode(storage: .symbolicLink(destination), displayPath: "")
  }

  /// What the node is.
  public var kind: Kind {
    switch storage {
    case .directory: .directory
    case .memory, .disk: .regularFile
    case .symbolicLink: .symbolicLink
    }
  }

  /// The children of a folder by name, or `nil` for a file or link.
  public var children: [String: PackageNode]? {
    if case .directory(let children) = storage { return children }
    return nil
  }

  /// The names of a folder's children in byte order (stable across runs), or empty.
  public var sortedChildNames: [String] {
    (children ?? [:]).keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// A symbolic link's target text, or `nil`.
  public var symbolicLinkDestination: String? {
    if case .symbolicLink(let destination) = storage { return destination }
    return nil
  }

  /// A regular file's size in bytes, known without reading it; `nil` for folders and links.
  public var byteCount: Int64? {
    switch storage {
    case .memory(let data): Int64(data.count)
    case .disk(_, let size): size
    case .directory, .symbolicLink: nil
    }
  }

  /// The node at a relative path below this folder (`pages/A.txt`).
  ///
  /// - Parameter path: Components separated by `/`.
  /// - Returns: The node, or `nil` when a component is missing or not a folder.
  public func node(at path: String) -> PackageNode? {
    var current = self
    for component in path.split(separator: "/") where component != "." {
      guard let next = current.children?[String(component)] else { return nil }
      current = next
    }
    return current
  }

  /// Every regular file below this node with its relative path, in a stable order.
  public var regularFiles: [(path: String, node: PackageNode)] {
    var result: [(String, PackageNode)] = []
    func walk(_ node: PackageNode, _ prefix: String) {
      guard node.kind == .directory else {
        if node.kind == .regularFile { result.append((prefix, node)) }
        return
      }
      for name in node.sortedChildNames {
        if let child = node.children?[name] {
          walk(child, prefix.isEmpty ? name : prefix + "/" + name)
        }
      }
    }
    walk(self, "")
    return result
  }

  /// The whole content of a regular file, read now.
  ///
  /// - Returns: The bytes.
  /// - Throws: ``ExportError`` `file-vanished` naming the file when it is no longer there,
  ///   `read-failed` for other failures or when the node is not a regular file.
  public func regularFileContents() throws -> Data {
    var data = Data()
    if let size = byteCount { data.reserveCapacity(Int(clamping: size)) }
    try readContents { data.append($0) }
    return data
  }

  /// Hands a regular file's bytes to `body` in chunks, reading one chunk at a time.
  ///
  /// - Parameters:
  ///   - chunkSize: The most bytes per call.
  ///   - body: Receives each chunk in order; may throw to stop.
  /// - Throws: ``ExportError`` `file-vanished` or `read-failed`; whatever `body` throws.
  public func readContents(
    chunkSize: Int = PackageNode.readChunkSize, _ body: (Data) throws -> Void
  ) throws {
    switch storage {
    case .memory(let data):
      var offset = 0
      while offset < data.count {
        let end = min(offset + chunkSize, data.count)
        try body(data.subdata(in: offset..<end))
        offset = end
      }
    case .disk(let url, let size):
      let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW)
      guard descriptor >= 0 else {
        let code = errno
        if code == ENOENT || code == ENOTDIR {
          throw ExportError(
            .fileVanished,
            "'\(displayPath)' is gone: it was removed or moved after its package was opened",
            cause: POSIXErrorDescription(code))
        }
        throw ExportError(
          .readFailed, "cannot open '\(displayPath)'", cause: POSIXErrorDescription(code))
      }
      defer { close(descriptor) }
      // A small file needs no full-size buffer; one byte more than its size sees the end at once.
      let bufferSize = size >= 0 && size < Int64(chunkSize) ? Int(size) + 1 : chunkSize
      var buffer = [UInt8](repeating: 0, count: bufferSize)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, bufferSize) }
        if count < 0 {
          if errno == EINTR { continue }
          throw ExportError(
            .readFailed, "cannot read '\(displayPath)'", cause: POSIXErrorDescription(errno))
        }
        if count == 0 { break }
        try body(Data(buffer[0..<count]))
      }
    case .directory:
      throw ExportError(.readFailed, "'\(displayPath)' is a folder, not a file")
    case .symbolicLink:
      throw ExportError(.readFailed, "'\(displayPath)' is a symbolic link, not a file")
    }
  }

  /// Whether two regular files hold the same bytes (compared chunk by chunk when on disk).
  ///
  /// - Parameter other: The other node.
  /// - Returns: `true` when both are regular files with equal bytes, both links to the same
  ///   text, or both folders (children are compared by the caller).
  /// - Throws: ``ExportError`` when a file cannot be read.
  public func hasSameContent(as other: PackageNode) throws -> Bool {
    switch (storage, other.storage) {
    case (.directory, .directory): return true
    case (.symbolicLink(let a), .symbolicLink(let b)): return a == b
    case (.memory(let a), .memory(let b)): return a == b
    case (.directory, _), (_, .directory), (.symbolicLink, _), (_, .symbolicLink): return false
    default:
      guard byteCount == other.byteCount else { return false }
      // Bytes on disk: hold one side, stream the other against it.
      var mine = Data()
      var equal = true
      var theirsOffset = 0
      let theirs = other
      try readContents { mine.append($0) }
      try theirs.readContents { chunk in
        guard equal else { return }
        let end = theirsOffset + chunk.count
        if end > mine.count || mine.subdata(in: theirsOffset..<end) != chunk { equal = false }
        theirsOffset = end
      }
      return equal && theirsOffset == mine.count
    }
  }
}
