import Archives
#if canImport(Darwin)
  // Foundation on Apple's platforms has FileWrapper; Folio's would shadow it.
#else
  public import FoundationEssentials

  /// A file, folder or symbolic link, in memory or on disk: Foundation's `FileWrapper` for Linux.
  ///
  /// The API is Foundation's (`NSFileWrapper`), so document code written for
  /// Apple's platforms builds against Folio. Three kinds of wrapper:
  /// - a *regular file* holds bytes: ``init(regularFileWithContents:)``, or read
  ///   from disk lazily by ``init(url:options:)``;
  /// - a *directory* holds named children: ``init(directoryWithFileWrappers:)``,
  ///   ``addFileWrapper(_:)``, ``fileWrappers``;
  /// - a *symbolic link* holds a destination.
  ///
  /// Reading a folder records its structure (names, kinds, sizes, permissions,
  /// modification dates) at once and a file's bytes only when asked for
  /// (``regularFileContents``), so a program can open a large package and read
  /// one file of it. Because the bytes come later, the file may be gone or changed
  /// by then: ``regularFileContents`` is `nil` and ``readRegularFileContents()``
  /// throws `file-vanished` or `file-replaced` naming the file.
  ///
  /// Writing (``write(to:options:originalContentsURL:)``) rewrites only what
  /// changed when given the previous version's location: a file whose bytes are
  /// the same as the original's is hard-linked, keeping its inode and
  /// modification date.
  ///
  /// A wrapper is a reference type and not `Sendable`: hand a tree to one task at a time.
  open class FileWrapper {
    /// What the wrapper is.
    enum Node {
      case regularFile(RegularFileStorage)
      case directory([String: FileWrapper])
      case symbolicLink(String)
    }

    var node: Node
    /// The directory wrappers holding this one, so a change of ``preferredFilename``
    /// re-keys it in each, as Foundation's does.
    var parentLinks: [ParentLink] = []
    /// How messages name the item (the path it was read from, or its name).
    var displayPath: String
    /// The item's file-system identity when it was last read from or written to disk.
    var identity: FileIdentity?

    /// The name the wrapper prefers when added to a directory or written.
    ///
    /// Changing it re-keys the wrapper in the directory wrappers that hold it: each removes
    /// the child and adds it again under the new name (made unique there), as Foundation's
    /// `FileWrapper` does.
    open var preferredFilename: String? {
      didSet {
        guard preferredFilename != oldValue else { return }
        for link in parentLinks { link.directory?.rekey(self) }
      }
    }
    /// The name of the file-system item the wrapper was last read from or written to.
    open var filename: String?
    /// The item's attributes, keyed by `FileAttributeKey` raw values: Folio records and
    /// writes `posixPermissions` and `modificationDate`.
    open var fileAttributes: [String: Any]

    init(node: Node, displayPath: String, fileAttributes: [String: Any] = [:]) {
      self.node = node
      self.displayPath = displayPath
      self.fileAttributes = fileAttributes
      linkChildren()
    }

    // MARK: Creating wrappers in memory

    /// Creates a regular-file wrapper holding `contents`.
    ///
    /// The wrapper is not tied to any file until it is written.
    ///
    /// - Parameter contents: The file's bytes.
    public init(regularFileWithContents contents: Data) {
      node = .regularFile(.memory(contents))
      displayPath = "(file in memory)"
      fileAttributes = [:]
    }

    /// Creates a directory wrapper holding `childrenByPreferredName`.
    ///
    /// Each child's ``preferredFilename`` becomes its key when it has none.
    ///
    /// - Parameter childrenByPreferredName: The children, by file name.
    public init(directoryWithFileWrappers childrenByPreferredName: [String: FileWrapper]) {
      for (name, child) in childrenByPreferredName where child.preferredFilename == nil {
        child.preferredFilename = name
      }
      node = .directory(childrenByPreferredName)
      displayPath = "(folder in memory)"
      fileAttributes = [:]
      linkChildren()
    }

    /// Creates a symbolic-link wrapper pointing at `url`.
    ///
    /// A URL relative to a base (`URL(fileURLWithPath: "pages/a.txt", relativeTo: base)`)
    /// is written as the relative path; any other URL as its absolute path.
    ///
    /// - Parameter url: The link's destination.
    public init(symbolicLinkWithDestinationURL url: URL) {
      node = .symbolicLink(url.baseURL == nil ? url.path : url.relativePath)
      displayPath = "(link in memory)"
      fileAttributes = [:]
    }

    // MARK: Kind

    /// Whether the wrapper is a regular file.
    open var isRegularFile: Bool {
      if case .regularFile = node { return true }
      return false
    }

    /// Whether the wrapper is a directory.
    open var isDirectory: Bool {
      if case .directory = node { return true }
      return false
    }

    /// Whether the wrapper is a symbolic link.
    open var isSymbolicLink: Bool {
      if case .symbolicLink = node { return true }
      return false
    }

    // MARK: Contents

    /// A regular file's bytes, read on first access and kept.
    ///
    /// `nil` for other kinds, and when a lazily read file can no longer be read
    /// (removed, changed, unreadable); ``readRegularFileContents()`` says why.
    open var regularFileContents: Data? {
      try? readRegularFileContents()
    }

    /// A directory's children by key (the unique name each was added under); `nil` for
    /// other kinds.
    open var fileWrappers: [String: FileWrapper]? {
      if case .directory(let children) = node { return children }
      return nil
    }

    /// A symbolic link's destination; `nil` for other kinds.
    ///
    /// A relative destination is a URL relative to the link's folder, so its
    /// `relativePath` is the text stored in the link.
    open var symbolicLinkDestinationURL: URL? {
      guard case .symbolicLink(let destination) = node else { return nil }
      if destination.hasPrefix("/") { return URL(fileURLWithPath: destination) }
      let base = URL(fileURLWithPath: displayPath).deletingLastPathComponent()
      return URL(fileURLWithPath: destination, relativeTo: base)
    }

    // MARK: Disk

    /// Rereads the wrapper from `url`, keeping the children that still match it.
    ///
    /// A directory keeps the child objects whose items are unchanged (by
    /// ``matchesContents(of:)``), rereads the others, adds new ones and drops the
    /// ones gone from disk. A regular file whose modification date or size changed
    /// forgets its bytes and reads them again on next access.
    ///
    /// - Parameters:
    ///   - url: The item to read.
    ///   - options: ``ReadingOptions/immediate`` to read every file's bytes now.
    /// - Throws: As ``init(url:options:)``; the wrapper is unchanged then.
    open func read(from url: URL, options: ReadingOptions = []) throws {
      try FileWrapper.throwingCocoaErrors(reading: url) {
        try reread(from: url, options: options)
      }
    }

    /// Whether the wrapper matches the item at `url`: regular files by modification date
    /// and size (bytes are not compared), directories by their children recursively,
    /// symbolic links by destination.
    ///
    /// - Parameter url: The item to compare with.
    /// - Returns: `true` when the item is of the same kind and matches.
    open func matchesContents(of url: URL) -> Bool {
      matches(path: url.standardizedFileURL.path, comparingPermissions: false)
    }

    /// Whether the wrapper no longer matches the item at `path`: for regular files, by
    /// modification date and permissions; for directories, by their members recursively;
    /// for symbolic links, by destination.
    ///
    /// - Parameter path: The item to compare with.
    /// - Returns: `true` when the wrapper should be reread from `path`.
    open func needsToBeUpdated(fromPath path: String) -> Bool {
      !matches(
        path: URL(fileURLWithPath: path).standardizedFileURL.path, comparingPermissions: true)
    }

    /// Writes the wrapper to `url`.
    ///
    /// Given `originalContentsURL` (the previous version of the same document), a
    /// regular file whose bytes equal the original's file at the same place is
    /// hard-linked rather than written: its inode and modification date stay, and
    /// nothing is rewritten that did not change. A wrapper read from that original and
    /// still unchanged is linked without reading it.
    ///
    /// With ``WritingOptions/atomic`` the tree is written beside `url` under a temporary
    /// name, flushed to disk and renamed into place, replacing what is there (a folder is
    /// swapped in one step); a failure leaves `url` as it was. Without it, a regular
    /// file is written in place and a directory must not exist yet.
    ///
    /// - Parameters:
    ///   - url: Where to write.
    ///   - options: ``WritingOptions/atomic``, ``WritingOptions/withNameUpdating``.
    ///   - originalContentsURL: The previous version's location, to reuse unchanged files.
    /// - Throws: What Apple's `FileWrapper` throws: `CocoaError` `fileWriteFileExists`,
    ///   `fileWriteNoPermission`, `fileWriteOutOfSpace`, `fileWriteVolumeReadOnly`,
    ///   `fileNoSuchFile` (the folder to write in is missing) or `fileWriteUnknown`, with the
    ///   URL and path and Folio's ``PackagingError`` naming the item as
    ///   `NSUnderlyingErrorKey`.
    open func write(to url: URL, options: WritingOptions = [], originalContentsURL: URL?) throws {
      try FileWrapper.throwingCocoaErrors(writing: url) {
        try writeTree(to: url, options: options, originalContentsURL: originalContentsURL)
      }
    }

    // MARK: Children

    /// The prefix Foundation gives a key when a directory already holds a child with that name.
    static let uniquingMarker = "__#$!@%!#__"

    /// Adds a child to a directory wrapper under its preferred name, made unique.
    ///
    /// - Parameter child: The wrapper to add; it must have a ``preferredFilename``.
    /// - Returns: The key it was stored under: its preferred name, or, when that is
    ///   taken, the name with a numbered prefix (`1__#$!@%!#__page.txt`), as Foundation does.
    ///   A prefixed child is written under a free name (`page 2.txt`).
    @discardableResult
    open func addFileWrapper(_ child: FileWrapper) -> String {
      guard case .directory(var children) = node else {
        preconditionFailure("addFileWrapper(_:) needs a directory file wrapper")
      }
      guard let name = child.preferredFilename ?? child.filename, !name.isEmpty else {
        preconditionFailure("addFileWrapper(_:) needs a child with a preferredFilename")
      }
      var key = name
      var number = 1
      while children[key] != nil {
        key = "\(number)\(Self.uniquingMarker)\(name)"
        number += 1
      }
      children[key] = child
      node = .directory(children)
      child.addParentLink(self)
      return key
    }

    /// Adds a regular file holding `data` to a directory wrapper.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - fileName: Its preferred name.
    /// - Returns: The key it was stored under (see ``addFileWrapper(_:)``).
    @discardableResult
    open func addRegularFile(withContents data: Data, preferredFilename fileName: String) -> String
    {
      let child = FileWrapper(regularFileWithContents: data)
      child.preferredFilename = fileName
      return addFileWrapper(child)
    }

    /// Removes a child from a directory wrapper; does nothing when it is not a child.
    ///
    /// - Parameter child: The wrapper to remove (compared by identity).
    open func removeFileWrapper(_ child: FileWrapper) {
      guard case .directory(var children) = node,
        let key = keyForChildFileWrapper(child)
      else { return }
      children[key] = nil
      node = .directory(children)
      if !children.values.contains(where: { $0 === child }) {
        child.parentLinks.removeAll { $0.directory == nil || $0.directory === self }
      }
    }

    /// The key a child is stored under in this directory wrapper.
    ///
    /// - Parameter child: The child (compared by identity).
    /// - Returns: Its key, or `nil` when it is not a child.
    open func keyForChildFileWrapper(_ child: FileWrapper) -> String? {
      fileWrappers?.first { $0.value === child }?.key
    }

    // MARK: Parents

    /// A directory wrapper holding this one, held weakly: a child never keeps its parent.
    struct ParentLink {
      weak var directory: FileWrapper?
    }

    /// Records this wrapper as the parent of each of its children.
    func linkChildren() {
      guard case .directory(let children) = node else { return }
      for child in children.values { child.addParentLink(self) }
    }

    func addParentLink(_ directory: FileWrapper) {
      parentLinks.removeAll { $0.directory == nil }
      if !parentLinks.contains(where: { $0.directory === directory }) {
        parentLinks.append(ParentLink(directory: directory))
      }
    }

    /// Moves a child to the key its new preferred name gives, made unique as
    /// ``addFileWrapper(_:)`` makes it; a child whose name was cleared keeps its key.
    func rekey(_ child: FileWrapper) {
      guard case .directory(var children) = node, let old = keyForChildFileWrapper(child),
        let name = child.preferredFilename, !name.isEmpty, name != old
      else { return }
      children[old] = nil
      node = .directory(children)
      addFileWrapper(child)
    }
  }
#endif
