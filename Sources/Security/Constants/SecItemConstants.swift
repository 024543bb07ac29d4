#if os(Linux)
import Foundation

// Keychain Services constants with Apple's raw values (from Apple's open-source SecItemConstants.c),
// typed `CFString` as on Apple platforms so `kSecClass as String` and `[kSecClass: …]` both work.
// Global `let`s of a class type: immutable NSString values, so `nonisolated(unsafe)` is sound.

// MARK: Item classes (`kSecClass` values)

/// `kSecClass` ("class").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecClass: CFString = "class" as NSString
/// `kSecClassGenericPassword` ("genp").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp" as NSString
/// `kSecClassInternetPassword` ("inet").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet" as NSString
/// `kSecClassCertificate` ("cert").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert" as NSString
/// `kSecClassKey` ("keys").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecClassKey: CFString = "keys" as NSString
/// `kSecClassIdentity` ("idnt").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt" as NSString

// MARK: General attributes

/// `kSecAttrAccessible` ("pdmn").
@available(macOS 10.9, iOS 4.0, *)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn" as NSString
/// `kSecAttrAccessControl` ("accc").
@available(macOS 10.10, iOS 8.0, *)
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc" as NSString
/// `kSecAttrAccessGroup` ("agrp").
@available(macOS 10.9, iOS 3.0, *)
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp" as NSString
/// `kSecAttrSynchronizable` ("sync").
@available(macOS 10.9, iOS 7.0, *)
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync" as NSString
/// `kSecAttrSynchronizableAny` ("syna").
@available(macOS 10.9, iOS 7.0, *)
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna" as NSString
/// `kSecAttrCreationDate` ("cdat").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat" as NSString
/// `kSecAttrModificationDate` ("mdat").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat" as NSString
/// `kSecAttrDescription` ("desc").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc" as NSString
/// `kSecAttrComment` ("icmt").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt" as NSString
/// `kSecAttrCreator` ("crtr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr" as NSString
/// `kSecAttrType` ("type").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrType: CFString = "type" as NSString
/// `kSecAttrLabel` ("labl").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl" as NSString
/// `kSecAttrIsInvisible` ("invi").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi" as NSString
/// `kSecAttrIsNegative` ("nega").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega" as NSString
/// `kSecAttrAccount` ("acct").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct" as NSString
/// `kSecAttrService` ("svce").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce" as NSString
/// `kSecAttrGeneric` ("gena").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena" as NSString
/// `kSecAttrSyncViewHint` ("vwht").
@available(macOS 10.11, iOS 9.0, *)
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = "vwht" as NSString
/// `kSecAttrPersistentReference` ("persistref").
@available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = "persistref" as NSString
/// `kSecAttrAccessGroupToken` ("com.apple.token").
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = "com.apple.token" as NSString

// MARK: Internet password attributes

/// `kSecAttrSecurityDomain` ("sdmn").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn" as NSString
/// `kSecAttrServer` ("srvr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr" as NSString
/// `kSecAttrProtocol` ("ptcl").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl" as NSString
/// `kSecAttrAuthenticationType` ("atyp").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp" as NSString
/// `kSecAttrPort` ("port").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrPort: CFString = "port" as NSString
/// `kSecAttrPath` ("path").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrPath: CFString = "path" as NSString

// MARK: Certificate attributes

/// `kSecAttrSubject` ("subj").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrSubject: CFString = "subj" as NSString
/// `kSecAttrIssuer` ("issr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr" as NSString
/// `kSecAttrSerialNumber` ("slnr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr" as NSString
/// `kSecAttrSubjectKeyID` ("skid").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = "skid" as NSString
/// `kSecAttrPublicKeyHash` ("pkhh").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = "pkhh" as NSString
/// `kSecAttrCertificateType` ("ctyp").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp" as NSString
/// `kSecAttrCertificateEncoding` ("cenc").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = "cenc" as NSString

// MARK: Key attributes

/// `kSecAttrKeyClass` ("kcls").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls" as NSString
/// `kSecAttrApplicationLabel` ("klbl").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl" as NSString
/// `kSecAttrIsPermanent` ("perm").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm" as NSString
/// `kSecAttrIsSensitive` ("sens").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = "sens" as NSString
/// `kSecAttrIsExtractable` ("extr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = "extr" as NSString
/// `kSecAttrApplicationTag` ("atag").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag" as NSString
/// `kSecAttrKeyType` ("type").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type" as NSString
/// `kSecAttrKeySizeInBits` ("bsiz").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz" as NSString
/// `kSecAttrEffectiveKeySize` ("esiz").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz" as NSString
/// `kSecAttrCanEncrypt` ("encr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr" as NSString
/// `kSecAttrCanDecrypt` ("decr").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr" as NSString
/// `kSecAttrCanDerive` ("drve").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve" as NSString
/// `kSecAttrCanSign` ("sign").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign" as NSString
/// `kSecAttrCanVerify` ("vrfy").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy" as NSString
/// `kSecAttrCanWrap` ("wrap").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap" as NSString
/// `kSecAttrCanUnwrap` ("unwp").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp" as NSString
/// `kSecAttrTokenID` ("tkid").
@available(macOS 10.12, iOS 9.0, *)
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid" as NSString
/// `kSecAttrTokenIDSecureEnclave` ("com.apple.setoken").
@available(macOS 10.12, iOS 9.0, *)
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken" as NSString
/// `kSecPrivateKeyAttrs` ("private").
@available(macOS 10.8, *)
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private" as NSString
/// `kSecPublicKeyAttrs` ("public").
@available(macOS 10.8, *)
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public" as NSString
/// `kSecAttrKeyClassPublic` ("0").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0" as NSString
/// `kSecAttrKeyClassPrivate` ("1").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1" as NSString
/// `kSecAttrKeyClassSymmetric` ("2").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2" as NSString
/// `kSecAttrKeyTypeRSA` ("42").
@available(macOS 10.7, *)
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42" as NSString
/// `kSecAttrKeyTypeDSA` ("43").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeDSA: CFString = "43" as NSString
/// `kSecAttrKeyTypeAES` ("2147483649").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeAES: CFString = "2147483649" as NSString
/// `kSecAttrKeyTypeDES` ("14").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeDES: CFString = "14" as NSString
/// `kSecAttrKeyType3DES` ("17").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyType3DES: CFString = "17" as NSString
/// `kSecAttrKeyTypeRC4` ("25").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeRC4: CFString = "25" as NSString
/// `kSecAttrKeyTypeRC2` ("23").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeRC2: CFString = "23" as NSString
/// `kSecAttrKeyTypeCAST` ("56").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeCAST: CFString = "56" as NSString
/// `kSecAttrKeyTypeECDSA` ("73").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecAttrKeyTypeECDSA: CFString = "73" as NSString
/// `kSecAttrKeyTypeEC` ("73").
@available(macOS 10.9, iOS 4.0, *)
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73" as NSString
/// `kSecAttrKeyTypeECSECPrimeRandom` ("73").
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73" as NSString

// MARK: Accessibility values (`kSecAttrAccessible`)

/// `kSecAttrAccessibleWhenUnlocked` ("ak").
@available(macOS 10.9, iOS 4.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak" as NSString
/// `kSecAttrAccessibleAfterFirstUnlock` ("ck").
@available(macOS 10.9, iOS 4.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck" as NSString
/// `kSecAttrAccessibleAlways` ("dk").
@available(macOS, introduced: 10.9, deprecated: 10.14)
@available(iOS, introduced: 4.0, deprecated: 12.0)
@available(tvOS, deprecated: 12.0)
@available(watchOS, deprecated: 5.0)
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk" as NSString
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` ("akpu").
@available(macOS 10.10, iOS 8.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu" as NSString
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` ("aku").
@available(macOS 10.9, iOS 4.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku" as NSString
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` ("cku").
@available(macOS 10.9, iOS 4.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku" as NSString
/// `kSecAttrAccessibleAlwaysThisDeviceOnly` ("dku").
@available(macOS, introduced: 10.9, deprecated: 10.14)
@available(iOS, introduced: 4.0, deprecated: 12.0)
@available(tvOS, deprecated: 12.0)
@available(watchOS, deprecated: 5.0)
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku" as NSString

// MARK: Protocol values (`kSecAttrProtocol`)

/// `kSecAttrProtocolFTP` ("ftp ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp " as NSString
/// `kSecAttrProtocolFTPAccount` ("ftpa").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa" as NSString
/// `kSecAttrProtocolHTTP` ("http").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http" as NSString
/// `kSecAttrProtocolIRC` ("irc ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc " as NSString
/// `kSecAttrProtocolNNTP` ("nntp").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp" as NSString
/// `kSecAttrProtocolPOP3` ("pop3").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3" as NSString
/// `kSecAttrProtocolSMTP` ("smtp").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp" as NSString
/// `kSecAttrProtocolSOCKS` ("sox ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox " as NSString
/// `kSecAttrProtocolIMAP` ("imap").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap" as NSString
/// `kSecAttrProtocolLDAP` ("ldap").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap" as NSString
/// `kSecAttrProtocolAppleTalk` ("atlk").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk" as NSString
/// `kSecAttrProtocolAFP` ("afp ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp " as NSString
/// `kSecAttrProtocolTelnet` ("teln").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln" as NSString
/// `kSecAttrProtocolSSH` ("ssh ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh " as NSString
/// `kSecAttrProtocolFTPS` ("ftps").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps" as NSString
/// `kSecAttrProtocolHTTPS` ("htps").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps" as NSString
/// `kSecAttrProtocolHTTPProxy` ("htpx").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx" as NSString
/// `kSecAttrProtocolHTTPSProxy` ("htsx").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx" as NSString
/// `kSecAttrProtocolFTPProxy` ("ftpx").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx" as NSString
/// `kSecAttrProtocolSMB` ("smb ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb " as NSString
/// `kSecAttrProtocolRTSP` ("rtsp").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp" as NSString
/// `kSecAttrProtocolRTSPProxy` ("rtsx").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx" as NSString
/// `kSecAttrProtocolDAAP` ("daap").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap" as NSString
/// `kSecAttrProtocolEPPC` ("eppc").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc" as NSString
/// `kSecAttrProtocolIPP` ("ipp ").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp " as NSString
/// `kSecAttrProtocolNNTPS` ("ntps").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps" as NSString
/// `kSecAttrProtocolLDAPS` ("ldps").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps" as NSString
/// `kSecAttrProtocolTelnetS` ("tels").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels" as NSString
/// `kSecAttrProtocolIMAPS` ("imps").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps" as NSString
/// `kSecAttrProtocolIRCS` ("ircs").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs" as NSString
/// `kSecAttrProtocolPOP3S` ("pops").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops" as NSString

// MARK: Authentication type values (`kSecAttrAuthenticationType`)

/// `kSecAttrAuthenticationTypeNTLM` ("ntlm").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm" as NSString
/// `kSecAttrAuthenticationTypeMSN` ("msna").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna" as NSString
/// `kSecAttrAuthenticationTypeDPA` ("dpaa").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa" as NSString
/// `kSecAttrAuthenticationTypeRPA` ("rpaa").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa" as NSString
/// `kSecAttrAuthenticationTypeHTTPBasic` ("http").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http" as NSString
/// `kSecAttrAuthenticationTypeHTTPDigest` ("httd").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd" as NSString
/// `kSecAttrAuthenticationTypeHTMLForm` ("form").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form" as NSString
/// `kSecAttrAuthenticationTypeDefault` ("dflt").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt" as NSString

// MARK: Search keys

/// `kSecMatchPolicy` ("m_Policy").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchPolicy: CFString = "m_Policy" as NSString
/// `kSecMatchItemList` ("m_ItemList").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchItemList: CFString = "m_ItemList" as NSString
/// `kSecMatchSearchList` ("m_SearchList").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchSearchList: CFString = "m_SearchList" as NSString
/// `kSecMatchIssuers` ("m_Issuers").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchIssuers: CFString = "m_Issuers" as NSString
/// `kSecMatchEmailAddressIfPresent` ("m_EmailAddressIfPresent").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent" as NSString
/// `kSecMatchSubjectContains` ("m_SubjectContains").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = "m_SubjectContains" as NSString
/// `kSecMatchSubjectStartsWith` ("m_SubjectStartsWith").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = "m_SubjectStartsWith" as NSString
/// `kSecMatchSubjectEndsWith` ("m_SubjectEndsWith").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = "m_SubjectEndsWith" as NSString
/// `kSecMatchSubjectWholeString` ("m_SubjectWholeString").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = "m_SubjectWholeString" as NSString
/// `kSecMatchCaseInsensitive` ("m_CaseInsensitive").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive" as NSString
/// `kSecMatchDiacriticInsensitive` ("m_DiacriticInsensitive").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = "m_DiacriticInsensitive" as NSString
/// `kSecMatchWidthInsensitive` ("m_WidthInsensitive").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = "m_WidthInsensitive" as NSString
/// `kSecMatchTrustedOnly` ("m_TrustedOnly").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly" as NSString
/// `kSecMatchValidOnDate` ("m_ValidOnDate").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = "m_ValidOnDate" as NSString
/// `kSecMatchLimit` ("m_Limit").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit" as NSString
/// `kSecMatchLimitOne` ("m_LimitOne").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne" as NSString
/// `kSecMatchLimitAll` ("m_LimitAll").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll" as NSString

// MARK: Return keys

/// `kSecReturnData` ("r_Data").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data" as NSString
/// `kSecReturnAttributes` ("r_Attributes").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes" as NSString
/// `kSecReturnRef` ("r_Ref").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref" as NSString
/// `kSecReturnPersistentRef` ("r_PersistentRef").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef" as NSString

// MARK: Value keys

/// `kSecValueData` ("v_Data").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data" as NSString
/// `kSecValueRef` ("v_Ref").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref" as NSString
/// `kSecValuePersistentRef` ("v_PersistentRef").
@available(macOS 10.6, *)
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef" as NSString

// MARK: Other keys

/// `kSecUseItemList` ("u_ItemList").
@available(macOS 10.6, *)
@available(iOS, deprecated: 12.0)
@available(macCatalyst, deprecated: 13.0)
@available(tvOS, deprecated: 12.0)
@available(watchOS, deprecated: 5.0)
nonisolated(unsafe) public let kSecUseItemList: CFString = "u_ItemList" as NSString
/// `kSecUseKeychain` ("u_Keychain").
@available(macOS 10.7, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
nonisolated(unsafe) public let kSecUseKeychain: CFString = "u_Keychain" as NSString
/// `kSecUseOperationPrompt` ("u_OpPrompt").
@available(macOS, introduced: 10.10, deprecated: 11.0)
@available(iOS, introduced: 8.0, deprecated: 14.0)
@available(tvOS, deprecated: 14.0)
@available(watchOS, deprecated: 7.0)
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt" as NSString
/// `kSecUseNoAuthenticationUI` ("u_NoAuthUI").
@available(macOS, introduced: 10.10, deprecated: 10.11)
@available(iOS, introduced: 8.0, deprecated: 9.0)
@available(tvOS, deprecated: 9.0)
@available(watchOS, deprecated: 2.0)
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI" as NSString
/// `kSecUseAuthenticationUI` ("u_AuthUI").
@available(macOS 10.11, iOS 9.0, *)
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI" as NSString
/// `kSecUseAuthenticationContext` ("u_AuthCtx").
@available(macOS 10.11, iOS 9.0, *)
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx" as NSString
/// `kSecUseDataProtectionKeychain` ("nleg").
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg" as NSString
/// `kSecUseAuthenticationUIAllow` ("u_AuthUIA").
@available(macOS, introduced: 10.11, deprecated: 11.0)
@available(iOS, introduced: 9.0, deprecated: 14.0)
@available(tvOS, deprecated: 14.0)
@available(watchOS, deprecated: 7.0)
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA" as NSString
/// `kSecUseAuthenticationUIFail` ("u_AuthUIF").
@available(macOS, introduced: 10.11, deprecated: 11.0)
@available(iOS, introduced: 9.0, deprecated: 14.0)
@available(tvOS, deprecated: 14.0)
@available(watchOS, deprecated: 7.0)
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF" as NSString
/// `kSecUseAuthenticationUISkip` ("u_AuthUIS").
@available(macOS 10.11, iOS 9.0, *)
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS" as NSString

#endif
