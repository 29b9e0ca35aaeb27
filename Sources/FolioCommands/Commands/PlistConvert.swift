import FolioSystem
import FoundationEssentials
import Glibc
import PropertyLists

extension FolioCommand.Plist {
  /// `folio plist convert --to FORMAT [-o OUT] FILE`: rewrites a property list in another format.
  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "convert",
      abstract: "Convert a property list to XML, binary or JSON.",
      discussion: """
        Without --output, FILE is replaced in place, as plutil -convert does
        ('-' as FILE writes to standard output). The output is written to a
        temporary file beside its target and renamed over it only once
        complete, so a failed conversion never leaves a half-written file.
        JSON cannot hold dates, data or non-finite reals; such input is
        refused, as plutil refuses it. A key repeated in a dictionary is
        written once, the last value winning (as Foundation and plutil read
        it), with a warning. The output may take at most --max-output-size bytes
        (by default 16 times the input, at least 64M): a binary property list
        can reference one object from many places, which XML and JSON write out
        in full; past the limit nothing is written.
        """,
      options: [
        to, output, force, maxOutputSize, SharedOptions.maxInputSize, SharedOptions.maxValues,
      ],
      arguments: [fileArgument]
    )

    static let to = Option.choice(
      "to", valueName: "FORMAT", PropertyListFormat.writable, name: \.rawValue,
      help: "The format to write: xml, binary or json.")
    static let force = Option.flag(
      "force", short: "f",
      help: "Replace an existing OUT (FILE itself is always converted in place).")
    static let output = Option.path(
      "output", short: "o", valueName: "OUT",
      help: "Where to write ('-' for standard output); default: replace FILE.")
    static let maxOutputSize = Option.byteCount(
      "max-output-size",
      help:
        "Refuse to write more than SIZE bytes (default 16 times the input, at least 64M; K, M, G suffixes)."
    )
    static let fileArgument = Argument.one(
      "FILE", help: "The property list to convert ('-' reads standard input).")

    var format: PropertyListFormat
    var file: String
    var output: String?
    var force: Bool
    var readOptions: PropertyListReadOptions
    var maximumOutputSize: Int64?

    /// The output limit unless `--max-output-size` says otherwise: XML spells out what
    /// binary packs in a byte or two, so sixteen times the input leaves room for any
    /// conversion that does not multiply shared references.
    static func defaultOutputLimit(inputSize: Int) -> Int {
      max(64 << 20, inputSize.multipliedReportingOverflow(by: 16).partialValue)
    }

    init(parsing arguments: ParsedArguments) throws {
      guard let format = try arguments[Self.to] else {
        throw UsageError("missing option '--to' (xml, binary or json)")
      }
      self.format = format
      file = arguments[Self.fileArgument]
      output = try arguments[Self.output]
      force = try arguments[Self.force]
      readOptions = try SharedOptions.readOptions(arguments)
      maximumOutputSize = try arguments[Self.maxOutputSize]
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let document: PropertyListDocument
      var inputSize = 0
      do {
        if file == "-" {
          let data = try PlistInput.standardInput(context, options: readOptions)
          inputSize = data.count
          document = try PropertyListReader.read(data, file: "-", options: readOptions)
        } else {
          document = try PlistInput.read(file, context: context, options: readOptions)
          var info = stat()
          if stat(context.absolutePath(file), &info) == 0 { inputSize = Int(info.st_size) }
        }
      } catch let error as PropertyListError {
        context.standardError.write(PlistInput.render(error, file: file) + "\n")
        return .failure
      }
      for diagnostic in document.diagnostics {
        context.standardError.write(PlistInput.render(diagnostic) + "\n")
      }
      let target = output ?? file
      // One rule for every command that writes a file: an existing OUT is replaced only with
      // --force; without -o the conversion is in place, as plutil -convert does it.
      if let output, output != "-", output != file, !force {
        var existing = stat()
        if lstat(context.absolutePath(output), &existing) == 0 {
          throw CommandFailure(
            code: "output-exists",
            message: "'\(output)' already exists; use --force to replace it")
        }
      }
      let limit =
        maximumOutputSize.map { Int(clamping: $0) }
        ?? Self.defaultOutputLimit(inputSize: inputSize)
      do {
        if target == "-" {
          context.standardOutput.write(
            try PropertyListWriter.data(
              for: document.rootWithUniqueKeys, format: format, maximumOutputSize: limit))
        } else {
          let url = URL(fileURLWithPath: context.absolutePath(target))
          try PropertyListWriter.write(
            document.rootWithUniqueKeys, to: url, format: format, maximumOutputSize: limit)
        }
      } catch let error as PropertyListError {
        context.standardError.write(PlistInput.render(error, file: file) + "\n")
        return .failure
      }
      return .success
    }
  }
}

/// Reading and reporting shared by the `plist` subcommands.
enum PlistInput {
  /// Reads a file the user named (`-` is standard input), keeping the name as typed in locations.
  static func read(
    _ file: String, context: CommandContext, options: PropertyListReadOptions = .init()
  ) throws -> PropertyListDocument {
    if file == "-" {
      return try PropertyListReader.read(
        standardInput(context, options: options), file: "-", options: options)
    }
    return try PropertyListReader.read(
      contentsOf: URL(fileURLWithPath: context.absolutePath(file)), displayName: file,
      options: options)
  }

  /// Standard input, refused once it holds more than the size limit (the rest unread).
  static func standardInput(
    _ context: CommandContext, options: PropertyListReadOptions
  ) throws -> Data {
    let data: Data
    do {
      data = try context.readStandardInputUpTo(options.maximumInputSize)
    } catch {
      throw PropertyListError(
        .readFailed, "cannot read standard input", location: SourceLocation(file: "-"),
        cause: error)
    }
    guard data.count <= options.maximumInputSize else {
      throw PropertyListError(
        .inputTooLarge,
        "standard input holds more than \(options.maximumInputSize) bytes, the limit for a property list",
        location: SourceLocation(file: "-"))
    }
    return data
  }

  /// `file:line:column: error: message` (or `file@offset: …`), as compilers print errors.
  static func render(_ error: PropertyListError, file: String) -> String {
    let place = error.location?.description ?? file
    // A refusal an option can lift names the option (library messages never do).
    let hint =
      switch error.code {
      case .inputTooLarge: " (raise the limit with --max-input-size)"
      case .tooManyValues: " (raise the limit with --max-values)"
      case .outputTooLarge: " (raise the limit with --max-output-size)"
      default: ""
      }
    return "\(place): error: \(error.message)\(hint)"
  }

  /// `file:line:column: warning: message [CODE]`.
  static func render(_ diagnostic: Diagnostic) -> String {
    diagnostic.description
  }
}
