import FolioSystem
public import Foundation
public import PropertyLists

extension TypeRegistry {
  /// The directories searched for declaration files, in load order.
  ///
  /// Every directory of `FOLIO_TYPES_PATH` (colon-separated, empty entries
  /// skipped), then the user's database `$XDG_DATA_HOME/folio/types/`
  /// (`XDG_DATA_HOME` defaults to `~/.local/share`, as in the XDG base
  /// directory specification and shared-mime-info).
  ///
  /// - Parameter environment: The environment to read the variables from.
  /// - Returns: The directories; they may not exist.
  public static func declarationDirectories(environment: [String: String]) -> [URL] {
    var directories: [URL] = []
    if let path = environment["FOLIO_TYPES_PATH"] {
      for entry in path.split(separator: ":") where !entry.isEmpty {
        directories.append(URL(fileURLWithPath: String(entry), isDirectory: true))
      }
    }
    if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
      directories.append(
        URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent("folio/types"))
    } else if let home = environment["HOME"], !home.isEmpty {
      directories.append(
        URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
          ".local/share/folio/types"))
    }
    return directories
  }

  /// Builds a registry from the system types and every declaration file the user provides.
  ///
  /// Sources load in this order, and when two declare one type the earlier
  /// wins (exported still beats imported), with a diagnostic for the later:
  /// 1. `declarationFiles` (`--declarations FILE`), in the order given;
  /// 2. every `*.plist` in each directory of ``declarationDirectories(environment:)``,
  ///    sorted by name.
  ///
  /// A named file that cannot be read is an error; an unreadable file found in
  /// a directory is reported as a diagnostic and skipped, so one broken file
  /// does not stop every command. Missing directories are skipped silently.
  ///
  /// - Parameters:
  ///   - declarationFiles: Files named on the command line.
  ///   - environment: The environment (`FOLIO_TYPES_PATH`, `XDG_DATA_HOME`, `HOME`).
  ///   - builder: The builder to add the files to (the system types by default; a
  ///     caller may add its own types first, as the exporters do).
  /// - Returns: The registry and every diagnostic from reading, decoding and conflicts.
  /// - Throws: ``UniformTypeError`` with `unreadable-declarations` when a named file
  ///   cannot be read or parsed; its cause is the reader's error.
  public static func load(
    declarationFiles: [URL], environment: [String: String],
    startingWith builder: TypeRegistryBuilder = TypeRegistryBuilder()
  ) throws -> (TypeRegistry, [Diagnostic]) {
    var builder = builder
    var diagnostics: [Diagnostic] = []
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
    for directory in declarationDirectories(environment: environment) {
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
    diagnostics += builder.diagnostics
    return (builder.build(), diagnostics)
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
