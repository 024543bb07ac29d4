#if os(Linux)
import Foundation
import LatchkeyOpenSSL
import LatchkeySupport
import LatchkeySupport

/// `SecTrust`: certificates to evaluate, policies, anchors and a date, with the last evaluation's result.
/// Changing any input discards the result; the next query evaluates again. Safe to share between threads.
public final class SecTrust: Hashable {
    // @unchecked Sendable: certificates and policies are immutable objects, not Sendable only because Apple's are not.
    struct State: @unchecked Sendable {
        var certificates: [SecCertificate]
        var policies: [SecPolicy]
        var anchors: [SecCertificate] = []
        var anchorsOnly = false
        var verifyDate: Date?
        var result: Evaluated?
    }

    /// One evaluation: the chain (leaf first) and the failure, if any.
    struct Evaluated: @unchecked Sendable {  // as State: immutable certificates
        let chain: [SecCertificate]
        let error: TrustEvaluationError?
    }

    let state: Locked<State>

    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        state = Locked(State(certificates: certificates, policies: policies))
    }

    /// Changes an input and forgets the previous result.
    func update(_ change: (inout State) -> Void) {
        state.withLock { s in
            change(&s)
            s.result = nil
        }
    }

    /// The result of evaluating the current inputs (computed once until an input changes).
    func evaluated() -> Evaluated {
        state.withLock { s in
            if let result = s.result { return result }
            let known = s.certificates + s.anchors
            let evaluation = X509TrustEvaluation(certificates: s.certificates.map(\.certificate),
                                             policies: s.policies.map(\.policy),
                                             anchors: s.anchors.map(\.certificate),
                                             trustsSystemAnchors: !s.anchorsOnly, verifyDate: s.verifyDate)
            let outcome = evaluation.evaluate()
            let chain = outcome.chain.map { c in known.first { $0.certificate == c } ?? SecCertificate(c) }
            let result = Evaluated(chain: chain, error: outcome.error)
            s.result = result
            return result
        }
    }

    /// The leaf (the first certificate given).
    var leaf: SecCertificate? { state.withLock { $0.certificates.first } }

    public static func == (a: SecTrust, b: SecTrust) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// `SecTrustResultType`, with Apple's raw values.
public enum SecTrustResultType: UInt32, Sendable {
    @available(macOS 10.3, *)
    case invalid = 0
    @available(macOS 10.3, *)
    case proceed = 1
    @available(macOS, introduced: 10.3, deprecated: 10.9)
    @available(iOS, deprecated: 7.0)
    @available(tvOS, deprecated: 7.0)
    @available(watchOS, deprecated: 2.0)
    case confirm = 2
    @available(macOS 10.3, *)
    case deny = 3
    @available(macOS 10.3, *)
    case unspecified = 4
    @available(macOS 10.3, *)
    case recoverableTrustFailure = 5
    @available(macOS 10.3, *)
    case fatalTrustFailure = 6
    @available(macOS 10.3, *)
    case otherError = 7
}

/// `SecTrustWithErrorCallback`: the result handler of `SecTrustEvaluateAsyncWithError` (not `@Sendable`, as Apple's).
public typealias SecTrustWithErrorCallback = (SecTrust, Bool, CFError?) -> Void
#endif
