import Archives

extension ExportErrorDomain.Code {
  /// A file inside a package was removed or moved after the package's structure was read.
  public static let fileVanished = Self("file-vanished")
  /// A file or folder could not be read.
  public static let readFailed = Self("read-failed")
  /// A file or folder could not be written, synced or renamed into place.
  public static let writeFailed = Self("write-failed")
  /// The output already exists and the `ReplacePolicy` is `refuse`.
  public static let outputExists = Self("output-exists")
  /// The `ReplacePolicy` is `update`, which an export (written whole) cannot honour.
  public static let updateUnsupported = Self("update-unsupported")
  /// The output path names the input itself.
  public static let outputIsInput = Self("output-is-input")
  /// A result that is a folder (a package) was asked to go to a stream such as standard output.
  public static let folderCannotStream = Self("folder-cannot-stream")
  /// Text is not valid in the encoding it claims (a bad UTF-8 sequence, a lone surrogate).
  public static let invalidText = Self("invalid-text")
  /// The target encoding cannot hold a character of the text.
  public static let lossyConversion = Self("lossy-conversion")
  /// A notebook's `metadata.json` is missing, malformed or lacks a required field.
  public static let invalidNotebook = Self("invalid-notebook")
  /// A page listed in a notebook's `pageOrder` has no file in `pages/`.
  public static let missingPage = Self("missing-page")
  /// Two page files of a notebook name one page (their identifiers differ only in case).
  public static let duplicatePage = Self("duplicate-page")
  /// A notebook's `metadata.json` holds more than ``NotebookLimits`` allow.
  public static let notebookTooLarge = Self("notebook-too-large")
  /// A type name given by the user matches no known type.
  public static let unknownType = Self("unknown-type")
  /// No exporter, nor chain of exporters, leads from the input's type to the target.
  public static let noRoute = Self("no-route")
  /// The input's type could not be determined.
  public static let unidentifiedInput = Self("unidentified-input")
  /// An exporter's input is not what its type promises (not a folder, not a property list).
  public static let invalidInput = Self("invalid-input")
}

extension ExportErrorDomain.Code {
  // MARK: Document sessions

  /// A document's type cannot read the file's content type, or cannot be saved as the
  /// content type asked for.
  public static let unsupportedContentType = Self("unsupported-content-type")
  /// A document that was never saved has no file to read or save in place.
  public static let untitledDocument = Self("untitled-document")
  /// A document session was asked to read or save while another read or save ran.
  public static let documentBusy = Self("document-busy")
}
