// The system-declared types Folio knows without reading any file.
//
// The facts live in system-types.tsv beside this file (copied from the project's research
// notes, one row per type, with the sources of each row in its `source` and `origin`
// columns); scripts/generate-system-types.py packs the columns the registry needs into
// SystemTypeTable+Rows.swift. The sources are:
// - RS: a dump of macOS 13.3.1's declarations (gezihuzi/uniform-type-identifiers-rs);
// - DAR: Darling's CoreServices Info.plist (about macOS 10.12);
// - H11: the comments of UTCoreTypes.h in the macOS 11.3 SDK;
// - DOC, REF04: Apple's documentation pages (current, and the 10.4-era table).
//
// Where sources disagree on a parent or a tag, the newest wins (RS over H11, DAR and
// REF04; DOC for macOS 15 over RS), and the row's `decision` column says so. Where Folio
// adds to Apple's facts (multi-part extensions such as `tar.gz`, compressed tars and
// Zstandard that Apple does not declare, a parent named but declared nowhere), the row's
// `provenance` is `folio` or its `decision` column names the addition and why.
//
// Ranking: when several system types claim one tag, lookups prefer (in order) the type
// whose `preferred_for` column lists the tag, the declaring type over importers
// (`declaration`), `public.` types over others, types conforming to `public.data` over
// those that do not (Apple's `UTType(filenameExtension:)` defaults to `conformingTo: .data`),
// then table order. Apple calls the choice between equal claimants undefined; Folio makes
// it stable.
//
// `desktop_mime_types` lists the names shared-mime-info gives the same format where Apple
// lists none of them (`text/x-csrc` for `public.c-source`): Folio's mapping, used only to
// merge the Linux desktop's type into the system type when the desktop database is loaded.

/// One row of the compiled-in system table.
struct SystemTypeEntry: Sendable {
  /// Where a row's facts come from.
  enum Provenance: String, Sendable {
    /// An Apple-authored source names the identifier and its parents.
    case apple
    /// Apple declares it (a dump of macOS's declarations, or an OS 27 header), but no Apple
    /// document read confirms its parents or tags.
    case appleUnconfirmed = "apple-unconfirmed"
    /// Folio's own, where Apple declares nothing for a format Folio handles.
    case folio
  }

  /// How the system declares a type, which ranks it for a shared tag.
  enum Declaration: String, Sendable {
    /// Exported by the system: the declaring type.
    case exported
    /// Imported by the system: a type someone else owns.
    case imported
    /// Declared by Folio.
    case folio
  }

  let identifier: String
  let description: String
  let conformsTo: [String]
  let extensions: [String]
  let mimeTypes: [String]
  let declaration: Declaration
  let provenance: Provenance
  /// Tags (extensions and MIME types) for which this type is the first answer.
  let preferredFor: [String]
  /// shared-mime-info's names for the same format that Apple does not list.
  let desktopMIMETypes: [String]
}

/// The compiled-in system table.
enum SystemTypeTable {
  /// The rows, in table order (sorted by identifier), parsed at each use.
  ///
  /// Not kept: the one user builds the system types once per process (a cached builder),
  /// and the parsed rows (hundreds of strings and arrays) would stay in memory for the rest
  /// of a run that never reads them again.
  static var rows: [SystemTypeEntry] { parse(packedRows) }

  /// Parses the packed rows: one a line, tab-separated columns, space-separated lists.
  ///
  /// The text is generated and checked by a test, so a malformed line is a build defect;
  /// it is skipped rather than trusted.
  static func parse(_ text: String) -> [SystemTypeEntry] {
    // On UTF-8 bytes: every folio process parses the table once, and splitting the String
    // by Character (grapheme by grapheme) made it a visible part of a short command's time.
    var text = text
    return text.withUTF8 { bytes in
      func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
      }
      func list(_ range: Range<Int>) -> [String] {
        var items: [String] = []
        var start = range.lowerBound
        for index in range where bytes[index] == UInt8(ascii: " ") {
          if index > start { items.append(string(start..<index)) }
          start = index + 1
        }
        if range.upperBound > start { items.append(string(start..<range.upperBound)) }
        return items
      }
      var rows: [SystemTypeEntry] = []
      rows.reserveCapacity(1024)
      var columns: [Range<Int>] = []
      columns.reserveCapacity(9)
      var lineStart = 0
      while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        defer { lineStart = lineEnd + 1 }
        guard lineEnd > lineStart else { continue }
        columns.removeAll(keepingCapacity: true)
        var start = lineStart
        for index in lineStart..<lineEnd where bytes[index] == UInt8(ascii: "\t") {
          columns.append(start..<index)
          start = index + 1
        }
        columns.append(start..<lineEnd)
        guard columns.count == 9,
          let declaration = SystemTypeEntry.Declaration(rawValue: string(columns[5])),
          let provenance = SystemTypeEntry.Provenance(rawValue: string(columns[6]))
        else { continue }
        rows.append(
          SystemTypeEntry(
            identifier: string(columns[0]), description: string(columns[4]),
            conformsTo: list(columns[1]), extensions: list(columns[2]),
            mimeTypes: list(columns[3]), declaration: declaration, provenance: provenance,
            preferredFor: list(columns[7]), desktopMIMETypes: list(columns[8])))
      }
      return rows
    }
  }
}
