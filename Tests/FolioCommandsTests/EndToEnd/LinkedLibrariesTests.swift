import FolioTestSupport
import Foundation
import Testing

/// The command uses FoundationEssentials alone (issue 15, memory): one reference to corelibs
/// Foundation (`String(format:)`, `NSString`, `FileHandle`, `JSONSerialization`) links all of
/// it, CoreFoundation and ICU with it, and a static folio started 2–3 MiB larger.
@Suite struct LinkedLibrariesTests {
  @Test func theCommandDoesNotLinkCorelibsFoundation() throws {
    let binary = try FolioBinary.requireBuilt()
    let result = try runProcess("ldd", [binary.path])
    try #require(result.status == 0, "ldd: \(result.errorText)")
    let libraries = result.outputText.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
    }
    // A debug build links the Swift libraries dynamically, so they show here; the static
    // release build holds them inside, and scripts/bench/memory.sh measures that one.
    try #require(libraries.contains("libswiftCore.so"), "not a dynamically linked Swift build")
    #expect(libraries.contains("libFoundationEssentials.so"))
    for corelibs in [
      "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
      "libFoundationNetworking.so", "libFoundationXML.so",
    ] {
      #expect(!libraries.contains(corelibs), "folio links \(corelibs)")
    }
  }
}
