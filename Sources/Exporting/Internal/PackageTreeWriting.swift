import FolioSystem
import Foundation
import Packaging

/// Writes ``PackageNode`` trees to disk: whole (into a hidden sibling, then renamed)
/// or as an update of an existing package (only changed files, each atomically).
struct PackageTreeWriting {
  /// What an update did, for callers and tests.
  struct Summary: Sendable, Equatable {
    var written: [String] = []
    var unchanged: [String] = []
    var removed: [String] = []
  }

  let reporter: ProgressManager?
  private(set) var summary = Summary()

  init(reporter: ProgressManager?) { self.reporter = reporter }

  /// Writes a whole tree at `target` (a folder tree, or a single file).
  mutating func writeAll(_ tree: PackageNode, to target: URL, overwrite: Bool, display: String)
    throws
  {
    if !overwrite && AtomicOutput.exists(target) { throw AtomicOutput.outputExists(display) }
    let files = tree.regularFiles
    reporter?.setCounts { _, total in total = max(1, files.count) }
    reporter?.totalFileCount += files.count
    reporter?.totalByteCount += UInt64(
      clamping: files.reduce(0) { $0 + ($1.node.byteCount ?? 0) })
    let temporary = AtomicOutput.temporarySibling(of: target)
    var committed = false
    defer { if !committed { removeTree(temporary) } }
    try materialize(tree, at: temporary, relative: "", display: display)
    try AtomicOutput.commit(temporary, to: target, overwrite: overwrite, display: display)
    committed = true
  }

  /// Updates the package at `target`, which holds `previous`, so that it holds `tree`.
  mutating func update(
    _ target: URL, from previous: PackageNode, to tree: PackageNode, display: String
  ) throws {
    let files = tree.regularFiles
    reporter?.setCounts { _, total in total = max(1, files.count) }
    try updateNode(tree, previous: previous, at: target, relative: "", display: display)
    removeMissing(previous, kept: tree, at: target, relative: "")
  }

  // MARK: Whole trees

  private mutating func materialize(
    _ node: PackageNode, at url: URL, relative: String, display: String
  ) throws {
    try reporter?.checkCancellation()
    let shown = relative.isEmpty ? display : display + "/" + relative
    switch node.kind {
    case .directory:
      guard mkdir(url.path, mode_t(node.permissions.map { $0 | 0o700 } ?? 0o755)) == 0 else {
        throw ExportError(
          .writeFailed, "cannot create the folder '\(shown)'", cause: POSIXErrorDescription(errno))
      }
      for name in node.sortedChildNames {
        try Self.checkName(name, in: shown)
        guard let child = node.children?[name] else { continue }
        try materialize(
          child, at: url.appendingPathComponent(name),
          relative: relative.isEmpty ? name : relative + "/" + name, display: display)
      }
      // The folder's entries reach the disk before the tree is renamed into place.
      AtomicOutput.syncDirectory(url)
      applyAttributes(of: node, to: url)
    case .symbolicLink:
      guard symlink(node.symbolicLinkDestination ?? "", url.path) == 0 else {
        throw ExportError(
          .writeFailed, "cannot create the link '\(shown)'", cause: POSIXErrorDescription(errno))
      }
    case .regularFile:
      try writeFile(node, at: url, shown: shown)
      summary.written.append(relative)
    }
  }

  private func writeFile(_ node: PackageNode, at url: URL, shown: String) throws {
    let mode = mode_t(node.permissions ?? 0o644)
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw ExportError(
        .writeFailed, "cannot create '\(shown)'", cause: POSIXErrorDescription(errno))
    }
    defer { close(descriptor) }
    reporter?.startFile(shown, size: node.byteCount)
    try node.readContents { chunk in
      try reporter?.checkCancellation()
      try chunk.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let written = SystemCall.retryingInterrupts {
            Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
          }
          if written < 0 {
            throw ExportError(
              .writeFailed, "cannot write '\(shown)'", cause: POSIXErrorDescription(errno))
          }
          offset += written
        }
      }
      reporter?.completedByteCount += UInt64(chunk.count)
    }
    guard SystemCall.retryingInterrupts({ fsync(descriptor) }) == 0 else {
      throw ExportError(
        .writeFailed, "cannot sync '\(shown)' to disk", cause: POSIXErrorDescription(errno))
    }
    if let permissions = node.permissions { fchmod(descriptor, mode_t(permissions)) }
    applyAttributes(of: node, to: url)
    reporter?.completeFile(shown)
    reporter?.complete(count: 1)
  }

  private func applyAttributes(of node: PackageNode, to url: URL) {
    if node.kind == .directory, let permissions = node.permissions {
      chmod(url.path, mode_t(permissions))
    }
    guard let date = node.modificationDate else { return }
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let nanoseconds = Int((date.timeIntervalSince1970 - seconds) * 1e9)
    let time = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
    var times = [time, time]
    utimensat(AT_FDCWD, url.path, &times, AT_SYMLINK_NOFOLLOW)
  }

  // MARK: Updates

  private mutating func updateNode(
    _ node: PackageNode, previous: PackageNode?, at url: URL, relative: String, display: String
  ) throws {
    try reporter?.checkCancellation()
    let shown = relative.isEmpty ? display : display + "/" + relative
    switch node.kind {
    case .directory:
      if !AtomicOutput.isDirectory(url) {
        if AtomicOutput.exists(url) { try? FileManager.default.removeItem(at: url) }
        guard mkdir(url.path, 0o755) == 0 else {
          throw ExportError(
            .writeFailed, "cannot create the folder '\(shown)'", cause: POSIXErrorDescription(errno)
          )
        }
      }
      for name in node.sortedChildNames {
        try Self.checkName(name, in: shown)
        guard let child = node.children?[name] else { continue }
        let previousChild = previous?.kind == .directory ? previous?.children?[name] : nil
        try updateNode(
          child, previous: previousChild, at: url.appendingPathComponent(name),
          relative: relative.isEmpty ? name : relative + "/" + name, display: display)
      }
    case .regularFile, .symbolicLink:
      if let previous, AtomicOutput.exists(url), try previous.hasSameContent(as: node) {
        summary.unchanged.append(relative)
        if node.kind == .regularFile { reporter?.complete(count: 1) }
        return
      }
      let temporary = AtomicOutput.temporarySibling(of: url)
      var committed = false
      defer { if !committed { removeTree(temporary) } }
      if node.kind == .symbolicLink {
        guard symlink(node.symbolicLinkDestination ?? "", temporary.path) == 0 else {
          throw ExportError(
            .writeFailed, "cannot create the link '\(shown)'", cause: POSIXErrorDescription(errno))
        }
      } else {
        try writeFile(node, at: temporary, shown: shown)
      }
      try AtomicOutput.commit(temporary, to: url, overwrite: true, display: shown)
      committed = true
      summary.written.append(relative)
    }
  }

  private mutating func removeMissing(
    _ previous: PackageNode, kept: PackageNode?, at url: URL, relative: String
  ) {
    guard previous.kind == .directory else { return }
    for name in previous.sortedChildNames {
      guard let child = previous.children?[name] else { continue }
      let childURL = url.appendingPathComponent(name)
      let childRelative = relative.isEmpty ? name : relative + "/" + name
      if let keptChild = kept?.children?[name] {
        if keptChild.kind == .directory {
          removeMissing(child, kept: keptChild, at: childURL, relative: childRelative)
        }
      } else if AtomicOutput.exists(childURL) {
        removeTree(childURL)
        summary.removed.append(childRelative)
      }
    }
  }

  /// Refuses names that would leave their folder or cannot be created.
  static func checkName(_ name: String, in folder: String) throws {
    if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\0") {
      throw ExportError(
        .writeFailed, "refusing to write the entry '\(name)' in '\(folder)': not a plain file name")
    }
  }
}

/// Removes a file or a whole folder tree, ignoring what is already gone.
func removeTree(_ url: URL) {
  guard AtomicOutput.exists(url) else { return }
  try? FileManager.default.removeItem(at: url)
}
