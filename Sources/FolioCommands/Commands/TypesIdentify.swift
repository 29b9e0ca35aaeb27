import FolioSystem
import FoundationEssentials
import UniformTypes

extension FolioCommand.Types {
  /// `folio types identify PATH…`: the type of each file, folder or package.
  struct Identify: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "identify",
      abstract: "Print the type of each PATH: a package, folder, file or symbolic link.",
      discussion: """
        Prints PATH, a tab and its type, one per line. A directory whose
        extension belongs to a type conforming to com.apple.package is that
        type; other directories are public.folder. Symbolic links are
        public.symlink and are not followed. A file is typed by its name: the
        extensions of loaded declarations first, then the system types'
        extensions and the shared MIME database's globs (highest weight, then
        longest pattern: a.tar.gz before a.gz). When the name gives no type or
        conflicting ones, the first bytes decide (magic and root-XML rules,
        else text or binary); an unknown extension otherwise gets a stable dyn.
        identifier, and no extension is public.data. --content always reads the
        first bytes, and the content wins over the name when its rule's
        priority is at least the glob's weight, unless the name's type is a
        subtype of the content's (a .docx is a zip). --all lists every
        candidate after each path (tab, identifier, name or content, rule,
        weight or priority, MIME type). A missing PATH is an error on standard
        error and makes the exit status 1.
        """,
      options: [content, all, format, SharedOptions.declarations],
      arguments: [pathArguments])

    static let pathArguments = Argument.many("PATH", minimum: 1, help: "Items to identify.")
    static let content = Option.flag(
      "content", help: "Always read the first bytes; the content may overrule the name.")
    static let all = Option.flag("all", help: "Also list every candidate type, best first.")
    static let format = Option.choice(
      "format", valueName: "FORMAT", of: OutputFormat.self,
      help: "text (default) or json: one array of {path, identifier, mimeTypes, by, candidates}.")

    /// How the results are written.
    enum OutputFormat: String, CaseIterable, Sendable {
      case text
      case json
    }

    let paths: [String]
    let declarations: [String]
    let content: Bool
    let all: Bool
    let json: Bool

    init(parsing arguments: ParsedArguments) throws {
      paths = arguments[Self.pathArguments]
      declarations = try arguments[SharedOptions.declarations]
      content = try arguments[Self.content]
      all = try arguments[Self.all]
      json = try arguments[Self.format] == .json
    }

    /// One line of the JSON array.
    private struct Record: Encodable {
      struct Candidate: Encodable {
        var identifier: String
        var mimeType: String?
        var by: String
        var rule: String
        var strength: Int
      }

      var path: String
      var identifier: String?
      var mimeTypes: [String]?
      var by: String?
      var candidates: [Candidate]?
      var error: String?
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let registry = try context.loadTypeRegistry(declarations: declarations)
      var status = ExitCode.success
      var text = ""
      var records: [Record] = []
      for path in paths {
        let absolute = context.absolutePath(path)
        let result: TypeIdentification
        do {
          result = try registry.identification(
            ofItemAtPath: absolute, content: content ? .always : .whenNameIsInconclusive)
        } catch let error as UniformTypeError {
          status = .failure
          let message =
            error.code == .noSuchItem ? "no such file or directory" : error.description
          if json {
            records.append(Record(path: path, error: message))
          } else {
            context.standardOutput.write(text)
            text = ""
            context.standardError.write("error: \(path): \(message)\n")
          }
          continue
        }
        if json {
          records.append(
            Record(
              path: path, identifier: result.identifier.rawValue, mimeTypes: result.mimeTypes,
              by: result.evidence.rawValue,
              candidates: all
                ? result.candidates.map {
                  Record.Candidate(
                    identifier: $0.identifier.rawValue, mimeType: $0.mimeType,
                    by: $0.evidence.rawValue, rule: $0.rule, strength: $0.strength)
                } : nil))
          continue
        }
        text += "\(path)\t\(result.identifier)\n"
        if all {
          for candidate in result.candidates {
            text +=
              "\t\(candidate.identifier)\t\(candidate.evidence.rawValue)\t\(candidate.rule)\t\(candidate.strength)\t\(candidate.mimeType ?? "")\n"
          }
        }
      }
      if json {
        text = String(decoding: try JSONText.encode(records), as: UTF8.self) + "\n"
      }
      context.standardOutput.write(text)
      return status
    }
  }
}
