import COpenSSL
import Foundation

/// PEM armour (RFC 7468) through OpenSSL's `PEM_read_bio` / `PEM_write_bio`.
enum PEM {
    /// The label ("PUBLIC KEY", "PRIVATE KEY", ...) and DER bytes of the first PEM block in `text`.
    static func decode(_ text: String) throws(CryptoError) -> (label: String, der: Data) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count < 1 << 20 else { throw .malformedInput("PEM") }
        let bio = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { throw .libraryFailure("BIO_new_mem_buf") }
        defer { BIO_free(bio) }
        var name: UnsafeMutablePointer<CChar>?
        var header: UnsafeMutablePointer<CChar>?
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard PEM_read_bio(bio, &name, &header, &data, &length) == 1, let name, let data else {
            ERR_clear_error(); throw .malformedInput("PEM")
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
