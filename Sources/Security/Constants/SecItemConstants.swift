#if os(Linux)
import Foundation

// Keychain Services constants with Apple's raw values (from Apple's open-source SecItemConstants.c),
// typed `CFString` as on Apple platforms so `kSecClass as String` and `[kSecClass: …]` both work.
// Global `let`s of a class type: immutable NSString values, so `nonisolated(unsafe)` is sound.

// MARK: Item classes (`kSecClass` values)

/// `kSecClass` ("class").
nonisolated(unsafe) public let kSecClass: CFString = "class" as NSString
/// `kSecClassGenericPassword` ("genp").
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp" as NSString
/// `kSecClassInternetPassword` ("inet").
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet" as NSString
/// `kSecClassCertificate` ("cert").
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert" as NSString
/// `kSecClassKey` ("keys").
nonisolated(unsafe) public let kSecClassKey: CFString = "keys" as NSString
/// `kSecClassIdentity` ("idnt").
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt" as NSString

// MARK: General attributes

/// `kSecAttrAccessible` ("pdmn").
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn" as NSString
/// `kSecAttrAccessControl` ("accc").
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc" as NSString
/// `kSecAttrAccessGroup` ("agrp").
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp" as NSString
/// `kSecAttrSynchronizable` ("sync").
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync" as NSString
/// `kSecAttrSynchronizableAny` ("syna").
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna" as NSString
/// `kSecAttrCreationDate` ("cdat").
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat" as NSString
/// `kSecAttrModificationDate` ("mdat").
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat" as NSString
/// `kSecAttrDescription` ("desc").
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc" as NSString
/// `kSecAttrComment` ("icmt").
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt" as NSString
/// `kSecAttrCreator` ("crtr").
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr" as NSString
/// `kSecAttrType` ("type").
nonisolated(unsafe) public let kSecAttrType: CFString = "type" as NSString
/// `kSecAttrLabel` ("labl").
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl" as NSString
/// `kSecAttrIsInvisible` ("invi").
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi" as NSString
/// `kSecAttrIsNegative` ("nega").
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega" as NSString
/// `kSecAttrAccount` ("acct").
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct" as NSString
/// `kSecAttrService` ("svce").
nonisolated(unsafe) public let kSecAttrService: CFString = "svce" as NSString
/// `kSecAttrGeneric` ("gena").
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena" as NSString
/// `kSecAttrSyncViewHint` ("vwht").
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = "vwht" as NSString
/// `kSecAttrPersistentReference` ("persistref").
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = "persistref" as NSString
/// `kSecAttrAccessGroupToken` ("com.apple.token").
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = "com.apple.token" as NSString

// MARK: Internet password attributes

/// `kSecAttrSecurityDomain` ("sdmn").
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn" as NSString
/// `kSecAttrServer` ("srvr").
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr" as NSString
/// `kSecAttrProtocol` ("ptcl").
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl" as NSString
/// `kSecAttrAuthenticationType` ("atyp").
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp" as NSString
/// `kSecAttrPort` ("port").
nonisolated(unsafe) public let kSecAttrPort: CFString = "port" as NSString
/// `kSecAttrPath` ("path").
nonisolated(unsafe) public let kSecAttrPath: CFString = "path" as NSString

// MARK: Certificate attributes

/// `kSecAttrSubject` ("subj").
nonisolated(unsafe) public let kSecAttrSubject: CFString = "subj" as NSString
/// `kSecAttrIssuer` ("issr").
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr" as NSString
/// `kSecAttrSerialNumber` ("slnr").
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr" as NSString
/// `kSecAttrSubjectKeyID` ("skid").
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = "skid" as NSString
/// `kSecAttrPublicKeyHash` ("pkhh").
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = "pkhh" as NSString
/// `kSecAttrCertificateType` ("ctyp").
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp" as NSString
/// `kSecAttrCertificateEncoding` ("cenc").
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = "cenc" as NSString

// MARK: Key attributes

/// `kSecAttrKeyClass` ("kcls").
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls" as NSString
/// `kSecAttrApplicationLabel` ("klbl").
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl" as NSString
/// `kSecAttrIsPermanent` ("perm").
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm" as NSString
/// `kSecAttrIsSensitive` ("sens").
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = "sens" as NSString
/// `kSecAttrIsExtractable` ("extr").
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = "extr" as NSString
/// `kSecAttrApplicationTag` ("atag").
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag" as NSString
/// `kSecAttrKeyType` ("type").
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type" as NSString
/// `kSecAttrKeySizeInBits` ("bsiz").
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz" as NSString
/// `kSecAttrEffectiveKeySize` ("esiz").
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz" as NSString
/// `kSecAttrCanEncrypt` ("encr").
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr" as NSString
/// `kSecAttrCanDecrypt` ("decr").
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr" as NSString
/// `kSecAttrCanDerive` ("drve").
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve" as NSString
/// `kSecAttrCanSign` ("sign").
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign" as NSString
/// `kSecAttrCanVerify` ("vrfy").
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy" as NSString
/// `kSecAttrCanWrap` ("wrap").
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap" as NSString
/// `kSecAttrCanUnwrap` ("unwp").
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp" as NSString
/// `kSecAttrTokenID` ("tkid").
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid" as NSString
/// `kSecAttrTokenIDSecureEnclave` ("com.apple.setoken").
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken" as NSString
/// `kSecPrivateKeyAttrs` ("private").
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private" as NSString
/// `kSecPublicKeyAttrs` ("public").
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public" as NSString
/// `kSecAttrKeyClassPublic` ("0").
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0" as NSString
/// `kSecAttrKeyClassPrivate` ("1").
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1" as NSString
/// `kSecAttrKeyClassSymmetric` ("2").
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2" as NSString
/// `kSecAttrKeyTypeRSA` ("42").
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42" as NSString
/// `kSecAttrKeyTypeDSA` ("43").
nonisolated(unsafe) public let kSecAttrKeyTypeDSA: CFString = "43" as NSString
/// `kSecAttrKeyTypeAES` ("2147483649").
nonisolated(unsafe) public let kSecAttrKeyTypeAES: CFString = "2147483649" as NSString
/// `kSecAttrKeyTypeDES` ("14").
nonisolated(unsafe) public let kSecAttrKeyTypeDES: CFString = "14" as NSString
/// `kSecAttrKeyType3DES` ("17").
nonisolated(unsafe) public let kSecAttrKeyType3DES: CFString = "17" as NSString
/// `kSecAttrKeyTypeRC4` ("25").
nonisolated(unsafe) public let kSecAttrKeyTypeRC4: CFString = "25" as NSString
/// `kSecAttrKeyTypeRC2` ("23").
nonisolated(unsafe) public let kSecAttrKeyTypeRC2: CFString = "23" as NSString
/// `kSecAttrKeyTypeCAST` ("56").
nonisolated(unsafe) public let kSecAttrKeyTypeCAST: CFString = "56" as NSString
/// `kSecAttrKeyTypeECDSA` ("73").
nonisolated(unsafe) public let kSecAttrKeyTypeECDSA: CFString = "73" as NSString
/// `kSecAttrKeyTypeEC` ("73").
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73" as NSString
/// `kSecAttrKeyTypeECSECPrimeRandom` ("73").
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73" as NSString

// MARK: Accessibility values (`kSecAttrAccessible`)

/// `kSecAttrAccessibleWhenUnlocked` ("ak").
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak" as NSString
/// `kSecAttrAccessibleAfterFirstUnlock` ("ck").
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck" as NSString
/// `kSecAttrAccessibleAlways` ("dk").
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk" as NSString
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` ("akpu").
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu" as NSString
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` ("aku").
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku" as NSString
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` ("cku").
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku" as NSString
/// `kSecAttrAccessibleAlwaysThisDeviceOnly` ("dku").
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku" as NSString

// MARK: Protocol values (`kSecAttrProtocol`)

/// `kSecAttrProtocolFTP` ("ftp ").
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp " as NSString
/// `kSecAttrProtocolFTPAccount` ("ftpa").
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa" as NSString
/// `kSecAttrProtocolHTTP` ("http").
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http" as NSString
/// `kSecAttrProtocolIRC` ("irc ").
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc " as NSString
/// `kSecAttrProtocolNNTP` ("nntp").
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp" as NSString
/// `kSecAttrProtocolPOP3` ("pop3").
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3" as NSString
/// `kSecAttrProtocolSMTP` ("smtp").
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp" as NSString
/// `kSecAttrProtocolSOCKS` ("sox ").
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox " as NSString
/// `kSecAttrProtocolIMAP` ("imap").
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap" as NSString
/// `kSecAttrProtocolLDAP` ("ldap").
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap" as NSString
/// `kSecAttrProtocolAppleTalk` ("atlk").
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk" as NSString
/// `kSecAttrProtocolAFP` ("afp ").
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp " as NSString
/// `kSecAttrProtocolTelnet` ("teln").
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln" as NSString
/// `kSecAttrProtocolSSH` ("ssh ").
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh " as NSString
/// `kSecAttrProtocolFTPS` ("ftps").
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps" as NSString
/// `kSecAttrProtocolHTTPS` ("htps").
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps" as NSString
/// `kSecAttrProtocolHTTPProxy` ("htpx").
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx" as NSString
/// `kSecAttrProtocolHTTPSProxy` ("htsx").
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx" as NSString
/// `kSecAttrProtocolFTPProxy` ("ftpx").
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx" as NSString
/// `kSecAttrProtocolSMB` ("smb ").
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb " as NSString
/// `kSecAttrProtocolRTSP` ("rtsp").
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp" as NSString
/// `kSecAttrProtocolRTSPProxy` ("rtsx").
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx" as NSString
/// `kSecAttrProtocolDAAP` ("daap").
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap" as NSString
/// `kSecAttrProtocolEPPC` ("eppc").
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc" as NSString
/// `kSecAttrProtocolIPP` ("ipp ").
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp " as NSString
/// `kSecAttrProtocolNNTPS` ("ntps").
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps" as NSString
/// `kSecAttrProtocolLDAPS` ("ldps").
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps" as NSString
/// `kSecAttrProtocolTelnetS` ("tels").
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels" as NSString
/// `kSecAttrProtocolIMAPS` ("imps").
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps" as NSString
/// `kSecAttrProtocolIRCS` ("ircs").
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs" as NSString
/// `kSecAttrProtocolPOP3S` ("pops").
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops" as NSString

// MARK: Authentication type values (`kSecAttrAuthenticationType`)

/// `kSecAttrAuthenticationTypeNTLM` ("ntlm").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm" as NSString
/// `kSecAttrAuthenticationTypeMSN` ("msna").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna" as NSString
/// `kSecAttrAuthenticationTypeDPA` ("dpaa").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa" as NSString
/// `kSecAttrAuthenticationTypeRPA` ("rpaa").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa" as NSString
/// `kSecAttrAuthenticationTypeHTTPBasic` ("http").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http" as NSString
/// `kSecAttrAuthenticationTypeHTTPDigest` ("httd").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd" as NSString
/// `kSecAttrAuthenticationTypeHTMLForm` ("form").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form" as NSString
/// `kSecAttrAuthenticationTypeDefault` ("dflt").
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt" as NSString

// MARK: Search keys

/// `kSecMatchPolicy` ("m_Policy").
nonisolated(unsafe) public let kSecMatchPolicy: CFString = "m_Policy" as NSString
/// `kSecMatchItemList` ("m_ItemList").
nonisolated(unsafe) public let kSecMatchItemList: CFString = "m_ItemList" as NSString
/// `kSecMatchSearchList` ("m_SearchList").
nonisolated(unsafe) public let kSecMatchSearchList: CFString = "m_SearchList" as NSString
/// `kSecMatchIssuers` ("m_Issuers").
nonisolated(unsafe) public let kSecMatchIssuers: CFString = "m_Issuers" as NSString
/// `kSecMatchEmailAddressIfPresent` ("m_EmailAddressIfPresent").
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent" as NSString
/// `kSecMatchSubjectContains` ("m_SubjectContains").
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = "m_SubjectContains" as NSString
/// `kSecMatchSubjectStartsWith` ("m_SubjectStartsWith").
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = "m_SubjectStartsWith" as NSString
/// `kSecMatchSubjectEndsWith` ("m_SubjectEndsWith").
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = "m_SubjectEndsWith" as NSString
/// `kSecMatchSubjectWholeString` ("m_SubjectWholeString").
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = "m_SubjectWholeString" as NSString
/// `kSecMatchCaseInsensitive` ("m_CaseInsensitive").
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive" as NSString
/// `kSecMatchDiacriticInsensitive` ("m_DiacriticInsensitive").
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = "m_DiacriticInsensitive" as NSString
/// `kSecMatchWidthInsensitive` ("m_WidthInsensitive").
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = "m_WidthInsensitive" as NSString
/// `kSecMatchTrustedOnly` ("m_TrustedOnly").
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly" as NSString
/// `kSecMatchValidOnDate` ("m_ValidOnDate").
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = "m_ValidOnDate" as NSString
/// `kSecMatchLimit` ("m_Limit").
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit" as NSString
/// `kSecMatchLimitOne` ("m_LimitOne").
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne" as NSString
/// `kSecMatchLimitAll` ("m_LimitAll").
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll" as NSString

// MARK: Return keys

/// `kSecReturnData` ("r_Data").
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data" as NSString
/// `kSecReturnAttributes` ("r_Attributes").
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes" as NSString
/// `kSecReturnRef` ("r_Ref").
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref" as NSString
/// `kSecReturnPersistentRef` ("r_PersistentRef").
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef" as NSString

// MARK: Value keys

/// `kSecValueData` ("v_Data").
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data" as NSString
/// `kSecValueRef` ("v_Ref").
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref" as NSString
/// `kSecValuePersistentRef` ("v_PersistentRef").
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef" as NSString

// MARK: Other keys

/// `kSecUseItemList` ("u_ItemList").
nonisolated(unsafe) public let kSecUseItemList: CFString = "u_ItemList" as NSString
/// `kSecUseKeychain` ("u_Keychain").
nonisolated(unsafe) public let kSecUseKeychain: CFString = "u_Keychain" as NSString
/// `kSecUseOperationPrompt` ("u_OpPrompt").
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt" as NSString
/// `kSecUseNoAuthenticationUI` ("u_NoAuthUI").
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI" as NSString
/// `kSecUseAuthenticationUI` ("u_AuthUI").
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI" as NSString
/// `kSecUseAuthenticationContext` ("u_AuthCtx").
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx" as NSString
/// `kSecUseDataProtectionKeychain` ("nleg").
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg" as NSString
/// `kSecUseAuthenticationUIAllow` ("u_AuthUIA").
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA" as NSString
/// `kSecUseAuthenticationUIFail` ("u_AuthUIF").
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF" as NSString
/// `kSecUseAuthenticationUISkip` ("u_AuthUIS").
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS" as NSString

#endif
