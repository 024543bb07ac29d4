import Foundation

/// What a certificate chain is checked for, besides reaching a trusted anchor at a given date:
/// Security's `SecPolicyCreateBasicX509()` and `SecPolicyCreateSSL(_:_:)`.
public struct TrustPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The use the leaf certificate must allow (its extended key usage, when it has one).
    public enum Purpose: Sendable, Hashable {
        /// No usage requirement (basic X.509).
        case any
        /// A TLS server certificate (`id-kp-serverAuth`).
        case tlsServer
        /// A TLS client certificate (`id-kp-clientAuth`).
        case tlsClient
    }

    public let purpose: Purpose
    /// The DNS name or IP address the leaf must be issued for (subjectAltName only, as Apple since iOS 13:
    /// the subject's common name is never used as a host name). Nil: no name check.
    public let hostname: String?

    public init(purpose: Purpose, hostname: String? = nil) {
        self.purpose = purpose
        self.hostname = hostname.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Chain and validity only.
    public static let basicX509 = TrustPolicy(purpose: .any)

    /// A TLS peer: the server (`server: true`) or client certificate, optionally for `hostname`.
    public static func tls(server: Bool = true, hostname: String? = nil) -> TrustPolicy {
        TrustPolicy(purpose: server ? .tlsServer : .tlsClient, hostname: hostname)
    }

    public var description: String {
        switch purpose {
        case .any: "TrustPolicy(basicX509)"
        case .tlsServer: "TrustPolicy(tlsServer\(hostname.map { ", hostname: \($0)" } ?? ""))"
        case .tlsClient: "TrustPolicy(tlsClient\(hostname.map { ", hostname: \($0)" } ?? ""))"
        }
    }
}
