// The umbrella module: `import Folio` gives a program every layer at once.
@_exported import Exporting
@_exported import Packaging
@_exported import PropertyLists
@_exported import UniformTypes
