import FolioTestSupport
import Foundation
import PropertyLists
import Testing
import TypeValidation
import UniformTypes

/// `foreign-export` with a small desktop database written for these tests, so the rule is
/// pinned whatever database the machine has.
@Suite struct ForeignExportTests {
  static let database = MIMEDatabase.parse(
    mimeInfo(
      """
        <mime-type type="image/x-xcf">
          <comment>GIMP image</comment>
          <glob pattern="*.xcf"/>
        </mime-type>
        <mime-type type="application/gpx+xml">
          <comment>GPS track</comment>
          <alias type="application/x-gpx"/>
          <glob pattern="*.gpx"/>
        </mime-type>
      """), file: "test.xml")

  /// An image editor's Info.plist exporting one type, with its bundle identifier.
  static func plist(bundle: String, identifier: String, tags: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
      <key>CFBundleIdentifier</key>
      <string>\(bundle)</string>
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key>
          <string>\(identifier)</string>
          <key>UTTypeConformsTo</key>
          <array>
            <string>public.image</string>
            <string>public.data</string>
          </array>
          <key>UTTypeTagSpecification</key>
          <dict>
    \(tags)
          </dict>
        </dict>
      </array>
    </dict>
    </plist>

    """
  }

  static func findings(_ text: String, database: MIMEDatabase? = database) throws -> [Diagnostic] {
    var loader: (@Sendable () -> MIMEDatabase?)?
    if let database { loader = { database } }
    let validator = TypeDeclarationValidator(desktopDatabase: loader)
    return try validator.validate(
      [.init(data: Data(text.utf8), displayName: "Info.plist")]
    ).diagnostics.filter { $0.code == "foreign-export" }
  }

  static let xcfByExtension = """
          <key>public.filename-extension</key>
          <array>
            <string>XCF</string>
          </array>
    """

  @Test func anExportOfAFormatTheDesktopKnowsByExtensionUnderAnotherDomainWarns() throws {
    let found = try Self.findings(
      Self.plist(bundle: "com.acme.painter", identifier: "org.gimp.xcf", tags: Self.xcfByExtension))
    #expect(found.count == 1)
    #expect(found.first?.severity == .warning)
    #expect(found.first?.location?.line == 10)
    #expect(found.first?.location?.column == 7)
    #expect(found.first?.message.contains("image/x-xcf") == true)
    #expect(found.first?.hint?.contains("UTImportedTypeDeclarations") == true)
  }

  @Test func aMIMEAliasNamesTheFormatToo() throws {
    let tags = """
            <key>public.mime-type</key>
            <string>application/x-gpx</string>
      """
    let found = try Self.findings(
      Self.plist(bundle: "com.acme.maps", identifier: "com.topografix.gpx", tags: tags))
    #expect(found.first?.message.contains("application/gpx+xml") == true)
  }

  @Test func theFormatsOwnerExportsItWithoutAWarning() throws {
    let found = try Self.findings(
      Self.plist(bundle: "org.gimp.gimp", identifier: "org.gimp.xcf", tags: Self.xcfByExtension))
    #expect(found.isEmpty)
  }

  @Test func aFormatTheDesktopDoesNotKnowIsLeftAlone() throws {
    let tags = """
            <key>public.filename-extension</key>
            <array>
              <string>acmepaint</string>
            </array>
      """
    let found = try Self.findings(
      Self.plist(bundle: "com.acme.painter", identifier: "org.acmepaint.doc", tags: tags))
    #expect(found.isEmpty)
  }

  @Test func theDatabaseIsReadOnlyForAnExportOutsideTheBundlesDomain() throws {
    let reads = LoadCounter()
    let validator = TypeDeclarationValidator(desktopDatabase: {
      reads.increment()
      return Self.database
    })
    let own = Self.plist(
      bundle: "org.gimp.gimp", identifier: "org.gimp.xcf", tags: Self.xcfByExtension)
    _ = try validator.validate([.init(data: Data(own.utf8), displayName: "Info.plist")])
    #expect(reads.count == 0)
    let foreign = Self.plist(
      bundle: "com.acme.painter", identifier: "org.gimp.xcf", tags: Self.xcfByExtension)
    _ = try validator.validate([
      .init(data: Data(foreign.utf8), displayName: "A.plist"),
      .init(data: Data(foreign.utf8), displayName: "B.plist"),
    ])
    #expect(reads.count == 1)
  }

  @Test func withoutADesktopDatabaseTheRuleIsSilent() throws {
    let found = try Self.findings(
      Self.plist(bundle: "com.acme.painter", identifier: "org.gimp.xcf", tags: Self.xcfByExtension),
      database: nil)
    #expect(found.isEmpty)
  }
}

/// Counts calls from a `@Sendable` closure.
private final class LoadCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var calls = 0

  var count: Int { lock.withLock { calls } }

  func increment() { lock.withLock { calls += 1 } }
}
