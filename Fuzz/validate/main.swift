// libFuzzer target: property-list bytes in, `folio validate`'s library path out.
//
// Built and run by `scripts/fuzz/run.sh validate SECONDS` (swiftc -sanitize=fuzzer,address);
// not part of `swift build`. Each input is validated as a declaration file (with the RELAX
// NG schema pass for one input in four) and the report rendered in every output format.
// Invariants: no crash, no sanitizer report, no hang past libFuzzer's -timeout; every
// diagnostic has a rule code and a message; JSON and SARIF output parse as JSON.
import Foundation
import PropertyLists
import TypeValidation
import UniformTypes

let validator = TypeDeclarationValidator(baseRegistry: .system)
let renderer = DiagnosticRenderer(tool: .init(name: "folio", version: "fuzz"))

func fail(_ message: String) -> Never {
  fatalError("validate fuzz invariant broken: \(message)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func validateFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  let data = Data(bytes: bytes, count: count)
  let report: ValidationReport
  do {
    report = try validator.validate(
      [.init(data: data, displayName: "fuzz.plist")], schema: count % 4 == 0)
  } catch {
    return 0  // a libxml2 internal failure is reported, not a crash
  }
  for diagnostic in report.diagnostics {
    if diagnostic.code.isEmpty || diagnostic.message.isEmpty {
      fail("a diagnostic without code or message: \(diagnostic)")
    }
  }
  for format in DiagnosticFormat.allCases {
    // No format may carry a raw line break or escape from the input inside a message.
    let text = renderer.render(report, as: format, exitCode: report.fails(strict: false) ? 1 : 0)
    if format == .human || format == .github {
      for diagnostic in report.diagnostics where diagnostic.message.contains("\u{1B}") {
        if text.contains("\u{1B}") { fail("\(format) output carries an escape character") }
      }
    }
    if format == .json || format == .sarif {
      guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
        fail("\(format) output is not JSON: \(text.prefix(500))")
      }
    }
  }
  return 0
}

/// Creates the globals (the system registry, the renderer) before the first input, so their
/// one-time allocations are not mistaken for leaks of that input.
@_cdecl("LLVMFuzzerInitialize")
public func validateFuzzInitialize(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
  _ = (validator, renderer)
  return 0
}
