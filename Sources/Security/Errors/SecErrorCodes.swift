#if os(Linux)
import Foundation

// `errSec…` result codes with Apple's `OSStatus` values (SecBase.h).

/// `noErr` (0), from MacTypes; keychain code compares with it.
public let noErr: OSStatus = 0
/// `errSecSuccess` (0).
public let errSecSuccess: OSStatus = 0
/// `errSecUnimplemented` (-4).
public let errSecUnimplemented: OSStatus = -4
/// `errSecDiskFull` (-34).
public let errSecDiskFull: OSStatus = -34
/// `errSecDskFull` (-34).
public let errSecDskFull: OSStatus = -34
/// `errSecIO` (-36).
public let errSecIO: OSStatus = -36
/// `errSecOpWr` (-49).
public let errSecOpWr: OSStatus = -49
/// `errSecParam` (-50).
public let errSecParam: OSStatus = -50
/// `errSecWrPerm` (-61).
public let errSecWrPerm: OSStatus = -61
/// `errSecAllocate` (-108).
public let errSecAllocate: OSStatus = -108
/// `errSecUserCanceled` (-128).
public let errSecUserCanceled: OSStatus = -128
/// `errSecBadReq` (-909).
public let errSecBadReq: OSStatus = -909
/// `errSecInternalComponent` (-2070).
public let errSecInternalComponent: OSStatus = -2070
/// `errSecCoreFoundationUnknown` (-4960).
public let errSecCoreFoundationUnknown: OSStatus = -4960
/// `errSecMissingEntitlement` (-34018).
public let errSecMissingEntitlement: OSStatus = -34018
/// `errSecRestrictedAPI` (-34020).
public let errSecRestrictedAPI: OSStatus = -34020
/// `errSecNotAvailable` (-25291).
public let errSecNotAvailable: OSStatus = -25291
/// `errSecReadOnly` (-25292).
public let errSecReadOnly: OSStatus = -25292
/// `errSecAuthFailed` (-25293).
public let errSecAuthFailed: OSStatus = -25293
/// `errSecNoSuchKeychain` (-25294).
public let errSecNoSuchKeychain: OSStatus = -25294
/// `errSecInvalidKeychain` (-25295).
public let errSecInvalidKeychain: OSStatus = -25295
/// `errSecDuplicateKeychain` (-25296).
public let errSecDuplicateKeychain: OSStatus = -25296
/// `errSecDuplicateCallback` (-25297).
public let errSecDuplicateCallback: OSStatus = -25297
/// `errSecInvalidCallback` (-25298).
public let errSecInvalidCallback: OSStatus = -25298
/// `errSecDuplicateItem` (-25299).
public let errSecDuplicateItem: OSStatus = -25299
/// `errSecItemNotFound` (-25300).
public let errSecItemNotFound: OSStatus = -25300
/// `errSecBufferTooSmall` (-25301).
public let errSecBufferTooSmall: OSStatus = -25301
/// `errSecDataTooLarge` (-25302).
public let errSecDataTooLarge: OSStatus = -25302
/// `errSecNoSuchAttr` (-25303).
public let errSecNoSuchAttr: OSStatus = -25303
/// `errSecInvalidItemRef` (-25304).
public let errSecInvalidItemRef: OSStatus = -25304
/// `errSecInvalidSearchRef` (-25305).
public let errSecInvalidSearchRef: OSStatus = -25305
/// `errSecNoSuchClass` (-25306).
public let errSecNoSuchClass: OSStatus = -25306
/// `errSecNoDefaultKeychain` (-25307).
public let errSecNoDefaultKeychain: OSStatus = -25307
/// `errSecInteractionNotAllowed` (-25308).
public let errSecInteractionNotAllowed: OSStatus = -25308
/// `errSecReadOnlyAttr` (-25309).
public let errSecReadOnlyAttr: OSStatus = -25309
/// `errSecWrongSecVersion` (-25310).
public let errSecWrongSecVersion: OSStatus = -25310
/// `errSecKeySizeNotAllowed` (-25311).
public let errSecKeySizeNotAllowed: OSStatus = -25311
/// `errSecNoStorageModule` (-25312).
public let errSecNoStorageModule: OSStatus = -25312
/// `errSecInteractionRequired` (-25315).
public let errSecInteractionRequired: OSStatus = -25315
/// `errSecDataNotAvailable` (-25316).
public let errSecDataNotAvailable: OSStatus = -25316
/// `errSecDataNotModifiable` (-25317).
public let errSecDataNotModifiable: OSStatus = -25317
/// `errSecCreateChainFailed` (-25318).
public let errSecCreateChainFailed: OSStatus = -25318
/// `errSecInDarkWake` (-25320).
public let errSecInDarkWake: OSStatus = -25320
/// `errSecPolicyNotFound` (-25241).
public let errSecPolicyNotFound: OSStatus = -25241
/// `errSecNoAccessForItem` (-25243).
public let errSecNoAccessForItem: OSStatus = -25243
/// `errSecUnsupportedFormat` (-25256).
public let errSecUnsupportedFormat: OSStatus = -25256
/// `errSecUnknownFormat` (-25257).
public let errSecUnknownFormat: OSStatus = -25257
/// `errSecKeyIsSensitive` (-25258).
public let errSecKeyIsSensitive: OSStatus = -25258
/// `errSecPassphraseRequired` (-25260).
public let errSecPassphraseRequired: OSStatus = -25260
/// `errSecNotSigner` (-26267).
public let errSecNotSigner: OSStatus = -26267
/// `errSecDecode` (-26275).
public let errSecDecode: OSStatus = -26275
/// `errSecServiceNotAvailable` (-67585).
public let errSecServiceNotAvailable: OSStatus = -67585
/// `errSecMemoryError` (-67672).
public let errSecMemoryError: OSStatus = -67672
/// `errSecInvalidData` (-67673).
public let errSecInvalidData: OSStatus = -67673
/// `errSecInvalidSignature` (-67688).
public let errSecInvalidSignature: OSStatus = -67688
/// `errSecInvalidKeyRef` (-67712).
public let errSecInvalidKeyRef: OSStatus = -67712
/// `errSecInvalidAlgorithm` (-67747).
public let errSecInvalidAlgorithm: OSStatus = -67747
/// `errSecVerifyFailed` (-67808).
public let errSecVerifyFailed: OSStatus = -67808
/// `errSecCertificateExpired` (-67818).
public let errSecCertificateExpired: OSStatus = -67818
/// `errSecNotTrusted` (-67843).
public let errSecNotTrusted: OSStatus = -67843

/// English messages `SecCopyErrorMessageString` returns (Apple's wording where known).
let securityErrorMessages: [OSStatus: String] = [
    0: "No error.",
    -4: "Function or operation not implemented.",
    -34: "The disk is full.",
    -36: "I/O error.",
    -49: "The file is already open with write permission.",
    -50: "One or more parameters passed to a function were not valid.",
    -61: "Write permissions error.",
    -108: "Failed to allocate memory.",
    -128: "User canceled the operation.",
    -909: "Bad parameter or invalid state for operation.",
    -2070: "An internal component failed.",
    -4960: "An unknown Core Foundation error occurred.",
    -34018: "A required entitlement isn't present.",
    -34020: "Client is restricted and is not permitted to perform this operation.",
    -25291: "No keychain is available.",
    -25292: "Read-only error.",
    -25293: "The user name or passphrase you entered is not correct.",
    -25294: "The specified keychain could not be found.",
    -25295: "The specified keychain is not a valid keychain file.",
    -25296: "A keychain with the same name already exists.",
    -25297: "The specified callback function is already installed.",
    -25298: "The specified callback function is not valid.",
    -25299: "The specified item already exists in the keychain.",
    -25300: "The specified item could not be found in the keychain.",
    -25301: "There is not enough memory available to use the specified item.",
    -25302: "This item contains information which is too large or in a format that cannot be displayed.",
    -25303: "The specified attribute does not exist.",
    -25304: "The specified item is no longer valid.",
    -25305: "Unable to search the current keychain.",
    -25306: "The specified item does not appear to be a valid keychain item.",
    -25307: "A default keychain could not be found.",
    -25308: "User interaction is not allowed.",
    -25309: "The specified attribute could not be modified.",
    -25310: "This keychain was created by a different version of the system software.",
    -25311: "This item specifies a key size which is too large or too small.",
    -25312: "A required component (data storage module) could not be loaded.",
    -25315: "User interaction is required, but is currently not allowed.",
    -25316: "The contents of this item cannot be retrieved.",
    -25317: "The contents of this item cannot be modified.",
    -25318: "One or more certificates required to validate this certificate cannot be found.",
    -25320: "User interaction is not allowed.",
    -25241: "The specified policy cannot be found.",
    -25243: "The specified item has no access control.",
    -25256: "The specified import or export format is not supported.",
    -25257: "The item you are trying to import has an unknown format.",
    -25258: "The key must be wrapped to be exported.",
    -25260: "A password is required for import or export.",
    -26267: "A certificate was not signed by its proposed parent.",
    -26275: "Unable to decode the provided data.",
    -67585: "The required service is not available.",
    -67672: "A memory error occurred.",
    -67673: "The data is not valid.",
    -67688: "The signature is not valid.",
    -67712: "The key reference is not valid.",
    -67747: "An invalid algorithm was encountered.",
    -67808: "A cryptographic verification failure has occurred.",
    -67818: "An expired certificate was detected.",
    -67843: "The trust policy was not trusted.",
]
#endif
