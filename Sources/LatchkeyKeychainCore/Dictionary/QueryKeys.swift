/// Apple's raw key and value strings for SecItem dictionaries that are not item attributes
/// (attribute keys are `AttributeKey`'s raw values). From Apple's SecItemConstants.c.
public enum QueryKeys {
    public static let itemClass = "class"
    public static let accessible = "pdmn"
    public static let accessControl = "accc"
    public static let synchronizable = "sync"
    public static let synchronizableAny = "syna"
    public static let creationDate = "cdat"
    public static let modificationDate = "mdat"
    public static let valueData = "v_Data"
    public static let valueRef = "v_Ref"
    public static let valuePersistentRef = "v_PersistentRef"
    public static let returnData = "r_Data"
    public static let returnAttributes = "r_Attributes"
    public static let returnRef = "r_Ref"
    public static let returnPersistentRef = "r_PersistentRef"
    public static let matchLimit = "m_Limit"
    public static let matchLimitOne = "m_LimitOne"
    public static let matchLimitAll = "m_LimitAll"
    public static let useAuthenticationContext = "u_AuthCtx"
    public static let useAuthenticationUI = "u_AuthUI"
    public static let useOperationPrompt = "u_OpPrompt"
    public static let useNoAuthenticationUI = "u_NoAuthUI"
    public static let useDataProtectionKeychain = "nleg"
    public static let useItemList = "u_ItemList"
    /// `kSecMatchPolicy` and `kSecMatchIssuers`: certificate searches (errSecUnimplemented for other classes).
    public static let certificateMatchKeys: Set<String> = ["m_Policy", "m_Issuers"]
    /// The match keys `SecItemDelete` takes (a match limit and the insensitive-matching flags, as the macOS file
    /// keychain's delete does).
    public static let deleteMatchKeys: Set<String> = ["m_Limit", "m_CaseInsensitive", "m_DiacriticInsensitive", "m_WidthInsensitive"]
    /// Accepted and ignored: they select Apple-only behaviour with no meaning in Latchkey's stores
    /// (`kSecUseDataProtectionKeychain`, `kSecUseCallerName`, `kSecAttrSyncViewHint`, `kSecUseKeychain` (macOS file
    /// keychains), and attributes Apple's schema has but Latchkey does not model).
    public static let ignored: Set<String> = ["nleg", "u_CallerName", "musr", "vwht", "u_Tomb", "tomb", "persistref", "sha1",
                                              "u_Keychain"]
}
