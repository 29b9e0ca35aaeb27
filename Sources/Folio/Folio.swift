// The umbrella module: `import Folio` gives a program every layer at once.
// Foundation too, as Apple's UniformTypeIdentifiers and SwiftUI re-export it: code written
// for them uses URL, Data and UUID with `import Folio` alone.
@_exported import Exporting
// FolioSystem for SystemError, the errno cause under every module's FolioError.
@_exported import FolioSystem
@_exported import Foundation
@_exported import Packaging
@_exported import PropertyLists
@_exported import UniformTypes
