import Foundation

/// PEM armour (RFC 7468): `-----BEGIN LABEL-----`, base64 lines, `-----END LABEL-----`.
///
/// Decoding is strict in what matters — the end line must name the begin line's label, the body must be canonical
/// base64 (whitespace between characters allowed, nothing else), explanatory text outside the blocks is skipped,
/// and blocks with RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`, `DEK-Info:`) are refused: an encrypted key cannot be
/// read without its passphrase.
package enum PEM {
    /// Largest PEM text accepted.
    package static let maximumTextByteCount = 1 << 20

    /// Why a PEM text was refused.
    package enum Failure: Error, Equatable, Sendable {
        /// No block, an unterminated block, or bad base64.
        case malformed(String)
        /// Blocks were found, none with a wanted label.
        case unexpectedLabels([String])
        /// A block with RFC 1421 headers (an encrypted key).
        case encrypted
        /// The text is larger than `maximumTextByteCount`.
        case tooLarge
    }

    /// Every block of `text`, in order.
    package static func blocks(_ text: String) throws(Failure) -> [(label: String, der: Data)] {
        guard text.utf8.count <= maximumTextByteCount else { throw .tooLarge }
        var blocks: [(label: String, der: Data)] = []
        var label: String?
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let open = label {
                if line.hasPrefix("-----END ") {
                    guard line == "-----END \(open)-----" else { throw .malformed("PEM END line does not match BEGIN \(open)") }
                    guard let der = Data(base64Encoded: body), !der.isEmpty else { throw .malformed("PEM base64") }
                    blocks.append((open, der))
                    label = nil
                    body = ""
                } else if line.contains(":") {
                    throw .encrypted
                } else {
                    body += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                label = String(line.dropFirst(11).dropLast(5))
            }
        }
        guard label == nil else { throw .malformed("PEM block without END line") }
        guard !blocks.isEmpty else { throw .malformed("no PEM block") }
        return blocks
    }

    /// The label and DER bytes of the first block of `text` whose label is in `labels` (other blocks, such as
    /// "EC PARAMETERS" before an "EC PRIVATE KEY", are skipped).
    package static func decode(_ text: String, labels: Set<String>) throws(Failure) -> (label: String, der: Data) {
        let all = try blocks(text)
        guard let match = all.first(where: { labels.contains($0.label) }) else {
            throw .unexpectedLabels(all.map(\.label))
        }
        return match
    }

    /// A PEM block with `label` around `der` (base64 in 64-character lines, RFC 7468 §2).
    package static func encode(label: String, der: Data) -> String {
        let base64 = Array(der.base64EncodedString().utf8)
        var text = "-----BEGIN \(label)-----\n"
        var index = 0
        while index < base64.count {
            let end = min(index + 64, base64.count)
            text += String(decoding: base64[index..<end], as: UTF8.self) + "\n"
            index = end
        }
        return text + "-----END \(label)-----\n"
    }
}

extension PEM.Failure {
    /// The failure as LatchkeyCrypto reports malformed input.
    package var cryptoError: CryptoError {
        switch self {
        case let .malformed(what): .malformedInput(what)
        case let .unexpectedLabels(labels): .malformedInput("PEM label \(labels.joined(separator: ", "))")
        case .encrypted: .unsupportedAlgorithm("encrypted PEM")
        case .tooLarge: .malformedInput("PEM")
        }
    }
}
