#if os(Linux)
import Dispatch
import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

// SecTrust functions over the engine's `X509TrustEvaluation` (OpenSSL's X.509 verifier). Queries that need
// a result (chain, count, key, trust result) evaluate first when the inputs changed, as Apple's do.

/// The objects of a single value or an array (`NSArray`, or a Swift array passed as `CFTypeRef`) of `T`;
/// nil when any element is not a `T`.
private func objects<T>(_ value: Any?, of type: T.Type) -> [T]? {
    guard let value else { return nil }
    if let one = value as? T { return [one] }
    let elements: [Any]
    if let array = value as? NSArray { elements = array.map { $0 } } else if let array = value as? [Any] {
        elements = array
    } else { return nil }
    var out: [T] = []
    for element in elements {
        guard let t = element as? T else { return nil }
        out.append(t)
    }
    return out
}

/// `SecTrustCreateWithCertificates`: a trust object for a leaf certificate (or an array whose first element
/// is the leaf and the rest may help build the chain) and one policy or an array of them (nil: basic X.509).
/// Not a certificate or an empty array → errSecParam.
@available(macOS 10.3, *)
public func SecTrustCreateWithCertificates(_ certificates: CFTypeRef, _ policies: CFTypeRef?,
                                           _ trust: UnsafeMutablePointer<SecTrust?>) -> OSStatus {
    guard let certs = objects(certificates, of: SecCertificate.self), !certs.isEmpty else { return errSecParam }
    var list: [SecPolicy] = [SecPolicyCreateBasicX509()]
    if let policies {
        guard let given = objects(policies, of: SecPolicy.self) else { return errSecParam }
        list = given
    }
    trust.pointee = SecTrust(certificates: certs, policies: list)
    return errSecSuccess
}

/// `SecTrustSetPolicies`: replaces the policies (one `SecPolicy` or an array).
@available(macOS 10.3, iOS 6.0, *)
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let list = objects(policies, of: SecPolicy.self) else { return errSecParam }
    trust.update { $0.policies = list }
    return errSecSuccess
}

/// `SecTrustCopyPolicies`: the policies, as an array of `SecPolicy`.
@available(macOS 10.3, iOS 7.0, *)
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = NSArray(array: trust.state.withLock { $0.policies })
    return errSecSuccess
}

/// `SecTrustSetAnchorCertificates`: the certificates trusted as chain ends. A non-nil array also turns
/// off the system CA store (call `SecTrustSetAnchorCertificatesOnly(trust, false)` afterwards to trust
/// both); nil restores the system store alone.
@available(macOS 10.3, *)
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    guard let anchorCertificates else {
        trust.update { $0.anchors = []; $0.anchorsOnly = false }
        return errSecSuccess
    }
    guard let anchors = objects(anchorCertificates, of: SecCertificate.self) else { return errSecParam }
    trust.update { $0.anchors = anchors; $0.anchorsOnly = true }
    return errSecSuccess
}

/// `SecTrustSetAnchorCertificatesOnly`: true trusts only the custom anchors; false trusts the system CA
/// store (/etc/ssl/certs) as well.
@available(macOS 10.6, *)
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.update { $0.anchorsOnly = anchorCertificatesOnly }
    return errSecSuccess
}

/// `SecTrustSetVerifyDate`: the instant validity periods are checked at (default: the time of evaluation).
@available(macOS 10.3, *)
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    let date = verifyDate as Date
    trust.update { $0.verifyDate = date }
    return errSecSuccess
}

/// `SecTrustSetNetworkFetchAllowed`: accepted and ignored (Latchkey never fetches certificates or
/// revocation data).
@available(macOS 10.9, iOS 7.0, *)
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus {
    errSecSuccess
}

/// `SecTrustEvaluateWithError`: true when the chain reaches a trusted anchor and every policy passes;
/// otherwise false and a CFError in NSOSStatusErrorDomain with Apple's code (errSecCertificateExpired,
/// errSecHostNameMismatch, errSecNotTrusted, …).
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    guard let failure = trust.evaluated().error else {
        error?.pointee = nil
        return true
    }
    error?.pointee = failure.cfError
    return false
}

/// `SecTrustEvaluateAsyncWithError`: evaluates on `queue` and calls `result` there.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public func SecTrustEvaluateAsyncWithError(_ trust: SecTrust, _ queue: DispatchQueue,
                                           _ result: @escaping SecTrustWithErrorCallback) -> OSStatus {
    nonisolated(unsafe) let result = result  // Apple's callback type is not Sendable; it is called once, on `queue`
    nonisolated(unsafe) let trust = trust    // nor is SecTrust; its state is behind a lock (`SecTrust.state`)
    queue.async {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        result(trust, trusted, error)
    }
    return errSecSuccess
}

/// The `SecTrustResultType` of an evaluation: `.unspecified` when trusted (no user trust setting exists on
/// Linux), `.recoverableTrustFailure` otherwise, `.invalid` without certificates.
private func resultType(_ trust: SecTrust) -> SecTrustResultType {
    switch trust.evaluated().error {
    case nil: .unspecified
    case .noCertificates?: .invalid
    case .invalidSignature?: .fatalTrustFailure
    default: .recoverableTrustFailure
    }
}

/// `SecTrustEvaluate` (deprecated by Apple): evaluates and gives the result type.
@available(macOS, introduced: 10.3, deprecated: 10.15)
@available(iOS, deprecated: 13.0)
@available(tvOS, deprecated: 13.0)
@available(watchOS, deprecated: 6.0)
public func SecTrustEvaluate(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = resultType(trust)
    return errSecSuccess
}

/// `SecTrustGetTrustResult`: the result type of the last evaluation (evaluating if inputs changed).
@available(macOS 10.7, iOS 7.0, *)
public func SecTrustGetTrustResult(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = resultType(trust)
    return errSecSuccess
}

/// `SecTrustCopyCertificateChain`: the evaluated chain, leaf first (the anchor last when trusted).
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    NSArray(array: trust.evaluated().chain)
}

/// `SecTrustGetCertificateCount`: the number of certificates in the evaluated chain.
@available(macOS 10.7, *)
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    trust.evaluated().chain.count
}

/// `SecTrustGetCertificateAtIndex` (deprecated by Apple): the chain's certificate at `ix` (0 = leaf).
@available(macOS, introduced: 10.7, deprecated: 12.0)
@available(iOS, deprecated: 15.0)
@available(tvOS, deprecated: 15.0)
@available(watchOS, deprecated: 8.0)
public func SecTrustGetCertificateAtIndex(_ trust: SecTrust, _ ix: CFIndex) -> SecCertificate? {
    let chain = trust.evaluated().chain
    return chain.indices.contains(ix) ? chain[ix] : nil
}

/// `SecTrustCopyKey`: the leaf certificate's public key (P-256 or RSA; nil for other key types).
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    trust.leaf?.publicKey
}

/// `SecTrustCopyPublicKey` (deprecated by Apple): as `SecTrustCopyKey`.
@available(macOS, introduced: 10.7, deprecated: 11.0)
@available(iOS, deprecated: 14.0)
@available(tvOS, deprecated: 14.0)
@available(watchOS, deprecated: 7.0)
public func SecTrustCopyPublicKey(_ trust: SecTrust) -> SecKey? {
    SecTrustCopyKey(trust)
}
#endif
