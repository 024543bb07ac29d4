import Foundation

/// Host name matching by the rules of OpenSSL 3's `X509_check_host` with `X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS`
/// (RFC 6125): ASCII case-insensitive comparison; a wildcard only as the whole first label of a name with at
/// least three labels, not in an IDNA (`xn--`) label, matching one non-empty label of letters, digits and
/// hyphens; a host name starting with "." matches names under that domain.
extension Certificate {
    /// Whether the certificate is issued to `hostname`: its subject alternative DNS names when it has any, else
    /// its subject common names (no partial wildcards).
    public func matchesHostname(_ hostname: String) -> Bool {
        var host = Array(hostname.utf8)
        // An embedded NUL would end the name early; one trailing NUL is tolerated as a terminator.
        if host.count > 1, host.last == 0 { host.removeLast() }
        guard !host.isEmpty, !host.contains(0) else { return false }
        let subdomains = host.count > 1 && host[0] == UInt8(ascii: ".")
        if let names = subjectAlternativeNames {
            var dnsNamePresent = false
            for case .dnsName(let bytes) in names {
                dnsNamePresent = true
                if !bytes.isEmpty, Self.matches(pattern: [UInt8](bytes), host: host, subdomains: subdomains) { return true }
            }
            if dnsNamePresent { return false }
        }
        for attribute in fields.subject.attributes where attribute.oid == "2.5.4.3" {
            // A common name that is not text ends the check, as OpenSSL's failed conversion does.
            guard let value = attribute.value else { return false }
            let pattern = Array(value.utf8)
            if !pattern.isEmpty, Self.matches(pattern: pattern, host: host, subdomains: subdomains) { return true }
        }
        return false
    }

    /// OpenSSL's `equal_wildcard`.
    static func matches(pattern: [UInt8], host: [UInt8], subdomains: Bool) -> Bool {
        let star = host.count > 1 && host[0] == UInt8(ascii: ".") ? nil : wildcardPosition(in: pattern)
        guard let star else { return equalIgnoringCase(pattern[...], host[...], subdomains: subdomains) }
        let prefix = pattern[..<star], suffix = pattern[(star + 1)...]
        guard host.count >= prefix.count + suffix.count,
              equalIgnoringCase(prefix, host[..<prefix.count], subdomains: subdomains),
              equalIgnoringCase(host[(host.count - suffix.count)...], suffix, subdomains: subdomains) else { return false }
        let matched = host[prefix.count..<(host.count - suffix.count)]
        var allowIDNA = false
        if prefix.isEmpty, suffix.first == UInt8(ascii: ".") {
            guard !matched.isEmpty else { return false }
            allowIDNA = true
        }
        if !allowIDNA, startsWithIDNAPrefix(host[...]) { return false }
        if matched.count == 1, matched.first == UInt8(ascii: "*") { return true }
        return matched.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// OpenSSL's `equal_nocase`, with `skip_prefix` for a host name starting with ".".
    static func equalIgnoringCase(_ pattern: ArraySlice<UInt8>, _ subject: ArraySlice<UInt8>, subdomains: Bool) -> Bool {
        var pattern = pattern
        if subdomains, pattern.count > subject.count {
            // Compare the pattern's tail from the host's "." on, when what is skipped has no NUL.
            let skipped = pattern.prefix(pattern.count - subject.count)
            if !skipped.contains(0) { pattern = pattern.suffix(subject.count) }
        }
        guard pattern.count == subject.count else { return false }
        for (l, r) in zip(pattern, subject) {
            guard l != 0 else { return false }
            if l != r, lowercased(l) != lowercased(r) { return false }
        }
        return true
    }

    /// OpenSSL's `valid_star` with full-label wildcards only: the index of the one permitted "*", or nil.
    static func wildcardPosition(in pattern: [UInt8]) -> Int? {
        var star: Int?
        var atLabelStart = true, afterHyphen = false, inIDNA = false
        var dots = 0
        for (i, c) in pattern.enumerated() {
            if c == UInt8(ascii: "*") {
                let atEnd = i == pattern.count - 1 || pattern[i + 1] == UInt8(ascii: ".")
                guard star == nil, !inIDNA, dots == 0, atLabelStart, atEnd else { return nil }
                star = i
                atLabelStart = false
            } else if isLetterOrDigit(c) {
                if atLabelStart, startsWithIDNAPrefix(pattern[i...]) { inIDNA = true }
                atLabelStart = false
                afterHyphen = false
            } else if c == UInt8(ascii: ".") {
                guard !atLabelStart, !afterHyphen else { return nil }
                atLabelStart = true
                inIDNA = false
                dots += 1
            } else if c == UInt8(ascii: "-") {
                guard !atLabelStart else { return nil }
                afterHyphen = true
            } else {
                return nil
            }
        }
        guard !atLabelStart, !afterHyphen, dots >= 2 else { return nil }
        return star
    }

    private static func startsWithIDNAPrefix(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 4 && bytes.prefix(4).map(lowercased) == Array("xn--".utf8)
    }

    private static func isLetterOrDigit(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5a).contains(c) || (0x61...0x7a).contains(c)
    }

    private static func lowercased(_ c: UInt8) -> UInt8 { (0x41...0x5a).contains(c) ? c | 0x20 : c }
}
