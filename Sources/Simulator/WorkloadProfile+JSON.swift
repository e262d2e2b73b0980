import JournalCore

extension WorkloadProfile {
    /// The profile as JSON (what `journal simulate --print-profile` prints), itself a valid
    /// profile file:
    /// `{"formatVersion":1,"name":…,"summary":…,`
    /// `"figures":{"threeDS.authResponse":{"weights":{"Y":55,…},"source":…},…}}`.
    public var jsonValue: JSONValue {
        var figuresObject = JSONObject()
        for figure in figures {
            var object = JSONObject()
            object.appendUnchecked(key: figure.value.kind, value: Self.json(figure.value))
            object.appendUnchecked(key: "source", value: .string(figure.source))
            figuresObject.appendUnchecked(key: figure.key, value: .object(object))
        }
        var root = JSONObject()
        root.appendUnchecked(key: "formatVersion", value: .number(JSONNumber(Self.formatVersion)))
        root.appendUnchecked(key: "name", value: .string(name))
        root.appendUnchecked(key: "summary", value: .string(summary))
        root.appendUnchecked(key: "figures", value: .object(figuresObject))
        return .object(root)
    }

    private static func json(_ value: FigureValue) -> JSONValue {
        switch value {
        case let .weights(entries):
            var object = JSONObject()
            for entry in entries { object.appendUnchecked(key: entry.value, value: .number(JSONNumber(entry.weight))) }
            return .object(object)
        case let .percent(percent):
            return .number(JSONNumber(uncheckedText: percentText(percent)))
        case let .delay(spec):
            var object = JSONObject()
            object.appendUnchecked(key: "min", value: .number(JSONNumber(spec.minimum)))
            object.appendUnchecked(key: "max", value: .number(JSONNumber(spec.maximum)))
            if let median = spec.median { object.appendUnchecked(key: "median", value: .number(JSONNumber(median))) }
            if let sigma = spec.sigma {
                object.appendUnchecked(key: "sigma", value: .number(JSONNumber(uncheckedText: "\(sigma)")))
            }
            return .object(object)
        case let .integer(value):
            return .number(JSONNumber(value))
        case let .integers(values):
            return .array(values.map { .number(JSONNumber($0)) })
        }
    }

    /// `8`, `0.5`, `12.25`: at most two decimals, no exponent.
    private static func percentText(_ percent: Double) -> String {
        let basisPoints = Int64((percent * 100).rounded())
        let whole = basisPoints / 100
        let fraction = basisPoints % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// What a profile file holds: the base it names (if any), a name, and figures to replace.
    public struct FileContents: Sendable, Equatable {
        public var base: String?
        public var name: String?
        public var summary: String?
        public var figures: [ProfileFigure]
    }

    /// Reads a profile file (JSON, the form ``jsonValue`` prints; any subset of the figures).
    /// - Throws: ``ProfileError`` naming the JSON path at fault; unknown keys are errors.
    public static func parseFile(_ bytes: [UInt8], sourceLabel: String) throws(ProfileError) -> FileContents {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw ProfileError(path: "", reason: "is not valid JSON: \(error)")
        }
        guard let root = value.objectValue else { throw ProfileError(path: "", reason: "must be a JSON object") }
        var contents = FileContents(base: nil, name: nil, summary: nil, figures: [])
        var sawVersion = false
        for (key, member) in root {
            switch key {
            case "formatVersion":
                guard let version = member.numberValue?.int64 else {
                    throw ProfileError(path: "formatVersion", reason: "must be an integer")
                }
                guard version == Int64(formatVersion) else {
                    throw ProfileError(
                        path: "formatVersion", reason: "is \(version); this simulator reads version \(formatVersion)")
                }
                sawVersion = true
            case "name": contents.name = try string(member, "name")
            case "summary": contents.summary = try string(member, "summary")
            case "base": contents.base = try string(member, "base")
            case "figures":
                guard let figures = member.objectValue else {
                    throw ProfileError(path: "figures", reason: "must be an object")
                }
                for (figureKey, figureValue) in figures {
                    contents.figures.append(try figure(figureKey, figureValue, sourceLabel: sourceLabel))
                }
            default:
                throw ProfileError(
                    path: ProfileText.quoted(key),
                    reason: "is not a key of a profile file (formatVersion, name, "
                        + "summary, base, figures)")
            }
        }
        guard sawVersion else { throw ProfileError(path: "formatVersion", reason: "is required (\(formatVersion))") }
        return contents
    }

    private static func string(_ value: JSONValue, _ path: String) throws(ProfileError) -> String {
        guard let text = value.stringValue else { throw ProfileError(path: path, reason: "must be a string") }
        return text
    }

    private static func integer(_ value: JSONValue, _ path: String) throws(ProfileError) -> Int64 {
        guard let number = value.numberValue?.int64 else {
            throw ProfileError(path: path, reason: "must be an integer")
        }
        return number
    }

    private static func double(_ value: JSONValue, _ path: String) throws(ProfileError) -> Double {
        guard let number = value.numberValue?.double, number.isFinite else {
            throw ProfileError(path: path, reason: "must be a number")
        }
        return number
    }

    private static func figure(_ key: String, _ value: JSONValue, sourceLabel: String) throws(ProfileError)
        -> ProfileFigure
    {
        let path = "figures." + key
        guard let object = value.objectValue else { throw ProfileError(path: path, reason: "must be an object") }
        var source = sourceLabel
        var figureValue: FigureValue?
        for (member, content) in object {
            let memberPath = path + "." + member
            let parsed: FigureValue
            switch member {
            case "source":
                source = try string(content, memberPath)
                continue
            case "weights":
                guard let weights = content.objectValue else {
                    throw ProfileError(path: memberPath, reason: "must be an object")
                }
                var entries: [WeightEntry] = []
                for (name, weight) in weights {
                    entries.append(WeightEntry(name, try integer(weight, memberPath + "." + name)))
                }
                parsed = .weights(entries)
            case "percent":
                parsed = .percent(try double(content, memberPath))
            case "value":
                parsed = .integer(try integer(content, memberPath))
            case "values":
                guard let array = content.arrayValue else {
                    throw ProfileError(path: memberPath, reason: "must be an array")
                }
                var values: [Int64] = []
                for (index, element) in array.enumerated() {
                    values.append(try integer(element, "\(memberPath)[\(index)]"))
                }
                parsed = .integers(values)
            case "delayMs":
                guard let delay = content.objectValue else {
                    throw ProfileError(path: memberPath, reason: "must be an object")
                }
                var spec = DelaySpec(minimum: -1, maximum: -1, median: nil, sigma: nil)
                for (field, number) in delay {
                    switch field {
                    case "min": spec.minimum = try integer(number, memberPath + ".min")
                    case "max": spec.maximum = try integer(number, memberPath + ".max")
                    case "median": spec.median = try integer(number, memberPath + ".median")
                    case "sigma": spec.sigma = try double(number, memberPath + ".sigma")
                    default:
                        throw ProfileError(path: memberPath + "." + field, reason: "is not min, max, median or sigma")
                    }
                }
                guard spec.minimum >= 0, spec.maximum >= 0 else {
                    throw ProfileError(path: memberPath, reason: "needs min and max (milliseconds, >= 0)")
                }
                parsed = .delay(spec)
            default:
                throw ProfileError(
                    path: memberPath, reason: "is not weights, percent, value, values, delayMs or source")
            }
            guard figureValue == nil else { throw ProfileError(path: path, reason: "must have one value, got two") }
            figureValue = parsed
        }
        guard let figureValue else {
            throw ProfileError(path: path, reason: "needs one of weights, percent, value, values or delayMs")
        }
        return ProfileFigure(key, figureValue, source: source)
    }

    /// The profile `base` (or this file's base, or `default`) with the file's figures.
    public static func load(file bytes: [UInt8], sourceLabel: String, base: String?) throws(ProfileError)
        -> WorkloadProfile
    {
        let contents = try parseFile(bytes, sourceLabel: sourceLabel)
        let baseName = base ?? contents.base ?? "default"
        guard let baseProfile = builtIn(named: baseName) else {
            throw ProfileError(
                path: "base",
                reason: "is \"\(baseName.prefix(40))\"; the built-in profiles are "
                    + builtInNames.joined(separator: ", "))
        }
        var profile = try baseProfile.merging(contents.figures, name: contents.name ?? "\(baseName)+file")
        if let summary = contents.summary { profile.summary = summary }
        _ = try CompiledProfile(profile)
        return profile
    }
}

/// Quoting for paths in errors.
enum ProfileText {
    static func quoted(_ key: String) -> String { "\"" + String(key.prefix(40)) + "\"" }
}
