extension PropertyListErrorDomain.Code {
  /// The file could not be read (the cause holds the system error).
  public static let readFailed = Self("read-failed")
  /// The output could not be written (the cause holds the system error).
  public static let writeFailed = Self("write-failed")
  /// The input is larger than ``PropertyListReadOptions/maximumInputSize``.
  public static let inputTooLarge = Self("input-too-large")
  /// Containers nest deeper than ``PropertyListReadOptions/maximumDepth``.
  public static let tooDeep = Self("too-deep")
  /// The input holds more values than ``PropertyListReadOptions/maximumValueCount``.
  public static let tooManyValues = Self("too-many-values")
  /// The input is empty.
  public static let emptyInput = Self("empty-input")
  /// The bytes are not a property list in any format Folio reads, or a writer was asked for a
  /// format it does not write (OpenStep).
  public static let unsupportedFormat = Self("unsupported-format")
  /// The XML declares a text encoding Folio does not read.
  public static let unsupportedEncoding = Self("unsupported-encoding")
  /// The XML is not well-formed (libxml2's message is in the error).
  public static let malformedXML = Self("malformed-xml")
  /// The document declares an entity; property lists never need one, and expanding them is unsafe.
  public static let entityDeclaration = Self("entity-declaration")
  /// The document refers to an entity that is not one of the five predefined ones.
  public static let undefinedEntity = Self("undefined-entity")
  /// An element that is not part of the property list vocabulary.
  public static let unknownElement = Self("unknown-element")
  /// A known element in a place where it is not allowed.
  public static let unexpectedElement = Self("unexpected-element")
  /// Text (other than whitespace) between elements, or inside an element that takes none.
  public static let unexpectedText = Self("unexpected-text")
  /// A comment, CDATA section or processing instruction inside a value that Apple's reader
  /// refuses there (only `<string>` and `<key>` may hold CDATA; no value may hold the others).
  public static let misplacedMarkup = Self("misplaced-markup")
  /// A `<key>` with no value after it.
  public static let missingValue = Self("missing-value")
  /// A value inside a `<dict>` with no `<key>` before it.
  public static let missingKey = Self("missing-key")
  /// A document with no value at all (`<plist/>`).
  public static let missingRoot = Self("missing-root")
  /// An `<integer>` that is not a 64-bit integer.
  public static let invalidInteger = Self("invalid-integer")
  /// A `<real>` that is not a number.
  public static let invalidReal = Self("invalid-real")
  /// A `<date>` that is not `YYYY-MM-DDTHH:MM:SSZ`.
  public static let invalidDate = Self("invalid-date")
  /// A `<data>` that is not base64.
  public static let invalidData = Self("invalid-data")
  /// A string that is not valid in its encoding.
  public static let invalidString = Self("invalid-string")
  /// A binary property list that ends before its declared structures do.
  public static let truncatedBinary = Self("truncated-binary")
  /// A binary property list whose offset or reference points outside its bounds.
  public static let invalidOffset = Self("invalid-offset")
  /// A binary property list whose trailer or object markers are not valid.
  public static let invalidBinary = Self("invalid-binary")
  /// A container that contains itself, directly or through others.
  public static let referenceCycle = Self("reference-cycle")
  /// JSON text that is not valid JSON.
  public static let malformedJSON = Self("malformed-json")
  /// Text that starts like an OpenStep property list but breaks its grammar.
  public static let malformedOpenStep = Self("malformed-openstep")
  /// A value the target format cannot hold (a date or data in JSON, a non-finite real in JSON).
  public static let unrepresentable = Self("unrepresentable")
  /// A conversion's output would pass its size limit (shared references written out).
  public static let outputTooLarge = Self("output-too-large")
  /// The output file already exists and the `ReplacePolicy` is `refuse`.
  public static let outputExists = Self("output-exists")
  /// The `ReplacePolicy` is `update`, which a property list file (written whole) cannot honour.
  public static let updateUnsupported = Self("update-unsupported")
}

extension Diagnostic {
  /// The rule code of the warning for a key that repeats inside one dictionary.
  public static let duplicateKeyCode = "FOLIO-PLIST-DUPLICATE-KEY"
  /// The rule code of the warning for a `<date>` that names a time that does not exist
  /// (February 30, hour 24), which Apple reads by rolling over.
  public static let nonexistentDateCode = "FOLIO-PLIST-NONEXISTENT-DATE"
  /// The rule code of the warning for a `<key>` outside a `<dict>`, which Apple reads as a string.
  public static let strayKeyCode = "FOLIO-PLIST-KEY-OUTSIDE-DICT"
}
