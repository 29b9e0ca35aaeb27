extension ProgressManager {
  /// Announces that work on one file begins: sets ``Properties/currentFile``
  /// and tells observers, with the file's size.
  ///
  /// Folio's addition to SF-0023's API, for displays that list files as they
  /// go (`folio … --progress json`).
  ///
  /// - Parameters:
  ///   - path: The file's path as the user will recognise it (an entry name).
  ///   - size: Its size in bytes, if known.
  public func startFile(_ path: String, size: Int64?) {
    // The meter's own current file is set by its `startFile`.
    storeCurrentFile(path)
    meter.startFile(path, size: size)
  }

  /// Announces that work on one file ended: adds one to
  /// ``Properties/completedFileCount`` and tells observers.
  ///
  /// - Parameter path: The path given to ``startFile(_:size:)``.
  public func completeFile(_ path: String) {
    self.completedFileCount += 1
    meter.completeFile(path)
  }

  /// Whether an observer is told of each file as it starts and ends: while none is, a
  /// run of files can be reported at once with ``completeFiles(_:lastPath:)``.
  package var followsFiles: Bool { meter.isObserved }

  /// Reports files that ended together, none of them announced: adds `count` to
  /// ``Properties/completedFileCount`` and makes `lastPath` the current file, as
  /// ``startFile(_:size:)`` and ``completeFile(_:)`` for each would have left them.
  ///
  /// For a writer that passes thousands of files a second while ``followsFiles`` is
  /// false; each file's events are for observers, who are not there.
  ///
  /// - Parameters:
  ///   - count: How many files.
  ///   - lastPath: The last of them.
  package func completeFiles(_ count: Int, lastPath: String) {
    guard count > 0 else { return }
    storeCurrentFile(lastPath)
    self.completedFileCount += count
  }

  /// Counts extended attributes (and ACLs) an operation stored or set, which its
  /// snapshots carry as ``ProgressSnapshot/extendedAttributeCount``.
  ///
  /// Folio's addition to SF-0023's API, for `folio … --progress json`.
  ///
  /// - Parameter count: How many.
  public func completeExtendedAttributes(_ count: Int) {
    guard count > 0 else { return }
    meter.addExtendedAttributes(count)
  }
}
