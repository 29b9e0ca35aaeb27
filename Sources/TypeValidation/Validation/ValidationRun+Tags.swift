import FolioSystem
import PropertyLists
import UniformTypes

// Tag rules: filename extensions, MIME types and OSTypes, in declarations and document types,
// and extensions claimed twice.
extension ValidationRun {
  mutating func checkTags(of declaration: TypeDeclaration) {
    var seen: [String: TypeTag] = [:]
    for tag in declaration.tags {
      let at = tag.location ?? declaration.location
      switch tag.tagClass {
      case .filenameExtension:
        checkExtension(tag.value, at: at, allowWildcard: false)
        if let first = seen[tag.lookupKey] {
          let spelling =
            first.value == tag.value
            ? "" : " (also as \(Self.quoted(first.value)) at \(Self.describe(first.location)))"
          diagnostics.append(
            ValidationRule.duplicateExtension.diagnostic(
              "\(Self.shown(declaration.typeIdentifier)) lists the extension \(Self.quoted(tag.value)) twice\(spelling)",
              at: at,
              hint: first.value == tag.value
                ? "remove the repeated extension"
                : "extensions match whatever their case; list \(Self.quoted(tag.value)) once"))
        } else {
          seen[tag.lookupKey] = tag
        }
      case .mimeType:
        checkMIMEType(tag.value, at: at)
      case .osType:
        checkOSType(tag.value, at: at)
      default:
        continue
      }
    }
  }

  mutating func checkExtension(_ text: String, at location: SourceLocation?, allowWildcard: Bool) {
    if Self.hasVariable(text) { return }
    if allowWildcard && text == "*" { return }
    let problem: String?
    let hint: String
    if text.isEmpty {
      problem = "is empty"
      hint = "remove the empty extension"
    } else if text.hasPrefix(".") {
      problem = "starts with a dot"
      hint = "write \(Self.quoted(String(text.drop { $0 == "." }))), without the dot"
    } else if text.utf8.contains(UInt8(ascii: "/")) || text.utf8.contains(UInt8(ascii: "\\")) {
      problem = "contains a path separator"
      hint = "write only the extension, such as 'txt'"
    } else if text.unicodeScalars.contains(where: {
      $0.properties.isWhitespace || DiagnosticText.needsEscape($0)
    }) {
      problem =
        text.unicodeScalars.contains(where: { $0.properties.isWhitespace })
        ? "contains whitespace" : "contains an invisible character"
      hint = "remove it"
    } else if text.utf8.contains(UInt8(ascii: "*")) || text.utf8.contains(UInt8(ascii: "?")) {
      problem = "contains a wildcard"
      hint = "list each extension literally"
    } else {
      problem = nil
      hint = ""
    }
    guard let problem else { return }
    diagnostics.append(
      ValidationRule.invalidExtension.diagnostic(
        "filename extension \(Self.quoted(text)) \(problem)", at: location, hint: hint))
  }

  mutating func checkMIMEType(_ text: String, at location: SourceLocation?) {
    if Self.hasVariable(text) { return }
    guard let problem = Self.mimeTypeProblem(text) else { return }
    diagnostics.append(
      ValidationRule.invalidMIMEType.diagnostic(
        "MIME type \(Self.quoted(text)) \(problem)", at: location,
        hint: "write type/subtype of letters, digits and !#$&-^_.+ such as application/x-example"))
  }

  mutating func checkOSType(_ text: String, at location: SourceLocation?) {
    if Self.hasVariable(text) || text.unicodeScalars.count == 4 { return }
    diagnostics.append(
      ValidationRule.invalidOSType.diagnostic(
        "OSType \(Self.quoted(text)) has \(text.unicodeScalars.count) characters, not 4",
        at: location, hint: "pad with spaces to four characters (\"svg \"), or remove it"))
  }

  /// What is wrong with a MIME type, if anything: `type/subtype` of RFC 6838 token characters,
  /// then optional `; name=value` parameters.
  ///
  /// - Parameter text: The MIME type as written.
  /// - Returns: A phrase such as "contains '@', which a MIME type may not", or `nil`.
  static func mimeTypeProblem(_ text: String) -> String? {
    if text.isEmpty { return "is empty" }
    let pieces = text.split(separator: ";", omittingEmptySubsequences: false)
    let essence = pieces[0]
    if essence.first?.isWhitespace == true || essence.last?.isWhitespace == true {
      return "has whitespace around it"
    }
    let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 1 { return "has no '/' between its type and subtype" }
    if parts.count > 2 { return "has more than one '/'" }
    if parts[0].isEmpty { return "has an empty type before '/'" }
    if parts[1].isEmpty { return "has an empty subtype after '/'" }
    for part in parts {
      if let bad = part.unicodeScalars.first(where: { !isTokenCharacter($0) }) {
        return "contains \(quoted(String(Character(bad)))), which a MIME type may not"
      }
    }
    for parameter in pieces.dropFirst() {
      let trimmed = parameter.drop { $0 == " " }
      let pair = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2, !pair[0].isEmpty, pair[0].unicodeScalars.allSatisfy(isTokenCharacter),
        !pair[1].isEmpty
      else {
        return "has a malformed parameter \(quoted(String(parameter)))"
      }
    }
    return nil
  }

  /// RFC 6838's restricted-name characters.
  static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": true
    case "!", "#", "$", "&", "-", "^", "_", ".", "+": true
    default: false
    }
  }

  // MARK: Extensions claimed twice

  mutating func checkDuplicateExtensions() {
    var claims: [String: (identifier: TypeIdentifier, tag: TypeTag)] = [:]
    for source in sources {
      for declaration in source.exported {
        for tag in declaration.tags where tag.tagClass == .filenameExtension {
          let key = tag.lookupKey
          if Self.hasVariable(tag.value) { continue }
          if let first = claims[key] {
            if first.identifier != declaration.typeIdentifier {
              let spelling =
                first.tag.value == tag.value ? "" : " (as \(Self.quoted(first.tag.value)))"
              diagnostics.append(
                ValidationRule.duplicateExtension.diagnostic(
                  "extension \(Self.quoted(tag.value)) of \(Self.shown(declaration.typeIdentifier)) is also claimed by \(Self.shown(first.identifier))\(spelling) at \(Self.describe(first.tag.location))",
                  at: tag.location ?? declaration.location,
                  hint: "let one exported type own the extension; import the other"))
            }
            continue
          }
          claims[key] = (declaration.typeIdentifier, tag)
          let systemOwners = baseRegistry.identifiers(forFilenameExtension: key).filter {
            baseRegistry.declarationKind(of: $0) == .system && $0 != declaration.typeIdentifier
          }
          if let owner = systemOwners.first, !declaration.typeIdentifier.isReserved,
            baseRegistry.declarationKind(of: declaration.typeIdentifier) != .system
          {
            diagnostics.append(
              ValidationRule.duplicateExtension.diagnostic(
                "extension \(Self.quoted(tag.value)) of \(Self.shown(declaration.typeIdentifier)) is also claimed by the system type \(owner), which wins for it on Apple's systems",
                at: tag.location ?? declaration.location,
                hint: "use the system type \(owner), or import it instead of exporting a rival"))
          }
        }
      }
    }
  }
}
