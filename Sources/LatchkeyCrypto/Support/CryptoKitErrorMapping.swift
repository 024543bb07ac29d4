import Foundation

/// Runs a CryptoKit call and reports its failure as a `CryptoError` (`what` names the input for the message).
@inline(__always)
func checked<R>(_ what: String, _ body: () throws -> R) throws(CryptoError) -> R {
    do {
        return try body()
    } catch let error as CryptoKitError {
        switch error {
        case .authenticationFailure: throw .authenticationFailure
        case .incorrectKeySize: throw .invalidParameter("\(what): key size")
        case .incorrectParameterSize, .invalidParameter: throw .invalidParameter(what)
        case .wrapFailure, .unwrapFailure: throw .authenticationFailure
        default: throw .malformedInput(what)
        }
    } catch let error as CryptoError {
        throw error
    } catch {
        throw .malformedInput(what)
    }
}
