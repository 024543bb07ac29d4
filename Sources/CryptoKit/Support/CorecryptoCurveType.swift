/// An opaque curve type that Apple's CryptoKit declares public from iOS 18 / macOS 15 with no public members or
/// initializers (and not `Sendable`); nothing can make or use one. Declared for the same set of names.
@available(iOS 18.0, macOS 15.0, watchOS 11.0, tvOS 18.0, macCatalyst 18.0, *)
public struct CorecryptoCurveType {
    private init() {}
}

@available(*, unavailable)
extension CorecryptoCurveType: Sendable {}
