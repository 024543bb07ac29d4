#if os(Linux)
import Foundation

// Type identifiers, for code that checks `CFGetTypeID(ref) == SecKeyGetTypeID()` before a force cast.
// The numbers are this module's own (Apple's are assigned at run time too); only equality is meaningful.

private enum TypeIDs {
    static let data: CFTypeID = 1, dictionary: CFTypeID = 2, array: CFTypeID = 3, string: CFTypeID = 4
    static let number: CFTypeID = 5, boolean: CFTypeID = 6, date: CFTypeID = 7, error: CFTypeID = 8
    static let key: CFTypeID = 20, accessControl: CFTypeID = 21
    static let certificate: CFTypeID = 22, trust: CFTypeID = 23, policy: CFTypeID = 24
}

/// `CFGetTypeID`: the type identifier of a Core Foundation-style object (0 for other objects).
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    switch cf {
    case is SecKey: TypeIDs.key
    case is SecAccessControl: TypeIDs.accessControl
    case is SecCertificate: TypeIDs.certificate
    case is SecTrust: TypeIDs.trust
    case is SecPolicy: TypeIDs.policy
    case is NSData: TypeIDs.data
    case is NSDictionary: TypeIDs.dictionary
    case is NSArray: TypeIDs.array
    case is NSString: TypeIDs.string
    case let n as NSNumber: CFNumberIsBoolean(n) ? TypeIDs.boolean : TypeIDs.number
    case is NSDate: TypeIDs.date
    case is NSError: TypeIDs.error
    default: 0
    }
}

private func CFNumberIsBoolean(_ n: NSNumber) -> Bool {
    n === kCFBooleanTrue || n === kCFBooleanFalse
}

/// `SecKeyGetTypeID`.
@available(macOS 10.3, *)
public func SecKeyGetTypeID() -> CFTypeID { TypeIDs.key }
/// `SecAccessControlGetTypeID`.
@available(macOS 10.10, iOS 8.0, *)
public func SecAccessControlGetTypeID() -> CFTypeID { TypeIDs.accessControl }
/// `SecCertificateGetTypeID`.
@available(macOS 10.3, *)
public func SecCertificateGetTypeID() -> CFTypeID { TypeIDs.certificate }
/// `SecTrustGetTypeID`.
@available(macOS 10.3, *)
public func SecTrustGetTypeID() -> CFTypeID { TypeIDs.trust }
/// `SecPolicyGetTypeID`.
@available(macOS 10.3, *)
public func SecPolicyGetTypeID() -> CFTypeID { TypeIDs.policy }
/// `CFDataGetTypeID`.
public func CFDataGetTypeID() -> CFTypeID { TypeIDs.data }
/// `CFDictionaryGetTypeID`.
public func CFDictionaryGetTypeID() -> CFTypeID { TypeIDs.dictionary }
/// `CFArrayGetTypeID`.
public func CFArrayGetTypeID() -> CFTypeID { TypeIDs.array }
/// `CFStringGetTypeID`.
public func CFStringGetTypeID() -> CFTypeID { TypeIDs.string }
/// `CFNumberGetTypeID`.
public func CFNumberGetTypeID() -> CFTypeID { TypeIDs.number }
/// `CFBooleanGetTypeID`.
public func CFBooleanGetTypeID() -> CFTypeID { TypeIDs.boolean }
/// `CFDateGetTypeID`.
public func CFDateGetTypeID() -> CFTypeID { TypeIDs.date }
/// `CFErrorGetTypeID`.
@available(macOS 10.5, *)
public func CFErrorGetTypeID() -> CFTypeID { TypeIDs.error }
#endif
