#if !canImport(Darwin)
  public import Archives
  public import FoundationEssentials

  extension FileWrapper {
    /// Writes the tree as an archive, reusing an earlier archive's unchanged entries.
    ///
    /// The archive holds the wrapper as its top folder (named by ``filename``, else
    /// ``preferredFilename``, else the archive's name without its extension), as
    /// `folio pack` writes a package: folders, files and symbolic links with the
    /// permissions and modification dates of their ``fileAttributes``, children in name
    /// order. With `previous` (a zip, usually `url` itself) each file whose path, size,
    /// modification time and mode match one of its entries has that entry's compressed
    /// bytes copied instead of being compressed again, the path `folio pack --update`
    /// takes (``PackOptions/previousArchive``); a `previous` where nothing exists packs
    /// afresh. The archive is written beside `url` and moved into place when complete.
    ///
    /// - Parameters:
    ///   - url: The archive to write; its format comes from `options` or its name.
    ///   - previous: An earlier zip whose entries may be reused, or `nil`.
    ///   - options: Format, compression and reproducibility (``PackOptions/previousArchive``
    ///     is replaced by `previous`; the selection and ``PackOptions/replacePolicy`` are
    ///     ignored: the archive replaces what is at `url`, as saving a document does).
    /// - Throws: ``PackagingError``: `update-needs-zip` for `previous` with another format,
    ///   a damaged `previous`, or a write failure.
    public func write(
      toArchiveAt url: URL, previous: URL?, options: PackOptions = PackOptions()
    ) throws {
      var options = options
      options.previousArchive = previous
      let format = try Packer.format(for: url, options: options)
      var reuse = try Packer.reuseIndex(options: options, format: format, output: url)
      let writerOptions = ArchiveWriterOptions(
        compressionLevel: options.compressionLevel, compression: options.compression,
        reproducible: options.reproducible || options.sourceDateEpoch != nil,
        sourceDateEpoch: options.sourceDateEpoch, typeRegistry: options.typeRegistry,
        jobs: options.jobs)
      let top =
        filename ?? preferredFilename ?? url.deletingPathExtension().lastPathComponent
      try withArchiveWriter(at: url, format: format, options: writerOptions) { writer in
        // Handed over: the writer lets go of the earlier archive once the new one is in place.
        writer.reuse = reuse.take()
        try Self.add(self, as: top, to: writer)
      }
    }

    private static func add(_ wrapper: FileWrapper, as path: String, to writer: ArchiveWriter)
      throws
    {
      let attributes = wrapper.fileAttributes
      let date =
        attributes[FileAttributeKey.modificationDate.rawValue] as? Date ?? Date()
      let permissions = (attributes[FileAttributeKey.posixPermissions.rawValue] as? Int)
        .map { UInt16(truncatingIfNeeded: $0 & 0o7777) }
      if let children = wrapper.fileWrappers {
        try writer.addDirectory(
          path,
          attributes: ArchiveEntryAttributes(
            permissions: permissions ?? 0o755, modificationTime: date))
        for name in children.keys.sorted() {
          try add(children[name]!, as: path + "/" + name, to: writer)
        }
      } else if let destination = wrapper.symbolicLinkDestinationURL {
        try writer.addSymbolicLink(
          path, target: destination.relativePath,
          attributes: ArchiveEntryAttributes(permissions: 0o755, modificationTime: date))
      } else {
        try writer.addFile(
          path, data: wrapper.regularFileContents ?? Data(),
          attributes: ArchiveEntryAttributes(
            permissions: permissions ?? 0o644, modificationTime: date))
      }
    }
  }
#endif
