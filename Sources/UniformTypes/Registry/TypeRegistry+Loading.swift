import FolioSystem
public import FoundationEssentials
public import PropertyLists

extension TypeRegistry {
  /// Builds a registry from the system types, a shared MIME database and declaration files.
  ///
  /// Which files and folders to read is the caller's choice (the `folio` command reads
  /// `FOLIO_TYPES_PATH`, the XDG data directories and the user's language from its
  /// environment). Sources load in this order, and when two declare one type the earlier
  /// wins (exported still beats imported), with a diagnostic for the later:
  /// 1. the shared MIME database, merged into the system types (see
  ///    ``TypeRegistryBuilder/add(_:languages:)``);
  /// 2. `declarationFiles`, in the order given;
  /// 3. every `*.plist` in each of `declarationDirectories`, sorted by name.
  ///
  /// A named file that cannot be read is an error; an unreadable file found in
  /// a directory is reported as a diagnostic and skipped, so one broken file
  /// does not stop every command. Missing directories are skipped silently.
  ///
  /// - Parameters:
  ///   - declarationFiles: Files the user named.
  ///   - declarationDirectories: Folders whose `*.plist` files declare more types.
  ///   - mimeDatabase: The Linux desktop's types, or `nil` for none.
  ///   - languages: Language tags in order of preference, for the desktop types' descriptions.
  ///   - builder: The builder to add to (the system types by default; a caller may add its
  ///     own types first, as the exporters do).
  /// - Returns: The registry and every diagnostic from reading, decoding and conflicts
  ///   (the database's included).
  /// - Throws: ``UniformTypeError`` with `unreadable-declarations` when a named file
  ///   cannot be read or parsed; its cause is the reader's error.
  public static func load(
    declarationFiles: [URL], declarationDirectories: [URL] = [], mimeDatabase: MIMEDatabase? = nil,
    languages: [String] = [], startingWith builder: TypeRegistryBuilder = TypeRegistryBuilder()
  ) throws -> (TypeRegistry, [Diagnostic]) {
    var builder = builder
    var diagnostics: [Diagnostic] = []
    if let mimeDatabase {
      diagnostics += mimeDatabase.diagnostics
      builder.add(mimeDatabase, languages: languages)
    }
    for file in declarationFiles {
      do {
        let source = try DeclarationSource(contentsOf: file, displayName: file.path)
        diagnostics += source.diagnostics
        builder.add(source)
      } catch let error as PropertyListError {
        throw UniformTypeError(
          .unreadableDeclarations, "cannot read declarations from \(file.path)",
          location: error.location, cause: error)
      }
    }
    addDeclarations(in: declarationDirectories, to: &builder, diagnostics: &diagnostics)
    diagnostics += builder.diagnostics
    return (builder.build(), diagnostics)
  }

  /// A registry of the system types and declaration folders, read and built on a thread of
  /// its own.
  ///
  /// It answers as ``load(declarationFiles:declarationDirectories:mimeDatabase:languages:startingWith:)``'s
  /// registry from the same folders, its first question waiting until it is built: for a
  /// caller that reports none of the loading's diagnostics and asks nothing for a while (a
  /// pack, until it compresses a file). An unreadable file in a folder is skipped, as `load`
  /// skips it.
  ///
  /// - Parameter declarationDirectories: Folders whose `*.plist` files declare more types.
  /// - Returns: A registry answering as `load`'s does.
  package static func loadingInBackground(declarationDirectories: [URL]) -> TypeRegistry {
    TypeRegistry(
      tables: PendingValue(makingInBackground: {
        var builder = TypeRegistryBuilder()
        var unreported: [Diagnostic] = []
        addDeclarations(in: declarationDirectories, to: &builder, diagnostics: &unreported)
        return builder.makeTables()
      }))
  }

  /// Adds every `*.plist` of each folder, sorted by name; a file that cannot be read or
  /// parsed is a diagnostic, and skipped.
  private static func addDeclarations(
    in directories: [URL], to builder: inout TypeRegistryBuilder, diagnostics: inout [Diagnostic]
  ) {
    for directory in directories {
      for file in plistFiles(in: directory) {
        do {
          let source = try DeclarationSource(contentsOf: file, displayName: file.path)
          diagnostics += source.diagnostics
          builder.add(source)
        } catch let error as PropertyListError {
          diagnostics.append(
            ValidationRule.unreadableFile.diagnostic(
              "skipping \(file.path): \(error.message) [\(error.code)]",
              at: error.location ?? SourceLocation(file: file.path),
              hint: "fix or remove the file", severity: .warning))
        } catch {
          diagnostics.append(
            ValidationRule.unreadableFile.diagnostic(
              "skipping \(file.path): \(error)", at: SourceLocation(file: file.path),
              severity: .warning))
        }
      }
    }
  }

  private static func plistFiles(in directory: URL) -> [URL] {
    guard
      let names = try? FolderListing.names(atPath: directory.path)
    else { return [] }
    return names.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }.sorted().map {
      directory.appendingPathComponent($0)
    }
  }
}
