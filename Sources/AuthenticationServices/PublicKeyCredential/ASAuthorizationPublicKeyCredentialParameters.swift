#if os(Linux)
import Foundation

/// `ASCOSEAlgorithmIdentifier`: a COSE algorithm number (IANA COSE Algorithms registry).
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct ASCOSEAlgorithmIdentifier: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// ECDSA with P-256 and SHA-256 (-7).
    public static let ES256 = ASCOSEAlgorithmIdentifier(rawValue: -7)
}

/// `ASAuthorizationPublicKeyCredentialParameters`: one algorithm a relying party accepts for a new credential.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationPublicKeyCredentialParameters: NSObject {
    /// The algorithm.
    open var algorithm: ASCOSEAlgorithmIdentifier { parametersAlgorithm }

    private let parametersAlgorithm: ASCOSEAlgorithmIdentifier

    public init(algorithm: ASCOSEAlgorithmIdentifier) {
        parametersAlgorithm = algorithm
        super.init()
    }
}
#endif
