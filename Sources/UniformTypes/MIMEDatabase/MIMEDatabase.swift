import FolioSystem
public import FoundationEssentials
public import PropertyLists

/// The Linux desktop's shared MIME-info database, read from its source XML files (the
/// `packages/*.xml` of each `mime` directory), not from the caches `update-mime-database`
/// compiles from them.
///
/// A database is a value: load it once (``load(mimeDirectories:languages:limits:cache:)``), then
/// add it to a ``TypeRegistryBuilder``. Which directories to read is the caller's choice;
/// the XDG base-directory rules that find them belong to the program (the `folio` command
/// applies them).
///
/// Loading never throws: a file that cannot be read or parsed is left out with an error
/// diagnostic, a bad element is skipped with a warning, and what goes past
/// ``MIMEDatabaseLimits`` is left out and reported. Entities are never expanded.
public struct MIMEDatabase: Sendable, Equatable {
  /// Every type, canonical names only, in the order first described.
  public private(set) var types: [MIMETypeDefinition]
  /// The files read, in load order.
  public private(set) var sourceFiles: [String]
  /// Every problem found, in load order.
  public private(set) var diagnostics: [Diagnostic]

  /// A database with no types.
  public static let empty = MIMEDatabase(types: [], sourceFiles: [], diagnostics: [])

  init(types: [MIMETypeDefinition], sourceFiles: [String], diagnostics: [Diagnostic]) {
    self.types = types
    self.sourceFiles = sourceFiles
    self.diagnostics = diagnostics
  }

  /// The type a MIME type or one of its aliases names, if the database describes it.
  ///
  /// - Parameter name: A MIME type, in any letter case.
  /// - Returns: The canonical definition.
  public func definition(for name: String) -> MIMETypeDefinition? {
    let key = TypeIdentifier.foldCase(name)
    for type in types {
      if TypeIdentifier.foldCase(type.name) == key { return type }
      if type.aliases.contains(where: { TypeIdentifier.foldCase($0.value) == key }) { return type }
    }
    return nil
  }

  // MARK: Loading

  /// Reads every `packages/*.xml` file of some `mime` directories.
  ///
  /// Directories are read in the order given, and a later one takes precedence, as the
  /// specification orders `$XDG_DATA_DIRS` (least important first) then `$XDG_DATA_HOME`:
  /// its comments replace earlier ones, its `glob-deleteall` and `magic-deleteall` drop
  /// earlier globs and magic. Inside a directory, files are read by name, `Override.xml`
  /// last. Missing directories are skipped silently.
  ///
  /// - Parameters:
  ///   - mimeDirectories: `mime` directories (each holding `packages/`), least important first.
  ///   - languages: Language tags whose translated comments to keep (`de_DE`, `de`); `nil`
  ///     keeps every translation, an empty list none.
  ///   - limits: Bounds on what is read.
  ///   - cache: Where to keep a pre-read form of the files, so a later load of the same
  ///     files skips their XML; `nil` reads the XML every time.
  /// - Returns: The database, with its diagnostics.
  public static func load(
    mimeDirectories: [URL], languages: [String]? = nil, limits: MIMEDatabaseLimits = .default,
    cache: MIMEDatabaseCache? = nil
  ) -> MIMEDatabase {
    var files: [URL] = []
    for directory in mimeDirectories {
      let packages = directory.appendingPathComponent("packages", isDirectory: true)
      // Through the one listing (Foundation's hides some names); a name that is not UTF-8
      // cannot end in ".xml" as the specification spells it, so it is passed over.
      var names: [String] = []
      do {
        try FolderListing.forEachName(atPath: Array(packages.path.utf8)) { bytes in
          if let name = String(validating: bytes, as: UTF8.self) { names.append(name) }
          return true
        }
      } catch {
        continue
      }
      let xml = names.filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.sorted {
        ($0 == "Override.xml" ? 1 : 0, $0) < ($1 == "Override.xml" ? 1 : 0, $1)
      }
      files += xml.map { packages.appendingPathComponent($0) }
    }
    return load(files: files, languages: languages, limits: limits, cache: cache)
  }

  /// Reads source XML files, in the order given (a later file takes precedence).
  ///
  /// - Parameters:
  ///   - files: The files.
  ///   - languages: Language tags whose translated comments to keep; `nil` keeps all.
  ///   - limits: Bounds on what is read.
  ///   - cache: Where to keep a pre-read form of the files (see ``MIMEDatabaseCache``);
  ///     `nil` reads the XML every time.
  /// - Returns: The database, with its diagnostics.
  public static func load(
    files: [URL], languages: [String]? = nil, limits: MIMEDatabaseLimits = .default,
    cache: MIMEDatabaseCache? = nil
  ) -> MIMEDatabase {
    // No files, nothing worth keeping (and no cache folder made for it).
    guard let cache, !files.isEmpty,
      let key = MIMEDatabaseCache.Key(files: files, languages: languages, limits: limits)
    else { return read(files: files, languages: languages, limits: limits) }
    if let database = cache.read(key) { return database }
    let database = read(files: files, languages: languages, limits: limits)
    cache.write(database, for: key)
    return database
  }

  /// Reads source XML files, without a cache.
  private static func read(
    files: [URL], languages: [String]?, limits: MIMEDatabaseLimits
  ) -> MIMEDatabase {
    var merger = Merger(languages: languages, limits: limits)
    for file in files {
      let name = file.path
      // Through the support module's one reader: the size limit holds even for a file that
      // grows while it is read, and a failure names its errno in plain words.
      let bytes: [UInt8]
      do throws(FileContents.Failure) {
        bytes = try FileContents.read(atPath: name, limit: limits.maximumFileSize)
      } catch {
        let message =
          switch error {
          case .tooLarge(let size):
            "the file is \(size) bytes, more than the limit of \(limits.maximumFileSize); left out"
          case .system(let cause): "cannot read the file: \(cause); left out"
          }
        merger.diagnostics.append(
          MIMEDatabaseProblem.unreadableFile.diagnostic(message, at: SourceLocation(file: name)))
        continue
      }
      merger.add(bytes, file: name)
    }
    return merger.finish()
  }

  /// Reads one source document from memory.
  ///
  /// - Parameters:
  ///   - data: The XML.
  ///   - file: The name used in locations.
  ///   - languages: Language tags whose translated comments to keep; `nil` keeps all.
  ///   - limits: Bounds on what is read.
  /// - Returns: The database, with its diagnostics.
  public static func parse(
    _ data: Data, file: String, languages: [String]? = nil,
    limits: MIMEDatabaseLimits = .default
  ) -> MIMEDatabase {
    var merger = Merger(languages: languages, limits: limits)
    merger.add(data, file: file)
    return merger.finish()
  }

  // MARK: Names

  /// Whether text is a MIME type the database can hold: `media/subtype`, each part of
  /// letters, digits and `!#$&-^_.+`, 127 bytes at most (RFC 6838's restricted names).
  ///
  /// - Parameter text: The text.
  /// - Returns: `true` when well formed.
  public static func isValidMIMEType(_ text: String) -> Bool {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.utf8.count <= 127
        && part.utf8.allSatisfy { byte in
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
          case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "-"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "+"):
            true
          default: false
          }
        }
    }
  }

  /// A language tag in the form comments are keyed by: lower case, `-` as `_` (`pt_br`).
  static func foldLanguage(_ tag: String) -> String {
    // Byte by byte: the database holds tens of thousands of translated comments, and
    // Foundation's replacingOccurrences was a quarter of the time it took to read it.
    var bytes = Array(tag.utf8)
    guard bytes.allSatisfy({ $0 < 0x80 }) else {
      return String(TypeIdentifier.foldCase(tag).map { $0 == "-" ? "_" : $0 })
    }
    for index in bytes.indices { bytes[index] = foldLanguage(byte: bytes[index]) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One ASCII byte of a language tag folded as ``foldLanguage(_:)`` folds it.
  static func foldLanguage(byte: UInt8) -> UInt8 {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
    case UInt8(ascii: "-"): UInt8(ascii: "_")
    default: byte
    }
  }
}

extension MIMEDatabase {
  /// Merges the files of one load into canonical types.
  struct Merger {
    let languages: Set<String>?
    let limits: MIMEDatabaseLimits
    var budget: MIMEInfoReader.Budget
    var types: [MIMETypeDefinition] = []
    /// Folded canonical name or alias → position in `types`.
    var positions: [String: Int] = [:]
    var sourceFiles: [String] = []
    var diagnostics: [Diagnostic] = []

    init(languages: [String]?, limits: MIMEDatabaseLimits) {
      self.languages = languages.map { Set($0.map(MIMEDatabase.foldLanguage)) }
      self.limits = limits
      self.budget = MIMEInfoReader.Budget(limits)
    }

    mutating func add(_ data: some ContiguousBytes, file: String) {
      sourceFiles.append(file)
      let reader = MIMEInfoReader(
        file: file, limits: limits, languages: languages, budget: budget)
      let failure = data.withUnsafeBytes { XMLEventParser.parse($0, handler: reader) }
      reader.finish()
      budget = reader.budget
      diagnostics += reader.diagnostics
      if let failure {
        let location = SourceLocation(
          file: file, line: failure.line > 0 ? failure.line : nil,
          column: failure.column > 0 ? failure.column : nil)
        switch failure.kind {
        case .malformed:
          diagnostics.append(
            MIMEDatabaseProblem.malformedXML.diagnostic(
              "not well-formed XML: \(failure.message); the file is left out", at: location))
        case .entity:
          diagnostics.append(
            MIMEDatabaseProblem.entity.diagnostic(
              "\(failure.message); the file is left out", at: location,
              hint: "write the text itself instead of an entity"))
        }
        return
      }
      if reader.diagnostics.contains(where: { $0.code == MIMEDatabaseProblem.notMIMEInfo.rawValue })
      {
        return
      }
      for element in reader.elements { merge(element) }
    }

    private mutating func merge(_ element: MIMEInfoReader.Element) {
      let incoming = element.definition
      let key = TypeIdentifier.foldCase(incoming.name)
      guard let position = positions[key] else {
        positions[key] = types.count
        for alias in incoming.aliases where positions[TypeIdentifier.foldCase(alias.value)] == nil {
          positions[TypeIdentifier.foldCase(alias.value)] = types.count
        }
        types.append(incoming)
        return
      }
      var merged = types[position]
      if element.deletesGlobs { merged.globs = [] }
      if element.deletesMagic { merged.magic = [] }
      merged.globs += incoming.globs
      merged.magic += incoming.magic
      for rule in incoming.rootXML where !merged.rootXML.contains(rule) {
        merged.rootXML.append(rule)
      }
      for alias in incoming.aliases {
        let aliasKey = TypeIdentifier.foldCase(alias.value)
        guard aliasKey != TypeIdentifier.foldCase(merged.name) else { continue }
        if !merged.aliases.contains(where: { TypeIdentifier.foldCase($0.value) == aliasKey }) {
          merged.aliases.append(alias)
        }
        if positions[aliasKey] == nil { positions[aliasKey] = position }
      }
      if TypeIdentifier.foldCase(merged.name) != key,
        !merged.aliases.contains(where: { TypeIdentifier.foldCase($0.value) == key })
      {
        merged.aliases.append(Located(incoming.name, location: incoming.location))
      }
      for parent in incoming.parents
      where !merged.parents.contains(where: {
        TypeIdentifier.foldCase($0.value) == TypeIdentifier.foldCase(parent.value)
      }) {
        merged.parents.append(parent)
      }
      // A later file takes precedence for what is single-valued.
      if let comment = incoming.comment { merged.comment = comment }
      merged.localizedComments.merge(incoming.localizedComments) { _, new in new }
      if let acronym = incoming.acronym { merged.acronym = acronym }
      if let expanded = incoming.expandedAcronym { merged.expandedAcronym = expanded }
      if let icon = incoming.icon { merged.icon = icon }
      if let genericIcon = incoming.genericIcon { merged.genericIcon = genericIcon }
      types[position] = merged
    }

    /// Resolves parents named by alias, drops parents that are the type itself or close a
    /// cycle (with a diagnostic at the `sub-class-of`), and returns the database.
    mutating func finish() -> MIMEDatabase {
      for index in types.indices {
        var parents: [Located<String>] = []
        for parent in types[index].parents {
          let canonical = positions[TypeIdentifier.foldCase(parent.value)].map { types[$0].name }
          let name = canonical ?? parent.value
          if TypeIdentifier.foldCase(name) == TypeIdentifier.foldCase(types[index].name) {
            diagnostics.append(
              MIMEDatabaseProblem.subclassCycle.diagnostic(
                "\(types[index].name) is declared a sub-class of itself; ignored",
                at: parent.location))
            continue
          }
          if !parents.contains(where: {
            TypeIdentifier.foldCase($0.value) == TypeIdentifier.foldCase(name)
          }) {
            parents.append(Located(name, location: parent.location))
          }
        }
        types[index].parents = parents
      }
      breakCycles()
      return MIMEDatabase(types: types, sourceFiles: sourceFiles, diagnostics: diagnostics)
    }

    /// Removes the `sub-class-of` edges that close cycles, depth-first in type order.
    private mutating func breakCycles() {
      enum Mark { case visiting, done }
      var marks = [Mark?](repeating: nil, count: types.count)
      for root in types.indices where marks[root] == nil {
        // An explicit stack of (type, next parent to look at), so deep chains cannot
        // overflow the call stack.
        var stack: [(node: Int, next: Int)] = [(root, 0)]
        marks[root] = .visiting
        while let top = stack.last {
          let node = top.node
          if top.next >= types[node].parents.count {
            marks[node] = .done
            stack.removeLast()
            continue
          }
          stack[stack.count - 1].next += 1
          let edge = types[node].parents[top.next]
          guard let parent = positions[TypeIdentifier.foldCase(edge.value)] else { continue }
          switch marks[parent] {
          case .visiting:
            diagnostics.append(
              MIMEDatabaseProblem.subclassCycle.diagnostic(
                "\(types[node].name) is a sub-class of \(edge.value), which is already a sub-class of \(types[node].name); this sub-class-of is ignored",
                at: edge.location, hint: "remove one of the sub-class-of elements"))
            types[node].parents.remove(at: top.next)
            stack[stack.count - 1].next -= 1
          case .done:
            continue
          case nil:
            marks[parent] = .visiting
            stack.append((parent, 0))
          }
        }
      }
    }
  }
}
