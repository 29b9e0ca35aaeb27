import FoundationEssentials

/// Where the `folio` command looks for types beyond its built-in ones, from its environment:
/// the XDG Base Directory rules, which the library leaves to the program.
struct TypeSearchPaths: Sendable, Equatable {
  /// Folders of declaration files (`*.plist`): every folder of `FOLIO_TYPES_PATH`
  /// (colon-separated, empty entries skipped), then `$XDG_DATA_HOME/folio/types`.
  var declarationDirectories: [URL]
  /// `mime` folders of the shared MIME database, least important first: those of
  /// `$XDG_DATA_DIRS` in reverse, then `$XDG_DATA_HOME/mime` (the user's own wins).
  var mimeDirectories: [URL]
  /// The user's languages for type descriptions, preferred first (`de_DE`, `de`).
  var languages: [String]
  /// Where the pre-read shared MIME database is kept: `$XDG_CACHE_HOME/folio`, by default
  /// `~/.cache/folio`; `nil` when neither is set (the database is then read every time).
  var cacheDirectory: URL?

  /// Reads the paths from an environment.
  ///
  /// `XDG_DATA_HOME` defaults to `~/.local/share`, `XDG_DATA_DIRS` to
  /// `/usr/local/share:/usr/share` and `XDG_CACHE_HOME` to `~/.cache`, as the XDG Base
  /// Directory specification says; relative entries are ignored, as it also says. Languages
  /// come from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG`, as gettext reads them.
  ///
  /// - Parameter environment: The environment.
  init(environment: [String: String]) {
    var declarationDirectories: [URL] = []
    if let path = environment["FOLIO_TYPES_PATH"] {
      for entry in path.split(separator: ":") where !entry.isEmpty {
        declarationDirectories.append(URL(fileURLWithPath: String(entry), isDirectory: true))
      }
    }
    let dataHome: String?
    if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
      dataHome = value
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      dataHome = home + "/.local/share"
    } else {
      dataHome = nil
    }
    if let dataHome {
      declarationDirectories.append(
        URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent("folio/types"))
    }
    self.declarationDirectories = declarationDirectories

    var dataDirectories = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":")
      .map(String.init).filter { $0.hasPrefix("/") }
    if dataDirectories.isEmpty { dataDirectories = ["/usr/local/share", "/usr/share"] }
    var mimeDirectories: [URL] = []
    for directory in dataDirectories.reversed() + (dataHome.map { [$0] } ?? []) {
      let mime = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("mime")
      if !mimeDirectories.contains(mime) { mimeDirectories.append(mime) }
    }
    self.mimeDirectories = mimeDirectories
    self.languages = Self.languages(environment: environment)
    if let value = environment["XDG_CACHE_HOME"], value.hasPrefix("/") {
      cacheDirectory = URL(fileURLWithPath: value, isDirectory: true)
        .appendingPathComponent("folio", isDirectory: true)
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      cacheDirectory = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".cache/folio", isDirectory: true)
    } else {
      cacheDirectory = nil
    }
  }

  /// The user's languages, preferred first.
  ///
  /// `LANGUAGE`'s list, else the first of `LC_ALL`, `LC_MESSAGES`,
  /// `LANG`; each `de_DE.UTF-8@euro` gives `de_DE@euro`, `de_DE`, `de`. `C` and `POSIX` give none.
  static func languages(environment: [String: String]) -> [String] {
    var locales: [String] = []
    if let list = environment["LANGUAGE"], !list.isEmpty {
      locales = list.split(separator: ":").map(String.init)
    }
    if locales.isEmpty {
      for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let value = environment[name], !value.isEmpty {
          locales = [value]
          break
        }
      }
    }
    var tags: [String] = []
    for locale in locales {
      var name = Substring(locale)
      var modifier = ""
      if let at = name.firstIndex(of: "@") {
        modifier = String(name[at...])
        name = name[..<at]
      }
      if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
      guard !name.isEmpty, name != "C", name != "POSIX" else { continue }
      var forms: [String] = []
      if !modifier.isEmpty { forms.append(String(name) + modifier) }
      forms.append(String(name))
      if let underscore = name.firstIndex(of: "_") { forms.append(String(name[..<underscore])) }
      for form in forms where !tags.contains(form) { tags.append(form) }
    }
    return tags
  }
}
