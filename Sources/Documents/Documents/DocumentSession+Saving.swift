#if !canImport(SwiftUI)
  public import FoundationEssentials
  import Archives
  public import ProgressReporting
  public import UniformTypes

  extension DocumentSession where Document: WritableDocument, Document.Writer.Destination == URL {
    /// Saves the document where it is, in its content type.
    ///
    /// The writer gets the snapshot last read or written as `previous` (when it is of the
    /// writer's snapshot type), so an incremental writer rewrites only what changed.
    ///
    /// - Parameter progress: Two units: the snapshot taken, then written.
    /// - Throws: `untitled-document` for a document never saved; ``PackagingError``
    ///   `lock-timeout`; what the document or its writer throws (the file is then as it was).
    public func save(progress: consuming Subprogress = .untracked()) async throws {
      guard let url = configuration.fileURL else {
        throw ExportError(
          .untitledDocument, "the document has no file yet; save it to a location first")
      }
      try await write(
        to: url, contentType: contentType, sameDocument: true, replacing: true, moves: true,
        progress: progress)
    }

    /// Saves the document to another location or as another of its writable types, and
    /// makes that the document's file (Save As).
    ///
    /// - Parameters:
    ///   - url: Where to save.
    ///   - contentType: The type to save as: one of ``WritableDocument/writableContentTypes``.
    ///   - replacing: Whether something already at `url` may be replaced.
    ///   - progress: Two units: the snapshot taken, then written.
    /// - Throws: `unsupported-content-type`, `output-exists`, ``PackagingError``
    ///   `lock-timeout`, or what the document or its writer throws.
    public func save(
      to url: URL, contentType: UTType, replacing: Bool = false,
      progress: consuming Subprogress = .untracked()
    ) async throws {
      let same = isCurrentFile(url, contentType: contentType)
      try await write(
        to: url, contentType: contentType, sameDocument: same, replacing: replacing || same,
        moves: true, progress: progress)
    }

    /// Writes a copy of the document to another location or as another of its writable
    /// types; the session's document stays where it is.
    ///
    /// - Parameters:
    ///   - url: Where to write the copy.
    ///   - contentType: The type to write: one of ``WritableDocument/writableContentTypes``.
    ///   - replacing: Whether something already at `url` may be replaced.
    ///   - progress: Two units: the snapshot taken, then written.
    /// - Throws: As ``save(to:contentType:replacing:progress:)``.
    public func export(
      to url: URL, contentType: UTType, replacing: Bool = false,
      progress: consuming Subprogress = .untracked()
    ) async throws {
      guard !isCurrentFile(url, contentType: contentType) else {
        throw ExportError(
          .outputExists, "'\(url.path)' is the document itself; save it instead of exporting")
      }
      try await write(
        to: url, contentType: contentType, sameDocument: false, replacing: replacing,
        moves: false, progress: progress)
    }

    private func isCurrentFile(_ url: URL, contentType: UTType) -> Bool {
      guard let current = configuration.fileURL else { return false }
      return current.standardizedFileURL.path == url.standardizedFileURL.path
        && contentType == self.contentType
    }

    private func write(
      to url: URL, contentType: UTType, sameDocument: Bool, replacing: Bool, moves: Bool,
      progress: consuming Subprogress
    ) async throws {
      guard Document.writableContentTypes.contains(where: { contentType.conforms(to: $0) }) else {
        throw ExportError(
          .unsupportedContentType,
          "\(Document.self) cannot be saved as \(contentType.identifier) (it writes \(Document.writableContentTypes.map(\.identifier).joined(separator: ", ")))"
        )
      }
      try begin()
      defer { end() }
      let manager = progress.start(totalCount: 2)
      defer { manager.end() }
      let target = url.standardizedFileURL
      let slot = sameDocument ? fileWrappers : FileWrapperSlot()
      let snapshot = try await document.snapshot(contentType: contentType)
      let kept = SnapshotHolder(snapshot)
      manager.complete(count: 1)
      let writer = document.writer(
        configuration: DocumentWriteConfiguration(contentType: contentType, fileWrapperSlot: slot))
      let previous =
        sameDocument ? previousWritten?.value(as: Document.Writer.Snapshot.self) : nil
      let lock = try await PackageLock.acquire(
        .exclusive, on: target, options: configuration.lockOptions)
      defer { lock.release() }
      let staging = try DocumentStaging(
        target: target, replacing: replacing,
        linkingCurrentFiles: sameDocument && !(writer is any FreshDestinationWriter),
        creatingFolder: contentType.conforms(to: .directory))
      do {
        try await writer.write(
          snapshot: snapshot, to: staging.url, previous: previous,
          progress: manager.subprogress(assigningCount: 1))
        try staging.commit()
      } catch {
        staging.discard()
        throw error
      }
      slot.move(to: target)
      if moves {
        finishedWriting(kept, to: target, contentType: contentType, slot: slot)
      }
    }
  }
#endif
