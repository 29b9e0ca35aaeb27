import Foundation
import Testing

@testable import FolioCommands

@Suite struct TypeSearchPathsTests {
  @Test func followsTheXDGBaseDirectoryDefaults() {
    let paths = TypeSearchPaths(environment: ["HOME": "/home/ann"])
    #expect(paths.declarationDirectories.map(\.path) == ["/home/ann/.local/share/folio/types"])
    #expect(
      paths.mimeDirectories.map(\.path) == [
        "/usr/share/mime", "/usr/local/share/mime", "/home/ann/.local/share/mime",
      ])
    #expect(paths.languages.isEmpty)
    #expect(paths.cacheDirectory?.path == "/home/ann/.cache/folio")
  }

  @Test func keepsTheDatabaseCacheInXDGCacheHomeWhenItIsAbsolute() {
    let set = TypeSearchPaths(environment: ["HOME": "/home/ann", "XDG_CACHE_HOME": "/var/ann"])
    #expect(set.cacheDirectory?.path == "/var/ann/folio")
    let relative = TypeSearchPaths(environment: ["HOME": "/home/ann", "XDG_CACHE_HOME": "c"])
    #expect(relative.cacheDirectory?.path == "/home/ann/.cache/folio")
    #expect(TypeSearchPaths(environment: [:]).cacheDirectory == nil)
  }

  @Test func readsTheVariablesLeastImportantFirstAndSkipsRelativeEntries() {
    let paths = TypeSearchPaths(environment: [
      "HOME": "/home/ann", "XDG_DATA_HOME": "/data/ann",
      "XDG_DATA_DIRS": "/opt/share:relative:/usr/share",
      "FOLIO_TYPES_PATH": "/a::/b",
    ])
    #expect(
      paths.declarationDirectories.map(\.path) == ["/a", "/b", "/data/ann/folio/types"])
    #expect(
      paths.mimeDirectories.map(\.path) == ["/usr/share/mime", "/opt/share/mime", "/data/ann/mime"])
    let relativeHome = TypeSearchPaths(environment: ["XDG_DATA_HOME": "data", "HOME": "/h"])
    #expect(relativeHome.mimeDirectories.last?.path == "/h/.local/share/mime")
  }

  @Test func languagesComeFromGettextsVariables() {
    #expect(TypeSearchPaths.languages(environment: ["LANG": "de_DE.UTF-8"]) == ["de_DE", "de"])
    #expect(
      TypeSearchPaths.languages(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "sr_RS@latin"])
        == ["sr_RS@latin", "sr_RS", "sr"])
    #expect(
      TypeSearchPaths.languages(environment: ["LANGUAGE": "pt_BR:en", "LANG": "de_DE"])
        == ["pt_BR", "pt", "en"])
    #expect(TypeSearchPaths.languages(environment: ["LANG": "C.UTF-8"]).isEmpty)
    #expect(TypeSearchPaths.languages(environment: [:]).isEmpty)
  }
}
