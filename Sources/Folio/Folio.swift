// The umbrella module: `import Folio` gives a program every layer at once.
// Foundation too, as Apple's UniformTypeIdentifiers and SwiftUI re-export it: code written
// for them uses URL, Data and UUID with `import Folio` alone. The layers themselves use
// FoundationEssentials only, and the `folio` command depends on them, not on this module:
// a binary that references anything of corelibs Foundation links all of it (CoreFoundation
// and ICU with it). What of Apple's document model needs Foundation proper
// (`NSFileCoordinator`'s `NSErrorPointer`) lives here.
@_exported import Archives
@_exported import Documents
// FolioSystem for SystemError, the errno cause under every module's FolioError, and
// ReplacePolicy, which every writer takes.
@_exported import FolioSystem
@_exported import Foundation
// The sample notebook format, for programs that open the bundled sample (Examples/Notebook).
@_exported import Notebooks
// Progress: ProgressManager, Subprogress and ProgressReporter, which the layers' calls take.
@_exported import ProgressReporting
@_exported import PropertyLists
@_exported import TypeValidation
@_exported import UniformTypes
