/// A small parser for `security`-style options: `-s VALUE`, flags like `-U`, and options whose value is
/// optional (`-w` alone means "prompt for it"). Long options take `--name VALUE` or `--name=VALUE`.
struct KeychainArguments {
    /// How an option takes its value.
    enum Arity {
        case flag
        case value
        /// Takes the next argument unless it is missing or looks like another option.
        case optionalValue
    }

    struct UsageError: Error, Equatable {
        let message: String
    }

    /// Options seen, by name without dashes (`s`, `vault`); a flag or an optional value given alone maps to nil.
    private(set) var values: [String: String?] = [:]
    /// Every value of each option that takes one, in order (for repeatable options; `values` keeps the last).
    private(set) var allValues: [String: [String]] = [:]
    /// Arguments that are not options.
    private(set) var positional: [String] = []

    /// Parses `arguments` against `spec` (option name without dashes → arity).
    init(_ arguments: [String], spec: [String: Arity]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positional += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positional.append(argument)
                continue
            }
            var name = String(argument.drop { $0 == "-" })
            var inline: String?
            if argument.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let arity = spec[name] else { throw UsageError(message: "unknown option '\(argument)'") }
            switch arity {
            case .flag:
                if inline != nil { throw UsageError(message: "option '--\(name)' takes no value") }
                values[name] = .some(nil)
            case .value:
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "option '\(argument)' needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                values[name] = value
                allValues[name, default: []].append(value)
            case .optionalValue:
                if let inline {
                    values[name] = inline
                } else if index < arguments.count, !Self.isOption(arguments[index], spec: spec) {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    values[name] = .some(nil)
                }
            }
        }
    }

    /// An argument that names one of the options (so `-w -U` prompts, while `-w -secret-` is a password).
    private static func isOption(_ argument: String, spec: [String: Arity]) -> Bool {
        guard argument.count > 1, argument.hasPrefix("-") else { return false }
        var name = String(argument.drop { $0 == "-" })
        if let equals = name.firstIndex(of: "=") { name = String(name[..<equals]) }
        return spec[name] != nil || argument == "--"
    }

    /// Whether the option appeared (with or without a value).
    func has(_ name: String) -> Bool { values[name] != nil }

    /// The option's value, nil when absent or given without one.
    func value(_ name: String) -> String? { values[name] ?? nil }

    /// Every value given to a repeatable option, in order.
    func repeated(_ name: String) -> [String] { allValues[name] ?? [] }

    /// The option's value, which must be present.
    func required(_ name: String, what: String) throws -> String {
        guard let value = value(name) else { throw UsageError(message: "missing -\(name) \(what)") }
        return value
    }

    /// The option's value as an integer, if given.
    func integer(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else { throw UsageError(message: "-\(name) needs a number, got '\(text)'") }
        return number
    }
}
