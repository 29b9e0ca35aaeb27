import Foundation

/// Lists an archive's entries as their headers describe them, like `bsdtar -tv`.
///
/// Listing applies no safety rule (a hostile archive lists fine, names
/// escaped by ``EntryName/display``), but a damaged archive is still an
/// error: a bad header, a truncated stream or a gzip trailer that does not
/// match the data. Memory stays flat: entries are handed over one at a time.
public enum ArchiveLister {
  /// Calls `body` with each entry, in archive order.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - body: Called once per entry.
  /// - Returns: The archive's format and compression as libarchive names them.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, …), or what `body` throws.
  @discardableResult
  public static func forEachEntry(
    in archive: URL, _ body: (ArchiveEntryInfo) throws -> Void
  ) throws -> String {
    try forEachEntry(in: .file(archive), body)
  }

  /// Calls `body` with each entry of an archive in a file or on standard input.
  ///
  /// A zip on a pipe is copied to an unnamed temporary file first (its central
  /// directory is at its end), within ``ExpansionPolicy/default``'s byte limit.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - body: Called once per entry.
  /// - Returns: The archive's format and compression.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, …), or what `body` throws.
  @discardableResult
  public static func forEachEntry(
    in input: ArchiveInput, _ body: (ArchiveEntryInfo) throws -> Void
  ) throws -> String {
    let source = try ArchiveOpener.open(input, policy: .default)
    var count = 0
    while let entry = try source.nextEntry() {
      count += 1
      try body(entry.info)
    }
    try source.finish()
    if count == 0 {
      throw PackagingError(.emptyArchive, "'\(input.displayName)' holds no entries")
    }
    return source.formatDescription
  }

  /// Every entry of an archive, in archive order.
  ///
  /// - Parameter archive: The archive file.
  /// - Returns: The entries.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, …).
  public static func entries(of archive: URL) throws -> [ArchiveEntryInfo] {
    var entries: [ArchiveEntryInfo] = []
    try forEachEntry(in: archive) { entries.append($0) }
    return entries
  }

  /// One line of `bsdtar -tv`-style listing: mode, links, owner, group, size, date, name.
  ///
  /// ```
  /// -rw-r--r--  0 alice  staff     1234 Nov 14  2023 Notebook/metadata.json
  /// lrwxr-xr-x  0 alice  staff        0 Nov 14  2023 Notebook/latest -> pages/a.txt
  /// ```
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - now: The current time, deciding between `HH:MM` (recent) and the year.
  /// - Returns: The line, without a newline; the name is escaped.
  public static func line(for entry: ArchiveEntryInfo, now: Date = Date()) -> String {
    var mode = String(entry.kind.letter == "h" ? "-" : entry.kind.letter)
    let bits = entry.permissions
    let letters: [(UInt32, Character)] = [
      (0o400, "r"), (0o200, "w"), (0o100, "x"), (0o040, "r"), (0o020, "w"), (0o010, "x"),
      (0o004, "r"), (0o002, "w"), (0o001, "x"),
    ]
    for (index, (bit, letter)) in letters.enumerated() {
      var character: Character = bits & bit != 0 ? letter : "-"
      if index == 2 && bits & 0o4000 != 0 { character = bits & bit != 0 ? "s" : "S" }
      if index == 5 && bits & 0o2000 != 0 { character = bits & bit != 0 ? "s" : "S" }
      if index == 8 && bits & 0o1000 != 0 { character = bits & bit != 0 ? "t" : "T" }
      mode.append(character)
    }
    let owner = entry.ownerName.flatMap { $0.isEmpty ? nil : $0 } ?? String(entry.ownerID)
    let group = entry.groupName.flatMap { $0.isEmpty ? nil : $0 } ?? String(entry.groupID)
    let size = entry.kind == .file ? (entry.size ?? 0) : 0
    let date = entry.modificationTime.map { formatDate($0, now: now) } ?? "            "
    var name = EntryName.escape(entry.name.bytes, limit: Int.max)
    if let target = entry.linkTarget {
      let escaped = EntryName.escape(target.bytes, limit: Int.max)
      name += entry.kind == .hardLink ? " link to \(escaped)" : " -> \(escaped)"
    }
    return
      "\(mode)  0 \(pad(owner, 8)) \(pad(group, 8)) \(padLeft(String(size), 8)) \(date) \(name)"
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  private static func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }

  /// `Nov 14 22:13` within six months of now, `Nov 14  2023` otherwise, in UTC.
  private static func formatDate(_ seconds: Int64, now: Date) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let month = months[Int(parts.tm_mon) % 12]
    let day = padLeft(String(parts.tm_mday), 2)
    let age = now.timeIntervalSince1970 - Double(seconds)
    if age >= 0 && age < 180 * 86_400 {
      let hour = parts.tm_hour < 10 ? "0\(parts.tm_hour)" : "\(parts.tm_hour)"
      let minute = parts.tm_min < 10 ? "0\(parts.tm_min)" : "\(parts.tm_min)"
      return "\(month) \(day) \(hour):\(minute)"
    }
    return "\(month) \(day)  \(parts.tm_year + 1900)"
  }
}
