/// Renders usage lines and `--help` text from command configurations.
public enum HelpFormatter {
  /// The one-line usage of the command at the end of `path`.
  ///
  /// - Parameter path: The commands from the root down.
  /// - Returns: `USAGE: folio plist convert [options] FILE`-style text.
  public static func usage(for path: [any ParsableCommand.Type]) -> String {
    let names = path.map { $0.configuration.name }.joined(separator: " ")
    guard let command = path.last else { return "USAGE: \(names)" }
    let configuration = command.configuration
    if !configuration.subcommands.isEmpty {
      return "USAGE: \(names) <subcommand>"
    }
    var parts = [names]
    for option in configuration.options {
      parts.append("[\(option.synopsis)]")
    }
    parts.append(contentsOf: configuration.arguments.map(\.synopsis))
    return "USAGE: " + parts.joined(separator: " ")
  }

  /// The full help of the command at the end of `path`.
  ///
  /// - Parameter path: The commands from the root down.
  /// - Returns: Overview, usage, arguments, options, subcommands and discussion.
  public static func help(for path: [any ParsableCommand.Type]) -> String {
    guard let command = path.last else { return "" }
    let configuration = command.configuration
    let names = path.map { $0.configuration.name }.joined(separator: " ")
    var out = "OVERVIEW: \(configuration.abstract)\n\n\(usage(for: path))\n"

    if !configuration.arguments.isEmpty {
      out += "\nARGUMENTS:\n"
      out += table(configuration.arguments.map { ($0.name, $0.help) })
    }
    var options = configuration.options.map { ($0.synopsis, $0.help) }
    if path.count == 1 { options.append(("--version", "Show the version.")) }
    options.append(("-h, --help", "Show help information."))
    out += "\nOPTIONS:\n" + table(options)

    if !configuration.subcommands.isEmpty {
      out += "\nSUBCOMMANDS:\n"
      out += table(
        configuration.subcommands.map { ($0.configuration.name, $0.configuration.abstract) })
      out += "\n  See '\(names) help <subcommand>' for detailed help.\n"
    }
    if !configuration.discussion.isEmpty {
      out += "\n" + configuration.discussion + "\n"
    }
    return out
  }

  private static func table(_ rows: [(String, String)]) -> String {
    let width = min(30, rows.map(\.0.count).max() ?? 0)
    var out = ""
    for (left, right) in rows {
      if left.count > width {
        out += "  \(left)\n  \(String(repeating: " ", count: width))  \(right)\n"
      } else {
        out += "  \(left.padded(to: width))  \(right)\n"
      }
    }
    return out
  }
}
