/// `kSecAttrProtocol` values (four-character strings, Apple's raw values).
public struct InternetProtocol: RawRepresentable, Sendable, Hashable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let ftp = InternetProtocol(rawValue: "ftp ")
    public static let http = InternetProtocol(rawValue: "http")
    public static let https = InternetProtocol(rawValue: "htps")
    public static let imap = InternetProtocol(rawValue: "imap")
    public static let imaps = InternetProtocol(rawValue: "imps")
    public static let smtp = InternetProtocol(rawValue: "smtp")
    public static let pop3 = InternetProtocol(rawValue: "pop3")
    public static let ldap = InternetProtocol(rawValue: "ldap")
    public static let ssh = InternetProtocol(rawValue: "ssh ")
    public static let smb = InternetProtocol(rawValue: "smb ")
}

/// `kSecAttrAuthenticationType` values (Apple's raw values).
public struct AuthenticationType: RawRepresentable, Sendable, Hashable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let ntlm = AuthenticationType(rawValue: "ntlm")
    public static let msn = AuthenticationType(rawValue: "msna")
    public static let dpa = AuthenticationType(rawValue: "dpaa")
    public static let rpa = AuthenticationType(rawValue: "rpaa")
    public static let httpBasic = AuthenticationType(rawValue: "http")
    public static let httpDigest = AuthenticationType(rawValue: "httd")
    public static let htmlForm = AuthenticationType(rawValue: "form")
    public static let `default` = AuthenticationType(rawValue: "dflt")
}
