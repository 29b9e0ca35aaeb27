import Foundation
import Testing
import UniformTypes

// Apple's URL additions of the Uniform Type Identifiers framework: "If partialName already
// has a path extension, and that path extension is valid for file system objects of type
// contentType, the function doesn't add an extension":
// https://developer.apple.com/documentation/foundation/url/appendingpathcomponent(_:conformingto:)
// https://developer.apple.com/documentation/foundation/url/appendingpathextension(for:)
@Suite struct URLUTTypeTests {
  private let folder = URL(fileURLWithPath: "/tmp/downloads", isDirectory: true)

  @Test func aNameWithoutAnExtensionGetsTheTypesPreferredOne() {
    let url = folder.appendingPathComponent("readme", conformingTo: .plainText)
    #expect(url.path == "/tmp/downloads/readme.txt")
  }

  @Test func aNameWhoseExtensionNamesTheTypeIsKept() {
    #expect(
      folder.appendingPathComponent("puppy.jpg", conformingTo: .jpeg).lastPathComponent
        == "puppy.jpg")
    // A type conforming to the one asked for counts too.
    #expect(
      folder.appendingPathComponent("puppy.jpg", conformingTo: .image).lastPathComponent
        == "puppy.jpg")
  }

  @Test func aNameWhoseExtensionNamesAnotherTypeGetsTheTypesOneAdded() {
    #expect(
      folder.appendingPathComponent("puppy.jpg", conformingTo: .png).lastPathComponent
        == "puppy.jpg.png")
  }

  @Test func aTypeWithoutAnExtensionAddsNone() {
    #expect(folder.appendingPathComponent("blob", conformingTo: .data).lastPathComponent == "blob")
  }

  @Test func aPackageComponentIsADirectory() {
    let url = folder.appendingPathComponent("Archive", conformingTo: .zip)
    #expect(url.lastPathComponent == "Archive.zip")
    #expect(!url.hasDirectoryPath)
    #expect(folder.appendingPathComponent("Pictures", conformingTo: .folder).hasDirectoryPath)
  }

  @Test func appendingAnExtensionForATypeAddsItUnlessPresent() {
    let file = folder.appending(path: "notes")
    #expect(file.appendingPathExtension(for: .plainText).lastPathComponent == "notes.txt")
    #expect(
      folder.appending(path: "notes.txt").appendingPathExtension(for: .plainText)
        .lastPathComponent == "notes.txt")
    #expect(
      folder.appending(path: "notes.txt").appendingPathExtension(for: .json).lastPathComponent
        == "notes.txt.json")
  }

  @Test func theMutatingFormsChangeTheURLInPlace() {
    var url = folder
    url.appendPathComponent("report", conformingTo: .pdf)
    #expect(url.lastPathComponent == "report.pdf")
    var other = folder.appending(path: "data")
    other.appendPathExtension(for: .json)
    #expect(other.lastPathComponent == "data.json")
  }
}
