import Foundation
import Testing

@testable import UniformTypes

@Suite struct GlobPatternTests {
  private func matches(_ pattern: String, _ name: String, caseSensitive: Bool = true) -> Bool {
    let compiled = GlobPattern(pattern, caseSensitive: caseSensitive)
    let text = caseSensitive ? name : name.lowercased()
    return compiled.matches(Array(text.unicodeScalars))
  }

  @Test func shapesDecideHowAPatternIsLookedUp() {
    #expect(GlobPattern.Shape("Makefile") == .literal)
    #expect(GlobPattern.Shape("*.tar.gz") == .suffix)
    #expect(GlobPattern.Shape("*~") == .suffix)
    #expect(GlobPattern.Shape("*.[1-9]") == .wildcard)
    #expect(GlobPattern.Shape("README*") == .wildcard)
    #expect(GlobPattern.Shape("*.so.[0-9]*") == .wildcard)
  }

  @Test func wildcardsMatchAsFnmatchDoes() {
    #expect(matches("*.[1-9]", "ls.1"))
    #expect(!matches("*.[1-9]", "ls.0"))
    #expect(matches("*.so.[0-9]*", "libc.so.6"))
    #expect(matches("*.so.[0-9]*", "libz.so.1.2.13"))
    #expect(!matches("*.so.[0-9]*", "libz.so"))
    #expect(matches("README*", "README.md"))
    #expect(matches("[0-9][0-9][0-9].vdr", "001.vdr"))
    #expect(matches("[!a]?c", "xbc"))
    #expect(!matches("[!a]?c", "abc"))
    #expect(matches("a\\*b", "a*b"))
    #expect(!matches("a\\*b", "axb"))
    #expect(matches("[unclosed", "[unclosed"))
    #expect(matches("Ma*e", "MAKE", caseSensitive: false))
    #expect(!matches("Ma*e", "MAKE"))
    #expect(matches("*é*", "café"))
  }

  @Test func backtrackingStaysLinearInPractice() {
    let pattern = String(repeating: "*a", count: 100) + "*b"
    let name = String(repeating: "a", count: 250)
    #expect(!matches(pattern, name))
    #expect(matches(pattern, name + "b"))
  }
}

@Suite struct XMLRootElementTests {
  private func root(_ text: String) -> XMLRootElement? {
    Array(text.utf8).withUnsafeBytes { XMLRootElement.find(in: $0) }
  }

  @Test func findsTheDocumentElementPastTheProlog() {
    let svg = """
      \u{FEFF}<?xml version="1.0" standalone="no"?>
      <!-- drawn by hand -->
      <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [ <!ENTITY e "]>"> ]>
      <?xml-stylesheet href="a.css"?>
      <svg width="10" xmlns="http://www.w3.org/2000/svg" xmlns:x="urn:x"><x:y/></svg>
      """
    #expect(
      root(svg) == XMLRootElement(namespaceURI: "http://www.w3.org/2000/svg", localName: "svg"))
    #expect(
      root("<a:feed xmlns:a='http://www.w3.org/2005/Atom'/>")
        == XMLRootElement(namespaceURI: "http://www.w3.org/2005/Atom", localName: "feed"))
    #expect(root("<plist version=\"1.0\">") == XMLRootElement(namespaceURI: "", localName: "plist"))
  }

  @Test func givesUpOnWhatIsNotXMLOrEndsTooSoon() {
    #expect(root("hello <svg/>") == nil)
    #expect(root("<!-- never closed") == nil)
    #expect(root("<svg xmlns=\"http://www.w3.org/2000/sv") == nil)
    #expect(root("") == nil)
  }

  @Test func rulesMatchByNamespaceLocalNameOrBoth() {
    let svg = XMLRootElement(namespaceURI: "http://www.w3.org/2000/svg", localName: "svg")
    #expect(RootXMLRule(namespaceURI: "http://www.w3.org/2000/svg", localName: "svg").matches(svg))
    #expect(RootXMLRule(namespaceURI: "http://www.w3.org/2000/svg", localName: "").matches(svg))
    #expect(RootXMLRule(namespaceURI: "", localName: "svg").matches(svg))
    #expect(!RootXMLRule(namespaceURI: "urn:other", localName: "svg").matches(svg))
    #expect(!RootXMLRule(namespaceURI: "", localName: "html").matches(svg))
  }
}
