import Foundation

/// One access-log entry: what was asked and answered. Never headers, bodies, query strings or tokens.
public struct AccessLogEntry: Sendable {
    public var time: Date
    public var method: String
    /// The path without the query string.
    public var path: String
    public var status: Int
    /// Response body bytes.
    public var bytes: Int
    public var durationMicroseconds: UInt64
    public var remoteAddress: String

    public init(time: Date, method: String, path: String, status: Int, bytes: Int, durationMicroseconds: UInt64,
                remoteAddress: String) {
        self.time = time
        self.method = method
        self.path = path
        self.status = status
        self.bytes = bytes
        self.durationMicroseconds = durationMicroseconds
        self.remoteAddress = remoteAddress
    }

    /// The logfmt line: `time=... method=GET path="/healthz" status=200 bytes=15 duration_us=42 remote=127.0.0.1`.
    public var line: String {
        "time=\(AccessLogEntry.timestamp(time)) method=\(AccessLogEntry.token(method)) path=\(AccessLogEntry.quoted(path))"
            + " status=\(status) bytes=\(bytes) duration_us=\(durationMicroseconds) remote=\(AccessLogEntry.token(remoteAddress))"
    }

    /// RFC 3339 UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let millis = Int((interval - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    /// A bare token: anything but printable, non-space, non-quote ASCII becomes `_` (no log injection).
    static func token(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).map {
            ($0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "=") ? $0 : "_"
        }))
    }

    /// A double-quoted value with `"`, `\` and control characters escaped, cut at 256 characters.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars.prefix(256) {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Where access-log lines go: standard error by default, a closure in tests, or nowhere.
public struct AccessLog: Sendable {
    let write: @Sendable (AccessLogEntry) -> Void

    /// Sends each entry to `write`.
    public init(_ write: @escaping @Sendable (AccessLogEntry) -> Void) {
        self.write = write
    }

    /// One logfmt line per request on standard error.
    public static let standardError = AccessLog { entry in
        FileHandle.standardError.write(Data((entry.line + "\n").utf8))
    }
}
