import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

extension AES {
    /// An implementation of AES Key Wrapping in accordance with the IETF RFC 3394 specification, by OpenSSL.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public enum KeyWrap: Sendable {
        /// Wraps a key using the AES wrap algorithm.
        public static func wrap(_ keyToWrap: SymmetricKey, using kek: SymmetricKey) throws -> Data {
            do throws(CryptoError) {
                return try AESKeyWrapEngine.wrap(keyToWrap.secret.bytes, kek: kek.secret)
            } catch .invalidKeySize {
                throw CryptoKitError.incorrectKeySize
            } catch {
                throw CryptoKitError.wrapFailure
            }
        }

        /// Unwraps a key using the AES wrap algorithm.
        public static func unwrap<WrappedKey: DataProtocol>(_ wrappedKey: WrappedKey, using kek: SymmetricKey) throws
            -> SymmetricKey {
            do throws(CryptoError) {
                return SymmetricKey(secret: try ContiguousInput.with(wrappedKey) { (bytes) throws(CryptoError) in
                    try AESKeyWrapEngine.unwrap(bytes, kek: kek.secret)
                })
            } catch .invalidKeySize {
                throw CryptoKitError.incorrectKeySize
            } catch {
                throw CryptoKitError.unwrapFailure
            }
        }
    }
}
