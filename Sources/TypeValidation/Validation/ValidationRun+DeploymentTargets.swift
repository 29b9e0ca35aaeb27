import PropertyLists
import UniformTypes

// Deployment targets: whether a type the system declares only from some version on is the
// system's on every version the bundle supports.
extension ValidationRun {
  /// The oldest version of one platform a bundle runs on.
  struct DeploymentTarget {
    var platform: SystemTypeAvailability.Platform
    var version: SystemTypeAvailability.Version
  }

  /// What the bundle of a file says it supports, with the keys that say so.
  struct BundleFacts {
    /// The domain of `CFBundleIdentifier`, when known.
    var domain: String?
    /// Whether the file has a `CFBundleIdentifier` (with or without build variables): a
    /// bundle's Info.plist rather than a file of declarations.
    var hasBundleIdentifier = false
    /// `LSMinimumSystemVersion` (macOS) and `MinimumOSVersion` (iOS), where readable.
    var targets: [DeploymentTarget] = []
  }

  static func facts(of source: DeclarationSource) -> BundleFacts {
    let domain = source.bundleIdentifier.flatMap { bundle in
      hasVariable(bundle.value) ? nil : Self.domain(of: TypeIdentifier(bundle.value))
    }
    var facts = BundleFacts(domain: domain, hasBundleIdentifier: source.bundleIdentifier != nil)
    let keys: [(Located<String>?, SystemTypeAvailability.Platform)] = [
      (source.minimumSystemVersion, .macOS), (source.minimumOSVersion, .iOS),
    ]
    for (value, platform) in keys {
      guard let text = value?.value, let version = SystemTypeAvailability.Version(text) else {
        continue
      }
      facts.targets.append(DeploymentTarget(platform: platform, version: version))
    }
    return facts
  }

  /// Whether the system declares a type on every version a bundle supports.
  enum SystemCoverage {
    /// On every supported version (or the type has no documented first version).
    case everywhere
    /// Only from these versions on, which are newer than some version the bundle supports.
    case laterThanTarget(String)
    /// Only from these versions on, and the bundle does not say which versions it supports.
    case unknownTarget(String)
  }

  static func coverage(of identifier: TypeIdentifier, for facts: BundleFacts) -> SystemCoverage {
    guard let availability = SystemTypeAvailability.of(identifier) else { return .everywhere }
    let firsts = [SystemTypeAvailability.Platform.macOS, .iOS].compactMap { platform in
      availability.firstVersion(on: platform).map { (platform, $0) }
    }
    func phrase(_ versions: [(SystemTypeAvailability.Platform, SystemTypeAvailability.Version)])
      -> String
    {
      versions.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: " and ")
    }
    if facts.targets.isEmpty { return .unknownTarget(phrase(firsts)) }
    let older = facts.targets.contains { target in
      guard let first = availability.firstVersion(on: target.platform) else { return false }
      return target.version < first
    }
    // Name the platforms the bundle targets, not every platform Apple lists.
    let targeted = firsts.filter { first in facts.targets.contains { $0.platform == first.0 } }
    return older ? .laterThanTarget(phrase(targeted)) : .everywhere
  }

  /// The oldest supported versions, as a phrase (`macOS 12.0`).
  static func targetsPhrase(_ facts: BundleFacts) -> String {
    facts.targets.map { "\($0.platform.rawValue) \($0.version)" }.joined(separator: " and ")
  }

  /// An import of a system type: ignored where the system declares the type, and the type's
  /// only declaration on older systems the bundle still supports.
  mutating func checkImportOfSystemType(_ declaration: TypeDeclaration, facts: BundleFacts) {
    let raw = declaration.typeIdentifier.rawValue
    let location = declaration.identifierLocation ?? declaration.location
    switch Self.coverage(of: declaration.typeIdentifier, for: facts) {
    case .everywhere:
      diagnostics.append(
        ValidationRule.redeclaredSystemType.diagnostic(
          "\(raw) is a system type; this imported declaration is ignored",
          at: location, hint: "remove the declaration and use the system type"))
    case .laterThanTarget(let firsts):
      diagnostics.append(
        ValidationRule.redeclaredSystemType.diagnostic(
          "\(raw) is a system type only from \(firsts) on; this bundle supports \(Self.targetsPhrase(facts)), where this import is what gives the files a type, and from \(firsts) on the system's declaration wins",
          at: location,
          hint: "keep the import until the deployment target reaches \(firsts)",
          severity: .note))
    case .unknownTarget(let firsts):
      diagnostics.append(
        ValidationRule.redeclaredSystemType.diagnostic(
          "\(raw) is a system type only from \(firsts) on; from then on this import is ignored, and on older systems it is what gives the files a type",
          at: location,
          hint:
            "keep the import while the app supports older systems; LSMinimumSystemVersion or MinimumOSVersion tells which it supports",
          severity: .note))
    }
  }
}
