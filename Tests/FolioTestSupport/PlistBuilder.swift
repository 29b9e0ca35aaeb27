public import FolioSystem
public import PropertyLists

/// Builds property-list trees with locations, so declaration tests need no reader.
///
/// Each value is placed on its own line of a fictional file.
public struct PlistBuilder {
  public var file = "Test.plist"
  public private(set) var line = 0

  public init(file: String = "Test.plist") { self.file = file }

  public mutating func at() -> SourceLocation {
    line += 1
    return SourceLocation(file: file, line: line, column: 5)
  }

  public mutating func string(_ text: String) -> PropertyListValue {
    PropertyListValue(.string(text), location: at())
  }

  public mutating func integer(_ number: Int64) -> PropertyListValue {
    PropertyListValue(.integer(number), location: at())
  }

  public mutating func bool(_ flag: Bool) -> PropertyListValue {
    PropertyListValue(.boolean(flag), location: at())
  }

  public mutating func strings(_ texts: [String]) -> PropertyListValue {
    let location = at()
    var items: [PropertyListValue] = []
    for text in texts { items.append(string(text)) }
    return PropertyListValue(.array(items), location: location)
  }

  public mutating func array(_ items: [PropertyListValue]) -> PropertyListValue {
    PropertyListValue(.array(items), location: at())
  }

  public mutating func dict(_ pairs: [(String, PropertyListValue)]) -> PropertyListValue {
    let location = at()
    return PropertyListValue(
      .dictionary(pairs.map { .init(key: $0.0, keyLocation: $0.1.location, value: $0.1) }),
      location: location)
  }
}

/// A type declaration dictionary with the usual keys.
public func declarationDict(
  _ builder: inout PlistBuilder, identifier: String?, conformsTo: [String] = ["public.data"],
  extensions: [String] = [], mimeTypes: [String] = []
) -> PropertyListValue {
  var pairs: [(String, PropertyListValue)] = []
  if let identifier { pairs.append(("UTTypeIdentifier", builder.string(identifier))) }
  if !conformsTo.isEmpty { pairs.append(("UTTypeConformsTo", builder.strings(conformsTo))) }
  var tagPairs: [(String, PropertyListValue)] = []
  if !extensions.isEmpty {
    tagPairs.append(("public.filename-extension", builder.strings(extensions)))
  }
  if !mimeTypes.isEmpty { tagPairs.append(("public.mime-type", builder.strings(mimeTypes))) }
  if !tagPairs.isEmpty { pairs.append(("UTTypeTagSpecification", builder.dict(tagPairs))) }
  return builder.dict(pairs)
}
