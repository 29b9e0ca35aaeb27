import FolioTestSupport
import Foundation
import Testing
import TypeValidation
import UniformTypes

@Suite struct PropertyListSchemaTests {
  @Test(arguments: PropertyListSchema.allCases)
  func embeddedCopyEqualsTheFileInSchemas(schema: PropertyListSchema) throws {
    let file = ProjectPaths.schemas.appendingPathComponent(schema.fileName)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(schema.source == text, "run scripts/embed-schemas.sh")
  }

  @Test(arguments: PropertyListSchema.allCases)
  func theSampleInfoPlistIsValid(schema: PropertyListSchema) throws {
    let data = try Data(contentsOf: ProjectPaths.sampleInfoPlist)
    #expect(try schema.validate(data, file: "Info.plist").isEmpty)
  }

  @Test func strayTextAndUnpairedKeysBreakThePlistShape() throws {
    let stray = Data(
      "<plist version=\"1.0\">\n<array>\n<string>a</string>\n@LOCALIZATIONS@\n</array>\n</plist>\n"
        .utf8)
    let problems = try PropertyListSchema.plist.validate(stray, file: "A.plist")
    #expect(!problems.isEmpty)
    #expect(problems.allSatisfy { $0.code == "schema-violation" && $0.location?.file == "A.plist" })
    #expect(problems.first?.location?.line != nil)

    let unpaired = Data("<plist>\n<dict>\n<key>a</key>\n<key>b</key>\n</dict>\n</plist>\n".utf8)
    #expect(!(try PropertyListSchema.plist.validate(unpaired, file: "B.plist")).isEmpty)
  }

  @Test func declarationsNeedAnIdentifierAndAStringRole() throws {
    let noIdentifier = Data(
      """
      <plist version="1.0">
      <dict>
        <key>UTExportedTypeDeclarations</key>
        <array>
          <dict>
            <key>UTTypeConformsTo</key>
            <string>public.data</string>
          </dict>
        </array>
      </dict>
      </plist>

      """.utf8)
    #expect(
      !(try PropertyListSchema.typeDeclarations.validate(noIdentifier, file: "C.plist")).isEmpty)
    #expect(try PropertyListSchema.plist.validate(noIdentifier, file: "C.plist").isEmpty)
  }

  @Test func malformedXMLIsOneViolationWithALine() throws {
    let broken = Data("<plist>\n<dict>\n</plist>\n".utf8)
    let problems = try PropertyListSchema.plist.validate(broken, file: "D.plist")
    #expect(problems.count == 1)
    #expect(problems.first?.message.hasPrefix("not well-formed XML") == true)
    #expect((problems.first?.location?.line ?? 0) >= 3)
  }

  @Test func externalEntitiesAreNeverFetched() throws {
    let hostile = Data(
      """
      <?xml version="1.0"?>
      <!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <plist version="1.0"><string>&x;</string></plist>

      """.utf8)
    let problems = try PropertyListSchema.plist.validate(hostile, file: "E.plist")
    #expect(problems.allSatisfy { !$0.message.contains("root:") })
  }

  @Test(arguments: PropertyListSchema.allCases)
  func anyPlistVersionIsAcceptedAsApplesDTDDeclaresItCDATA(schema: PropertyListSchema) throws {
    let text = try String(contentsOf: ProjectPaths.sampleInfoPlist, encoding: .utf8)
    for version in ["0.9", "1.0", ""] {
      let data = Data(
        text.replacingOccurrences(
          of: "<plist version=\"1.0\">", with: "<plist version=\"\(version)\">"
        )
        .utf8)
      #expect(try schema.validate(data, file: "Info.plist").isEmpty, "version \(version)")
    }
  }

  @Test func aValueErrorNamesItsKey() throws {
    let role = Data(
      """
      <plist version="1.0">
      <dict>
        <key>CFBundleDocumentTypes</key>
        <array>
          <dict>
            <key>CFBundleTypeRole</key>
            <string>Editorr</string>
          </dict>
        </array>
      </dict>
      </plist>

      """.utf8)
    let problems = try PropertyListSchema.typeDeclarations.validate(role, file: "R.plist")
    #expect(problems.count == 1, "\(problems)")
    #expect(
      problems.first?.message.hasPrefix("the value of key 'CFBundleDocumentTypes': item 1 ")
        == true, "\(problems)")
    #expect(problems.first?.location?.line == 5)
  }
}
