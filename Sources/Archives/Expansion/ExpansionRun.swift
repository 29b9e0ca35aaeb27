import FolioSystem
import FoundationEssentials
import ProgressReporting

/// One expansion's walk over the entries: the rules, the budgets and the writes.
///
/// The writes go to a ``ExpansionTarget``: a staging folder for `expand`, a tree in
/// memory for a file wrapper read from an archive, so both apply the same rules.
struct ExpansionRun<Target: ExpansionTarget> {
  let source: any ArchiveEntrySource
  let staging: Target
  let policy: ExpansionPolicy
  let reporter: ProgressManager?
  let budget: ExpansionBudget
  var ledger: ExpansionLedger
  /// Folder modes by top-level name, for the folder that becomes the destination.
  var directoryPermissions: [String: UInt32] = [:]
  private var reportedBytes: Int64 = 0
  private var counts = (files: 0, directories: 0, symbolicLinks: 0, hardLinks: 0)
  private var skipped: [EntryName] = []
  /// Attributes the archive holds that are not set: the first such, and how many.
  private var withheldAttributes: (first: String?, count: Int) = (nil, 0)
  /// AppleDouble entries read, waiting for every entry to be written: where their
  /// attributes go, and the entry they came from.
  private var appleDoubles:
    [(target: RelativePath, name: EntryName, attributes: [ExtendedAttribute])] =
      []
  private var appleDoubleBytes = 0
  private var appleDoubleNotes: [ArchiveWarning] = []
  /// The most bytes of AppleDouble data held until the end.
  static var appleDoubleBudget: Int { 64 << 20 }
  /// Attributes over the limits: the first such, and how many.
  private var oversizedAttributes: (first: String?, count: Int) = (nil, 0)
  private var sawEntries = false
  /// The file being written on this thread (without a writer thread).
  private var currentFile: Target.File?
  /// The selection's named paths met so far; one never met is an error.
  private var selectedPaths: Set<String> = []
  private let zipSummary: ZipExpansionCheck.Summary?
  /// The workers writing a zip's files, with more than one job, into a staging folder.
  private let extraction: ParallelZipExtraction?
  /// The thread writing a tar's (or other libarchive format's) entries while the next
  /// are decoded, with more than one job, into a staging folder. (A tree in memory is
  /// written on the expansion's thread: it has no disk to wait for.)
  private let writer: StagingWriter?

  /// Prepares a walk.
  ///
  /// - Parameters:
  ///   - source: The opened archive.
  ///   - staging: Where entries are written.
  ///   - policy: The rules and limits.
  ///   - reporter: Where progress goes and cancellation is checked.
  ///   - zipSummary: A zip's totals, from ``ZipExpansionCheck``.
  init(
    source: any ArchiveEntrySource, staging: Target, policy: ExpansionPolicy,
    reporter: ProgressManager?, zipSummary: ZipExpansionCheck.Summary?
  ) {
    self.source = source
    self.staging = staging
    self.policy = policy
    self.reporter = reporter
    self.zipSummary = zipSummary
    let budget = ExpansionBudget(policy: policy)
    self.budget = budget
    // A zip's check judged these names with this policy (the entries written are the ones
    // it read from the one directory), collisions included.
    ledger = ExpansionLedger(
      policy: policy, reservingPaths: zipSummary?.ledgerPaths ?? 0,
      pathBytes: zipSummary?.ledgerPathBytes ?? 0, collisionsChecked: zipSummary != nil)
    let jobs = ProcessorCount.jobs(policy.jobs)
    let folder = staging as? StagingFolder
    if jobs > 1, folder != nil, let zip = source as? ZipEntrySource,
      (zipSummary?.fileCount ?? 0) > 1
    {
      extraction = ParallelZipExtraction(
        archive: zip.archive, budget: budget, reporter: reporter, jobs: jobs)
    } else {
      extraction = nil
    }
    writer =
      jobs > 1 && !(source is ZipEntrySource) ? folder.map { StagingWriter(staging: $0) } : nil
  }

  /// Byte progress follows the bytes written when their total is known (zip), else the
  /// input bytes read.
  private var byteProgressFollowsOutput: Bool { zipSummary != nil }

  /// Prepares a walk of an archive, judging a zip's entries as a whole first
  /// (``zipSummary(of:policy:)``), for targets that have nothing to make before that.
  ///
  /// - Parameters:
  ///   - source: The opened archive.
  ///   - staging: Where entries go.
  ///   - policy: The rules and limits.
  ///   - reporter: Where progress goes and cancellation is checked.
  /// - Throws: ``PackagingError`` for the first entry a zip's check refuses.
  init(
    judging source: any ArchiveEntrySource, staging: Target, policy: ExpansionPolicy,
    reporter: ProgressManager?
  ) throws {
    self.init(
      source: source, staging: staging, policy: policy, reporter: reporter,
      zipSummary: try Self.zipSummary(of: source, policy: policy))
  }

  /// A zip's entries judged as a whole (totals, overlaps, names) before anything is written;
  /// `nil` for other formats, which are judged entry by entry.
  ///
  /// - Parameters:
  ///   - source: The opened archive.
  ///   - policy: The rules and limits.
  /// - Returns: The zip's totals, for ``init(source:staging:policy:reporter:zipSummary:)``.
  /// - Throws: ``PackagingError`` for the first entry the rules refuse.
  static func zipSummary(
    of source: any ArchiveEntrySource, policy: ExpansionPolicy
  ) throws -> ZipExpansionCheck.Summary? {
    guard let zip = source as? ZipEntrySource else { return nil }
    return try ZipExpansionCheck.check(zip.archive, policy: policy)
  }

  /// Writes every entry, ends the source, and judges every link against the folder the
  /// entries land in (after any unwrapping).
  ///
  /// - Returns: The archive's single top folder when it becomes the destination, else `nil`.
  /// - Throws: ``PackagingError`` for the first entry or link the rules refuse.
  mutating func expandAll() throws -> String? {
    try expandEntries()
    try source.finish()
    let top = policy.keepsTopFolder ? nil : ledger.singleTopFolder
    try ledger.verifySymbolicLinks(within: top)
    return top
  }

  private mutating func expandEntries() throws {
    if let zipSummary {
      // With a selection, how many files it takes is known only at the end.
      if policy.selection.isEverything { reporter?.totalFileCount += zipSummary.fileCount }
      reporter?.totalByteCount += UInt64(clamping: zipSummary.declaredBytes)
    } else if let size = source.inputSize {
      reporter?.totalByteCount += UInt64(clamping: size)
    }
    do {
      while let entry = try source.nextEntry() {
        try reporter?.checkCancellation()
        try expand(entry)
      }
      try extraction?.finish()
      try writer?.finish()
      applyAppleDoubles()
    } catch {
      // No worker touches a staged file once this returns.
      extraction?.abandon()
      // The writer's failure is an earlier entry's than the one being decoded.
      if let earlier = writer?.abandon() { throw earlier }
      throw error
    }
    if ledger.entryCount == 0 && !policy.selection.isEverything && sawEntries {
      throw PackagingError(.entryNotFound, "no entry of '\(sourceName)' is selected")
    }
    if ledger.entryCount == 0 {
      throw PackagingError(.emptyArchive, "'\(sourceName)' holds no entries")
    }
    if let missing = policy.selection.paths.first(where: { !selectedPaths.contains($0) }) {
      throw PackagingError(.entryNotFound, "'\(sourceName)' has no entry '\(missing)'")
    }
  }

  private var sourceName: String {
    (source as? ZipEntrySource)?.archive.name ?? (source as? LibArchiveSource)?.name ?? "archive"
  }

  private mutating func expand(_ entry: SourceEntry) throws {
    let info = entry.info
    let name = info.name
    sawEntries = true
    if !policy.selection.isEverything {
      let text = String(decoding: name.bytes, as: UTF8.self)
      guard policy.selection.selects(entryName: text) else {
        try discardData(of: entry)
        return
      }
      if let path = policy.selection.namedPath(selecting: text) { selectedPaths.insert(path) }
    }
    if entry.isEncrypted {
      throw PackagingError(.encryptedEntry, "entry \(name.display) is encrypted")
    }
    // A symbolic link without a target is refused by the ledger as an empty target.
    let linkTarget =
      info.kind == .symbolicLink ? (info.linkTarget ?? EntryName(bytes: [])) : info.linkTarget
    let admission = try ledger.admit(name, kind: info.kind, linkTarget: linkTarget)
    let permissions = ExpansionPolicy.permissions(fromEntryMode: info.permissions)
    let time = info.modificationTime.map {
      StagingFolder.Time(seconds: $0, nanoseconds: info.modificationNanoseconds)
    }
    let attributes = restorable(info.extendedAttributes, of: name)
    switch admission {
    case .root:
      try stage { $0.setRootAttributes(permissions: permissions, time: time) }
      if !attributes.isEmpty {
        try stage {
          $0.setExtendedAttributes(attributes, ofDirectory: RelativePath(components: []))
        }
      }
      try discardData(of: entry)
    case .skipAppleDouble:
      if try !foldAppleDouble(entry) {
        skipped.append(name)
        try discardData(of: entry)
      }
    case .expand(let path):
      switch info.kind {
      case .directory:
        try stage { try $0.makeDirectory(path, permissions: permissions, time: time) }
        if !attributes.isEmpty {
          try stage { $0.setExtendedAttributes(attributes, ofDirectory: path) }
        }
        if path.components.count == 1 { directoryPermissions[path.components[0]] = permissions }
        counts.directories += 1
        try discardData(of: entry)
      case .file:
        if let extraction, let folder = staging as? StagingFolder,
          let zip = source as? ZipEntrySource, let entry = zip.currentFile
        {
          // Written by a worker; reported in order as the workers finish.
          try budget.checkDeclared(name, size: entry.uncompressedSize)
          let file = try folder.createFile(path)
          try extraction.add(
            entry, file: file, permissions: permissions, time: time,
            distinctConsumed: source.distinctBytesConsumed)
          counts.files += 1
          break
        }
        reporter?.startFile(path.string, size: info.size)
        try writeFile(
          path, entry: entry, permissions: permissions, time: time, attributes: attributes)
        counts.files += 1
        reporter?.completeFile(path.string)
      case .hardLink:
        guard let target = info.linkTarget else { break }
        let targetPath = try ledger.hardLinkTarget(of: name, target: target)
        reporter?.startFile(path.string, size: 0)
        try stage { try $0.link(path, to: targetPath) }
        counts.hardLinks += 1
        reporter?.completeFile(path.string)
        try discardData(of: entry)
      case .symbolicLink:
        let target = info.linkTarget?.bytes ?? []
        try stage { $0.addSymbolicLink(path, target: target, time: time) }
        counts.symbolicLinks += 1
        // A zip's link target is data its byte total counts.
        if byteProgressFollowsOutput, let target = info.linkTarget, !target.bytes.isEmpty {
          addCompletedBytes(UInt64(target.bytes.count))
        }
        reporter?.startFile(path.string, size: 0)
        reporter?.completeFile(path.string)
        try discardData(of: entry)
      case .characterDevice, .blockDevice, .fifo, .socket:
        break  // the ledger refuses these
      }
    }
    reportInputProgress()
  }

  /// Writes a regular file's data, never more than declared or than the budgets allow.
  private mutating func writeFile(
    _ path: RelativePath, entry: SourceEntry, permissions: UInt32, time: StagingFolder.Time?,
    attributes: [ExtendedAttribute]
  ) throws {
    let name = entry.info.name
    let declared = entry.info.size
    if let declared { try budget.checkDeclared(name, size: declared) }
    var charges = budget.start(
      name, compressedSize: entry.compressedSize, consumed: source.bytesConsumed)
    if let writer {
      try writer.createFile(path)
    } else {
      currentFile = try staging.createFile(path)
    }
    defer { currentFile = nil }
    var logicalEnd: Int64 = 0
    while let block = try source.readBlock(of: name) {
      try reporter?.checkCancellation()
      let end = block.offset + Int64(block.bytes.count)
      if let declared, end > declared {
        throw PackagingError(
          .corruptArchive,
          "entry \(name.display) holds more data than the \(declared) bytes its header declares")
      }
      guard block.offset >= 0 else {
        throw PackagingError(.corruptArchive, "entry \(name.display) has data at a negative offset")
      }
      let grown = max(0, end - logicalEnd)
      logicalEnd = max(logicalEnd, end)
      try budget.charge(
        &charges, logical: grown, data: Int64(block.bytes.count),
        consumed: source.bytesConsumed, distinctConsumed: source.distinctBytesConsumed)
      if block.bytes.count > 0 {
        if let writer {
          try writer.write(block.bytes, at: block.offset)
        } else {
          try currentFile?.write(block.bytes, at: block.offset)
        }
      }
      if byteProgressFollowsOutput {
        reporter?.completedByteCount += UInt64(clamping: grown)
      } else {
        reportInputProgress()
      }
    }
    if let declared, logicalEnd < declared {
      guard entry.isSparse else {
        throw PackagingError(
          .corruptArchive,
          "entry \(name.display) is truncated: \(logicalEnd) of \(declared) declared bytes")
      }
      // A trailing hole, within the declared size: counted, never written.
      try budget.charge(
        &charges, logical: declared - logicalEnd, data: 0, consumed: source.bytesConsumed,
        distinctConsumed: source.distinctBytesConsumed)
      if let writer {
        try writer.extend(to: declared)
      } else {
        try currentFile?.extend(to: declared)
      }
    }
    if let writer {
      try writer.finishFile(permissions: permissions, time: time, attributes: attributes)
    } else {
      try currentFile?.finish(permissions: permissions, time: time, attributes: attributes)
    }
  }

  /// Where an AppleDouble entry's attributes belong: `__MACOSX/DIR/._NAME` and `DIR/._NAME`
  /// describe `DIR/NAME`.
  static func appleDoubleTarget(of path: RelativePath) -> RelativePath? {
    var components = path.components
    if components.first == "__MACOSX" { components.removeFirst() }
    guard let last = components.last, last.hasPrefix("._"), last.utf8.count > 2,
      !components.contains("__MACOSX")
    else { return nil }
    components[components.count - 1] = String(last.dropFirst(2))
    return RelativePath(components: components)
  }

  /// Reads an AppleDouble entry to set its attributes on the file it describes, at the end.
  ///
  /// - Returns: `false` when the entry is to be skipped as before (attributes not kept, not
  ///   a file, or it describes nothing).
  private mutating func foldAppleDouble(_ entry: SourceEntry) throws -> Bool {
    let name = entry.info.name
    guard policy.restoresExtendedAttributes, entry.info.kind == .file,
      let path = try ExpansionLedger.relativePath(of: name, policy: policy),
      let target = Self.appleDoubleTarget(of: path)
    else { return false }
    let declared = entry.info.size ?? 0
    guard declared <= Int64(AppleDouble.maximumSize),
      appleDoubleBytes + Int(declared) <= Self.appleDoubleBudget
    else {
      appleDoubleNotes.append(
        ArchiveWarning(
          code: "apple-double-not-read",
          message:
            "AppleDouble entry \(name.display) was skipped: it is larger than Folio reads (\(AppleDouble.maximumSize) bytes each, \(Self.appleDoubleBudget) in all)"
        ))
      return false
    }
    var bytes: [UInt8] = []
    var charges = budget.start(
      name, compressedSize: entry.compressedSize, consumed: source.bytesConsumed)
    while let block = try source.readBlock(of: name) {
      try budget.charge(
        &charges, logical: Int64(block.bytes.count), data: Int64(block.bytes.count),
        consumed: source.bytesConsumed, distinctConsumed: source.distinctBytesConsumed)
      let end = Int(block.offset) + block.bytes.count
      guard block.offset >= 0, end <= AppleDouble.maximumSize else {
        throw PackagingError(
          .corruptArchive, "entry \(name.display) holds more data than its header declares")
      }
      if bytes.count < end { bytes += [UInt8](repeating: 0, count: end - bytes.count) }
      bytes.replaceSubrange(Int(block.offset)..<end, with: block.bytes)
    }
    appleDoubleBytes += bytes.count
    let parsed: AppleDouble
    do {
      parsed = try AppleDouble(parsing: bytes)
    } catch {
      appleDoubleNotes.append(
        ArchiveWarning(
          code: "apple-double-malformed",
          message: "AppleDouble entry \(name.display) was skipped: \(error.reason)"))
      skipped.append(name)
      return true
    }
    let attributes = parsed.attributes.map {
      ExtendedAttribute(name: ExtendedAttribute.linuxName(fromMacOS: $0.name), value: $0.value)
    }
    appleDoubles.append((target, name, restorable(attributes, of: name)))
    return true
  }

  /// Sets the AppleDouble entries' attributes on the files and folders they describe.
  private mutating func applyAppleDoubles() {
    for double in appleDoubles {
      if !staging.setExtendedAttributes(double.attributes, ofExisting: double.target) {
        appleDoubleNotes.append(
          ArchiveWarning(
            code: "apple-double-orphan",
            message:
              "AppleDouble entry \(double.name.display) was skipped: the archive has no file \(EntryName(double.target.string).display) for its attributes"
          ))
        skipped.append(double.name)
      }
    }
    appleDoubles = []
  }

  /// The attributes of an entry the policy lets through: `user.*` (unless attributes are
  /// off) and the ACLs when asked, within the size and count limits; the rest are counted
  /// for one warning each kind.
  private mutating func restorable(_ attributes: [ExtendedAttribute], of name: EntryName)
    -> [ExtendedAttribute]
  {
    guard !attributes.isEmpty else { return [] }
    var kept: [ExtendedAttribute] = []
    for attribute in attributes {
      // Left out as asked: nothing to warn about.
      if !attribute.isACL && !policy.restoresExtendedAttributes { continue }
      let wanted =
        attribute.isACL
        ? policy.restoresACLs
        : policy.restoresExtendedAttributes && attribute.isRestorable(acls: false)
      guard wanted else {
        withheldAttributes.count += 1
        if withheldAttributes.first == nil {
          withheldAttributes.first = "'\(attribute.name)' of \(name.display)"
        }
        continue
      }
      guard attribute.value.count <= ExtendedAttribute.maximumValueSize,
        kept.count < ExtendedAttribute.maximumCount
      else {
        oversizedAttributes.count += 1
        if oversizedAttributes.first == nil {
          oversizedAttributes.first = "'\(attribute.name)' of \(name.display)"
        }
        continue
      }
      kept.append(attribute)
    }
    reporter?.completeExtendedAttributes(kept.count)
    return kept
  }

  /// What was not set, in words.
  private var attributeWarnings: [ArchiveWarning] {
    var warnings: [ArchiveWarning] = []
    if let first = withheldAttributes.first {
      warnings.append(
        ArchiveWarning(
          code: "extended-attribute-withheld",
          message:
            "\(Self.attributes(withheldAttributes.count)) not set (the first: \(first)): security.*, trusted.* and system.* are never set, and ACLs only when asked"
        ))
    }
    if let first = oversizedAttributes.first {
      warnings.append(
        ArchiveWarning(
          code: "extended-attribute-limit",
          message:
            "\(Self.attributes(oversizedAttributes.count)) not set (the first: \(first)): values are kept up to \(ExtendedAttribute.maximumValueSize) bytes, \(ExtendedAttribute.maximumCount) attributes an entry"
        ))
    }
    return warnings
  }

  private static func attributes(_ count: Int) -> String {
    count == 1 ? "1 extended attribute was" : "\(count) extended attributes were"
  }

  /// Reads and drops an entry's data (folders, links, skipped entries), so checksums are
  /// still verified; charged to the budgets like written data.
  private mutating func discardData(of entry: SourceEntry) throws {
    var charges = budget.start(
      entry.info.name, compressedSize: entry.compressedSize, consumed: source.bytesConsumed)
    while let block = try source.readBlock(of: entry.info.name) {
      try budget.charge(
        &charges, logical: Int64(block.bytes.count), data: Int64(block.bytes.count),
        consumed: source.bytesConsumed, distinctConsumed: source.distinctBytesConsumed)
    }
  }

  /// Runs a staging operation now, or hands it to the writer thread in order.
  private func stage(_ operation: @escaping @Sendable (Target) throws -> Void) throws {
    guard let writer else { return try operation(staging) }
    // A writer exists only when the target is a staging folder (see init).
    try writer.perform { folder in try operation(folder as! Target) }
  }

  /// Adds written bytes to the progress, in step with the workers' own additions.
  private func addCompletedBytes(_ count: UInt64) {
    guard let reporter else { return }
    if let extraction {
      extraction.addCompletedBytes(count)
    } else {
      reporter.completedByteCount += count
    }
  }

  private mutating func reportInputProgress() {
    guard !byteProgressFollowsOutput, let reporter, let size = source.inputSize else { return }
    let consumed = min(source.bytesConsumed, size)
    if consumed > reportedBytes {
      reporter.completedByteCount += UInt64(clamping: consumed - reportedBytes)
      reportedBytes = consumed
    }
  }

  func result(destination: URL, format: String) -> ExpansionResult {
    ExpansionResult(
      destination: destination, format: format, fileCount: counts.files,
      directoryCount: counts.directories, symbolicLinkCount: counts.symbolicLinks,
      hardLinkCount: counts.hardLinks, byteCount: budget.logicalBytes, skippedEntries: skipped,
      warnings: source.warnings + appleDoubleNotes + attributeWarnings
        + staging.attributeWarnings)
  }
}
