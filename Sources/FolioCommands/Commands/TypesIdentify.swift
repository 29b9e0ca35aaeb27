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
        type; other directories are public.folder. A file is typed by its
        longest known extension (a.tar.gz before a.gz); an unknown extension
        gets a stable dyn. identifier; no extension is public.data. Symbolic
        links are public.symlink and are not followed. A missing PATH is an
        error on standard error and makes the exit status 1.
        """,
      options: [SharedOptions.declarations],
      arguments: [pathArguments])

    static let pathArguments = Argument.many("PATH", minimum: 1, help: "Items to identify.")

    let paths: [String]
    let declarations: [String]

    init(parsing arguments: ParsedArguments) throws {
      paths = arguments[Self.pathArguments]
      declarations = try arguments[SharedOptions.declarations]
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let registry = try context.loadTypeRegistry(declarations: declarations)
      var status = ExitCode.success
      var text = ""
      for path in paths {
        let absolute = context.absolutePath(path)
        guard let kind = TypeRegistry.itemKind(atPath: absolute) else {
          context.standardOutput.write(text)
          text = ""
          context.standardError.write("error: \(path): no such file or directory\n")
          status = .failure
          continue
        }
        let name = absolute.split(separator: "/").last.map(String.init) ?? absolute
        text += "\(path)\t\(registry.identify(fileName: name, kind: kind))\n"
      }
      context.standardOutput.write(text)
      return status
    }
  }
}
