import Foundation

/// The `nonce || ciphertext || tag` wire layout shared by both AEADs.
enum AEADBoxLayout {
    static func split(_ combined: Data) throws(CryptoError) -> (nonce: Data, ciphertext: Data, tag: Data) {
        let overhead = AEADEngine.nonceByteCount + AEADEngine.tagByteCount
        guard combined.count >= overhead else {
            throw .malformedInput("sealed box shorter than \(overhead) bytes")
        }
        let start = combined.startIndex
        let nonceEnd = start + AEADEngine.nonceByteCount
        let tagStart = combined.endIndex - AEADEngine.tagByteCount
        return (Data(combined[start..<nonceEnd]), Data(combined[nonceEnd..<tagStart]),
                Data(combined[tagStart..<combined.endIndex]))
    }
}
