import Testing
import UniformTypes

@Suite struct TypeIdentifierTests {
  @Test func comparesCaseInsensitivelyButKeepsSpelling() {
    let mixed = TypeIdentifier("Com.Example.Notebook")
    #expect(mixed == "com.example.notebook")
    #expect(Set([mixed, "COM.EXAMPLE.NOTEBOOK"]).count == 1)
    #expect(mixed.rawValue == "Com.Example.Notebook")
    #expect(mixed.description == "Com.Example.Notebook")
  }

  @Test(
    arguments: [
      ("com.example.notebook", nil),
      ("org.example.my-type2", nil),
      ("com.example.notebook ", "ends with whitespace"),
      (" com.example.notebook", "starts with whitespace"),
      ("org.vim.c++-source", "contains '+'"),
      ("com.example.my_type", "contains '_'"),
      ("notebook", "is not in reverse-DNS form (no period)"),
      ("com..example", "has an empty component"),
      (".com.example", "starts with a period"),
      ("com.example.", "ends with a period"),
      ("", "is empty"),
    ] as [(String, String?)])
  func syntaxProblemNamesWhatIsWrong(text: String, problem: String?) {
    #expect(TypeIdentifier.syntaxProblem(in: text) == problem)
    #expect(TypeIdentifier(text).isWellFormed == (problem == nil))
  }

  @Test func reservedDomainsAreAppleOnesAndDynamic() {
    #expect(TypeIdentifier("public.foo").isReserved)
    #expect(TypeIdentifier("COM.APPLE.foo").isReserved)
    #expect(TypeIdentifier("dyn.ah62d4rv4ge8043a").isReserved)
    #expect(!TypeIdentifier("com.applesauce.foo").isReserved)
    #expect(!TypeIdentifier("publicity.foo").isReserved)
  }
}

@Suite struct DynamicTypeIdentifierTests {
  @Test func markdownExtensionMatchesApplesDynamicIdentifier() {
    // macOS gives `.md` files this identifier when no Markdown type is declared
    // (toland/qlmarkdown#37).
    #expect(
      TypeIdentifier.dynamic(tagClass: .filenameExtension, tag: "md").rawValue
        == "dyn.ah62d4rv4ge8043a")
    #expect(
      TypeIdentifier.dynamic(tagClass: .filenameExtension, tag: "sql").rawValue
        == "dyn.ah62d4rv4ge81g6pq")
  }

  @Test func isStableAndCaseFoldedForExtensions() {
    let upper = TypeIdentifier.dynamic(tagClass: .filenameExtension, tag: "FOOBAR")
    let lower = TypeIdentifier.dynamic(tagClass: .filenameExtension, tag: "foobar")
    #expect(upper.rawValue == lower.rawValue)
    #expect(upper.isDynamic)
  }

  @Test func decodesBackToParentsAndTags() throws {
    let mime = TypeIdentifier.dynamic(tagClass: .mimeType, tag: "application/x-weird")
    let specification = try #require(mime.dynamicSpecification)
    #expect(specification.parents == [.data])
    #expect(specification.tags == [TypeTag(.mimeType, "application/x-weird")])

    let odd = TypeIdentifier.dynamic(
      tagClass: TagClass("com.example.tag"), tag: "a:b=c\\d", conformingTo: .directory)
    let decoded = try #require(odd.dynamicSpecification)
    #expect(decoded.parents == [.directory])
    #expect(decoded.tags == [TypeTag(TagClass("com.example.tag"), "a:b=c\\d")])
  }

  @Test func nonDynamicIdentifiersDoNotDecode() {
    #expect(TypeIdentifier.plainText.dynamicSpecification == nil)
    #expect(TypeIdentifier("dyn.a!!!").dynamicSpecification == nil)
  }
}
