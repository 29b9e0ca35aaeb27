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
///
/// Rows are parsed where they are used, one at a time, and never kept: every registry's
/// system entries point at their row (``SharedDeclaration``), and a declaration is built
/// from its row when something asks for it. A command that only types file names (`pack`)
/// never builds one, and no process holds all of them as values for its whole run.
enum SystemTypeTable {
  /// How many rows the table has.
  static var count: Int { lineStarts.count - 1 }

  /// Where each row starts in ``packedRows``' UTF-8, and one past the end of the text.
  private static let lineStarts: [Int] = {
    var text = packedRows
    return text.withUTF8 { bytes in
      var starts: [Int] = []
      starts.reserveCapacity(1024)
      var lineStart = 0
      while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        if lineEnd > lineStart { starts.append(lineStart) }
        lineStart = lineEnd + 1
      }
      starts.append(bytes.count + 1)
      return starts
    }
  }()

  /// The columns of a row, in table order.
  enum Column: Int {
    case identifier, conformsTo, extensions, mimeTypes, description, declaration, provenance,
      preferredFor, desktopMIMETypes
  }

  /// One row's columns as bytes of the table, valid only inside ``withRow(_:_:)``.
  struct Row {
    fileprivate let bytes: UnsafeBufferPointer<UInt8>
    fileprivate let columns: [Range<Int>]

    /// A column's text.
    func text(_ column: Column) -> String {
      String(
        decoding: UnsafeBufferPointer(rebasing: bytes[columns[column.rawValue]]), as: UTF8.self)
    }

    /// Whether a column's text is `text` (without making a string of it).
    func column(_ column: Column, is text: StaticString) -> Bool {
      let range = columns[column.rawValue]
      guard range.count == text.utf8CodeUnitCount else { return false }
      return range.enumerated().allSatisfy { offset, position in
        bytes[position] == text.utf8Start[offset]
      }
    }

    /// A list column's items (separated by spaces), each given to `body` as bytes.
    func forEachItem(_ column: Column, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
      let range = columns[column.rawValue]
      var start = range.lowerBound
      for index in range where bytes[index] == UInt8(ascii: " ") {
        if index > start { body(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
        start = index + 1
      }
      if range.upperBound > start {
        body(UnsafeBufferPointer(rebasing: bytes[start..<range.upperBound]))
      }
    }

    /// A list column's items.
    func items(_ column: Column) -> [String] {
      var items: [String] = []
      forEachItem(column) { items.append(String(decoding: $0, as: UTF8.self)) }
      return items
    }

    /// How many items a list column has.
    func itemCount(_ column: Column) -> Int {
      var count = 0
      forEachItem(column) { _ in count += 1 }
      return count
    }
  }

  /// Hands one row's columns to `body`.
  ///
  /// The text is generated and checked by a test, so a malformed line is a build defect;
  /// it is skipped by the builder (`nil` here) rather than trusted.
  ///
  /// - Parameters:
  ///   - index: The row, from 0 to ``count``.
  ///   - body: What to read of the row.
  /// - Returns: What `body` returns, or `nil` when the line does not have nine columns.
  static func withRow<Result>(_ index: Int, _ body: (Row) -> Result) -> Result? {
    // On UTF-8 bytes, making strings only of the columns asked for: splitting the String by
    // Character (grapheme by grapheme) made the table a visible part of a short command's
    // time, and a registry reads each row's parents and tags once per build.
    var text = packedRows
    return text.withUTF8 { bytes in
      let lineStart = lineStarts[index]
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      var columns: [Range<Int>] = []
      columns.reserveCapacity(9)
      var start = lineStart
      for position in lineStart..<lineEnd where bytes[position] == UInt8(ascii: "\t") {
        columns.append(start..<position)
        start = position + 1
      }
      columns.append(start..<lineEnd)
      guard columns.count == 9 else { return nil }
      return body(Row(bytes: bytes, columns: columns))
    }
  }

  /// Parses one row whole.
  ///
  /// - Parameter index: The row, from 0 to ``count``.
  /// - Returns: The row's columns, or `nil` for a malformed line.
  static func entry(at index: Int) -> SystemTypeEntry? {
    withRow(index) { row -> SystemTypeEntry? in
      guard let declaration = SystemTypeEntry.Declaration(rawValue: row.text(.declaration)),
        let provenance = SystemTypeEntry.Provenance(rawValue: row.text(.provenance))
      else { return nil }
      return SystemTypeEntry(
        identifier: row.text(.identifier), description: row.text(.description),
        conformsTo: row.items(.conformsTo), extensions: row.items(.extensions),
        mimeTypes: row.items(.mimeTypes), declaration: declaration, provenance: provenance,
        preferredFor: row.items(.preferredFor), desktopMIMETypes: row.items(.desktopMIMETypes))
    } ?? nil
  }

  /// One row's parents.
  ///
  /// - Parameter index: The row.
  /// - Returns: The identifiers in its `conforms_to` column.
  static func parents(ofRow index: Int) -> [TypeIdentifier] {
    withRow(index) { row in
      var parents: [TypeIdentifier] = []
      row.forEachItem(.conformsTo) {
        parents.append(TypeIdentifier(String(decoding: $0, as: UTF8.self)))
      }
      return parents
    } ?? []
  }

  /// One row's tags: its extensions, then its MIME types.
  ///
  /// - Parameter index: The row.
  /// - Returns: The tags.
  static func tags(ofRow index: Int) -> [TypeTag] {
    withRow(index) { row in
      var tags: [TypeTag] = []
      row.forEachItem(.extensions) {
        tags.append(TypeTag(.filenameExtension, String(decoding: $0, as: UTF8.self)))
      }
      row.forEachItem(.mimeTypes) {
        tags.append(TypeTag(.mimeType, String(decoding: $0, as: UTF8.self)))
      }
      return tags
    } ?? []
  }
}

extension SystemTypeEntry {
  /// The row's tags: its extensions, then its MIME types.
  var tags: [TypeTag] {
    extensions.map { TypeTag(.filenameExtension, $0) } + mimeTypes.map { TypeTag(.mimeType, $0) }
  }

  /// The row as a declaration of kind ``TypeDeclaration/Kind/system``.
  var typeDeclaration: TypeDeclaration {
    TypeDeclaration(
      identifier: TypeIdentifier(identifier), kind: .system,
      conformsTo: conformsTo.map { TypeIdentifier($0) }, tags: tags,
      typeDescription: description.isEmpty ? nil : description)
  }
}
