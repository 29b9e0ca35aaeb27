import UniformTypes

extension FolioCommand.Types {
  /// `folio types show TYPE`: one type's declaration and conformance.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "show",
      abstract: "Show a type: identifier, description, conformance tree, tags, where declared.",
      discussion: """
        TYPE is an identifier, a filename extension or a MIME type. The
        conformance tree lists every supertype, nearest first; a type reached
        again is marked '(above)'. Exits 1 when the type is unknown.
        """,
      options: [SharedOptions.declarations],
      arguments: [typeArgument])

    static let typeArgument = Argument.one(
      "TYPE", completion: .type, help: "An identifier, extension or MIME type.")

    let type: String
    let declarations: [String]

    init(parsing arguments: ParsedArguments) throws {
      type = arguments[Self.typeArgument]
      declarations = try arguments[SharedOptions.declarations]
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let registry = try context.loadTypeRegistry(declarations: declarations)
      guard let identifier = registry.identifier(resolving: type) else {
        throw UniformTypeError(
          .unknownType,
          "unknown type '\(type)': no identifier, extension or MIME type matches"
            + TypeSuggestions.didYouMean(type, registry: registry))
      }
      var text = "identifier: \(identifier)\n"
      if let declaration = registry.declaration(for: identifier) {
        if let description = declaration.typeDescription?.value {
          text += "description: \(description)\n"
        }
        switch declaration.kind {
        case .system where declaration.sourceName != nil:
          let place = declaration.location?.description ?? declaration.sourceName ?? "?"
          text += "declared: by the shared MIME database, \(place)\n"
        case .system:
          text += "declared: by the system (compiled into folio)\n"
          if let place = declaration.desktopDatabaseLocation {
            text += "also described: by the shared MIME database, \(place)\n"
          }
        case .exported, .imported:
          let place = declaration.identifierLocation?.description ?? declaration.sourceName ?? "?"
          text += "declared: \(declaration.kind.rawValue) in \(place)\n"
        }
        if !declaration.parents.isEmpty {
          text += "conforms to: \(declaration.parents.map(\.rawValue).joined(separator: ", "))\n"
        }
        var classes: [TagClass] = []
        for tag in declaration.tags where !classes.contains(tag.tagClass) {
          classes.append(tag.tagClass)
        }
        for tagClass in classes {
          let values = declaration.tags(tagClass).map { tagClass == .osType ? "'\($0)'" : $0 }
          text += "\(tagClass): \(values.joined(separator: " "))\n"
        }
        for definition in registry.desktopDefinitions(for: identifier)
        where !definition.globs.isEmpty {
          let globs = definition.globs.map {
            "\($0.pattern) (weight \($0.weight)\($0.isCaseSensitive ? ", case-sensitive" : ""))"
          }
          text += "globs (\(definition.name)): \(globs.joined(separator: ", "))\n"
        }
        if let acronym = declaration.acronym {
          text += "acronym: \(acronym)"
          if let expanded = declaration.expandedAcronym { text += " (\(expanded))" }
          text += "\n"
        }
        if let icon = declaration.genericIconName { text += "generic icon: \(icon)\n" }
        if let url = declaration.referenceURL?.value { text += "reference URL: \(url)\n" }
        if let version = declaration.version?.value { text += "version: \(version)\n" }
      } else if let specification = identifier.dynamicSpecification {
        text += "declared: nowhere (a dynamic identifier)\n"
        for tag in specification.tags { text += "\(tag.tagClass): \(tag.value)\n" }
      }
      if let preferred = registry.preferredFilenameExtension(for: identifier) {
        text += "preferred extension: \(preferred)\n"
      }
      if let preferred = registry.preferredMIMEType(for: identifier) {
        text += "preferred MIME type: \(preferred)\n"
      }
      text += "conformance:\n"
      var shown: Set<TypeIdentifier> = []
      appendTree(identifier, depth: 1, registry: registry, shown: &shown, path: [], into: &text)
      context.standardOutput.write(text)
      return .success
    }

    private func appendTree(
      _ identifier: TypeIdentifier, depth: Int, registry: TypeRegistry,
      shown: inout Set<TypeIdentifier>, path: Set<TypeIdentifier>, into text: inout String
    ) {
      let indent = String(repeating: "  ", count: depth)
      if path.contains(identifier) {
        text += "\(indent)\(identifier) (cycle)\n"
        return
      }
      if shown.contains(identifier) {
        text += "\(indent)\(identifier) (above)\n"
        return
      }
      shown.insert(identifier)
      let marker =
        registry.isDeclared(identifier) || identifier.isDynamic ? "" : " (declared nowhere)"
      text += "\(indent)\(identifier)\(marker)\n"
      for parent in registry.parents(of: identifier) {
        appendTree(
          parent, depth: depth + 1, registry: registry, shown: &shown,
          path: path.union([identifier]), into: &text)
      }
    }
  }
}
