import COpenSSL
import Foundation

/// PEM armour (RFC 7468) through OpenSSL's `PEM_read_bio` / `PEM_write_bio`.
enum PEM {
    /// The label and DER bytes of the first PEM block in `text` whose label is in `labels`
    /// (other blocks, such as "EC PARAMETERS" before an "EC PRIVATE KEY", are skipped).
    static func decode(_ text: String, labels: Set<String>) throws(CryptoError) -> (label: String, der: Data) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count < 1 << 20 else { throw .malformedInput("PEM") }
        // BIO_new_mem_buf reads the caller's memory in place: keep one copy alive for the whole loop.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { throw .libraryFailure("BIO_new_mem_buf") }
        defer { BIO_free(bio) }
        var seen: [String] = []
        for _ in 0..<16 {
            guard let block = try readBlock(bio) else { break }
            if labels.contains(block.label) { return block }
            seen.append(block.label)
        }
        ERR_clear_error()
        throw .malformedInput(seen.isEmpty ? "PEM" : "PEM label \(seen.joined(separator: ", "))")
    }

    /// The next block of a BIO, nil at the end. Encrypted blocks (with Proc-Type headers) are refused.
    private static func readBlock(_ bio: OpaquePointer) throws(CryptoError) -> (label: String, der: Data)? {
        var name: UnsafeMutablePointer<CChar>?
        var header: UnsafeMutablePointer<CChar>?
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard PEM_read_bio(bio, &name, &header, &data, &length) == 1, let name, let data else {
            CRYPTO_free(name, #fileID, #line)
            CRYPTO_free(header, #fileID, #line)
            CRYPTO_free(data, #fileID, #line)
            return nil
        }
        defer {
            CRYPTO_free(name, #fileID, #line)
            CRYPTO_free(header, #fileID, #line)
            OPENSSL_cleanse(data, length)
            CRYPTO_free(data, #fileID, #line)
        }
        if let header, header.pointee != 0 { throw .unsupportedAlgorithm("encrypted PEM") }
        return (String(cString: name), Data(bytes: data, count: length))
    }

    /// A PEM block with `label` around `der` (base64 in 64-character lines, RFC 7468 §2).
    static func encode(label: String, der: Data) -> String {
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
