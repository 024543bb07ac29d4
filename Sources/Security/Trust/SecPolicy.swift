#if os(Linux)
import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// `SecPolicy`: what a trust evaluation checks besides the chain (LatchkeySupport's `TrustPolicy`).
public final class SecPolicy: Hashable {
    let policy: TrustPolicy

    init(_ policy: TrustPolicy) { self.policy = policy }

    public static func == (a: SecPolicy, b: SecPolicy) -> Bool { a.policy == b.policy }
    public func hash(into hasher: inout Hasher) { hasher.combine(policy) }
}

/// `SecPolicyCreateSSL`: a TLS server (`server: true`) or client certificate policy; with `hostname`,
/// the leaf's subjectAltName must name that host (DNS name, wildcard, or IP address).
@available(macOS 10.6, *)
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(.tls(server: server, hostname: hostname.map { String($0) }))
}

/// `SecPolicyCreateBasicX509`: chain and validity period only.
@available(macOS 10.6, *)
public func SecPolicyCreateBasicX509() -> SecPolicy {
    SecPolicy(.basicX509)
}
#endif
