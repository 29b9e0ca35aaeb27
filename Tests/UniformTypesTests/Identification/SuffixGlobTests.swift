import FolioTestSupport
import Testing

@testable import UniformTypes

/// Suffix globs are looked up only at the lengths where a name's byte can begin one; every
/// shape of suffix still matches (a dot, a tilde, a comma, a letter).
@Suite struct SuffixGlobTests {
  private static let registry: TypeRegistry = {
    let database = MIMEDatabase.parse(
      mimeInfo(
        """
          <mime-type type="application/x-backup-example"><glob pattern="*~"/></mime-type>
          <mime-type type="text/x-rcs-example"><glob pattern="*,v"/></mime-type>
          <mime-type type="text/x-notes-example"><glob pattern="*.notes"/></mime-type>
          <mime-type type="text/x-docs-example"><glob pattern="*-doc" case-sensitive="true"/></mime-type>
        """), file: "suffixes.xml")
    var builder = TypeRegistryBuilder()
    builder.add(database)
    return builder.build()
  }()

  private func mime(_ name: String) -> String? {
    let type = Self.registry.identifier(forFileNamed: name, kind: .regularFile)
    return Self.registry.preferredMIMEType(for: type)
  }

  @Test(arguments: [
    ("draft.txt~", "application/x-backup-example"), ("~", "application/x-backup-example"),
    ("file.c,v", "text/x-rcs-example"), ("Meeting.NOTES", "text/x-notes-example"),
    ("a.notes", "text/x-notes-example"), ("api-doc", "text/x-docs-example"),
    ("API-DOC", "application/octet-stream"), ("notes", "application/octet-stream"),
  ])
  func everyShapeOfSuffixStillMatches(_ name: String, _ expected: String) {
    #expect(mime(name) == expected, "\(name)")
  }

  @Test func theTableHoldsTheFirstByteOfEverySuffix() {
    let rules = Self.registry.contentRules
    for key in [rules.suffixes.keys, rules.foldedSuffixes.keys].joined() {
      #expect(rules.suffixFirstBytes[Int(key.utf8.first!)], "\(key)")
    }
    #expect(!rules.suffixFirstBytes[Int(UInt8(ascii: "q"))])
  }
}
