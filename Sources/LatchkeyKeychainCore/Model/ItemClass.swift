/// The kind of a keychain item (`kSecClass`), with Apple's raw values.
public enum ItemClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// `kSecClassGenericPassword` ("genp").
    case genericPassword = "genp"
    /// `kSecClassInternetPassword` ("inet").
    case internetPassword = "inet"
    /// `kSecClassKey` ("keys"); the value is opaque key data for now.
    case key = "keys"
    /// `kSecClassCertificate` ("cert"); the value is the certificate's DER.
    case certificate = "cert"
    /// `kSecClassIdentity` ("idnt"); the value is opaque data (certificate + key) for now.
    case identity = "idnt"
}
