import JournalCore

/// Every distribution the simulator draws from, in one documented, versioned value.
///
/// A profile is a name, a format version and an ordered list of named figures
/// (`threeDS.authResponse`, `card.methodTypes`, …), each with its value and the source of that
/// value: a public figure (with where it was published) or our assumption, labelled `[A]`.
/// `journal simulate --print-profile` prints it as JSON; a JSON profile file (`--profile-file`)
/// replaces any figures of a built-in base profile (``WorkloadProfile/merging(_:)``).
///
/// The generator reads the figures through ``CompiledProfile``, which checks every key, kind and
/// value once (unknown keys, a misspelt weight key or a negative weight are errors, never ignored).
public struct WorkloadProfile: Sendable, Equatable {
    /// The version of the figure set and its JSON form. Bumped whenever a figure is added,
    /// removed or changes meaning, so that a stored profile file says what it was written for.
    public static let formatVersion = 1

    public var name: String
    public var summary: String
    public var figures: [ProfileFigure]

    public init(name: String, summary: String, figures: [ProfileFigure]) {
        self.name = name
        self.summary = summary
        self.figures = figures
    }

    /// The figure named `key`, if the profile has it.
    public subscript(key: String) -> ProfileFigure? {
        figures.first { $0.key == key }
    }

    /// This profile with `overrides` replacing the figures of the same key.
    /// - Throws: ``ProfileError`` when an override names a figure this profile does not have, or
    ///   changes a figure's kind (a percentage for a weight table, say).
    public func merging(_ overrides: [ProfileFigure], name: String? = nil) throws(ProfileError) -> WorkloadProfile {
        var merged = self
        if let name { merged.name = name }
        for override in overrides {
            guard let index = merged.figures.firstIndex(where: { $0.key == override.key }) else {
                let section = override.key.prefix(while: { $0 != "." })
                var known = figures.map(\.key).filter { $0.hasPrefix(section + ".") }
                if known.isEmpty { known = figures.map(\.key) }
                throw ProfileError(
                    path: override.key,
                    reason: "is not a figure of the profile; the figures "
                        + (known.count < figures.count ? "of \(section) " : "") + "are "
                        + known.joined(separator: ", "))
            }
            guard merged.figures[index].value.kind == override.value.kind else {
                throw ProfileError(
                    path: override.key,
                    reason: "must be a \(merged.figures[index].value.kind), "
                        + "got a \(override.value.kind)")
            }
            merged.figures[index] = override
        }
        return merged
    }
}

/// One named figure of a profile, with where its value comes from.
public struct ProfileFigure: Sendable, Equatable {
    /// `section.name`, e.g. `threeDS.authResponse`.
    public var key: String
    public var value: FigureValue
    /// Where the value comes from: a publication, or `[A]` for our assumption.
    public var source: String

    public init(_ key: String, _ value: FigureValue, source: String) {
        self.key = key
        self.value = value
        self.source = source
    }
}

/// The value of a figure.
public enum FigureValue: Sendable, Equatable {
    /// Relative integer weights by value (`{"Y": 55, "C": 35}`), in a fixed order.
    case weights([WeightEntry])
    /// A percentage, 0 to 100 (two decimals are kept: basis points).
    case percent(Double)
    /// A delay in milliseconds: uniform in `min…max`, or log-normal around `median` with the
    /// spread `sigma` (of the logarithm), clamped to `min…max`.
    case delay(DelaySpec)
    /// A count or rate.
    case integer(Int64)
    /// A list of counts (per hour, per attempt).
    case integers([Int64])

    public var kind: String {
        switch self {
        case .weights: return "weights"
        case .percent: return "percent"
        case .delay: return "delayMs"
        case .integer: return "value"
        case .integers: return "values"
        }
    }
}

public struct WeightEntry: Sendable, Equatable {
    public var value: String
    public var weight: Int64

    public init(_ value: String, _ weight: Int64) {
        self.value = value
        self.weight = weight
    }
}

public struct DelaySpec: Sendable, Equatable {
    public var minimum: Int64
    public var maximum: Int64
    /// Nil: uniform. Otherwise log-normal with this median (ms) and `sigma`.
    public var median: Int64?
    public var sigma: Double?

    public static func uniform(_ minimum: Int64, _ maximum: Int64) -> DelaySpec {
        DelaySpec(minimum: minimum, maximum: maximum, median: nil, sigma: nil)
    }

    public static func logNormal(median: Int64, sigma: Double, _ minimum: Int64, _ maximum: Int64) -> DelaySpec {
        DelaySpec(minimum: minimum, maximum: maximum, median: median, sigma: sigma)
    }
}

/// A profile that cannot be used, with the figure (or JSON path) at fault.
public struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path) \(reason)" }
}
