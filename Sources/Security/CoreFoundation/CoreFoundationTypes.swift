#if os(Linux)
import Foundation

// Core Foundation names that keychain code uses, as the Foundation classes they bridge to on Apple
// platforms. They must be classes: `kSecAttrAccessible…` is passed where a `CFTypeRef` is expected,
// and `query as CFDictionary` must bridge a `[String: Any]` literal.

/// `CFTypeRef`: any object.
public typealias CFTypeRef = AnyObject
/// `CFString`, as `NSString` (`kSecClass as String` bridges).
public typealias CFString = NSString
/// `CFDictionary`, as `NSDictionary` (`query as CFDictionary` bridges a `[String: Any]`).
public typealias CFDictionary = NSDictionary
/// `CFMutableDictionary`, as `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// `CFArray`, as `NSArray`.
public typealias CFArray = NSArray
/// `CFData`, as `NSData` (`result as? Data` bridges).
public typealias CFData = NSData
/// `CFMutableData`, as `NSMutableData`.
public typealias CFMutableData = NSMutableData
/// `CFNumber`, as `NSNumber`.
public typealias CFNumber = NSNumber
/// `CFBoolean`, as `NSNumber`.
public typealias CFBoolean = NSNumber
/// `CFDate`, as `NSDate`.
public typealias CFDate = NSDate
/// `CFError`, as `NSError` (`takeRetainedValue() as Error` works).
public typealias CFError = NSError
/// `CFIndex`.
public typealias CFIndex = Int
/// `CFTypeID`.
public typealias CFTypeID = UInt
/// `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// `CFErrorDomain`.
public typealias CFErrorDomain = CFString
/// `OSStatus`: Apple's 32-bit result code.
public typealias OSStatus = Int32

/// `CFAllocator`: accepted and ignored (memory is managed by Swift).
public final class CFAllocator {
    init() {}
}

/// `kCFAllocatorDefault` (implicitly unwrapped, as on Apple platforms). nonisolated(unsafe): the allocator holds no
/// state; `CFAllocator` is not Sendable only because Apple's is not.
nonisolated(unsafe) public let kCFAllocatorDefault: CFAllocator! = CFAllocator()
/// `kCFAllocatorSystemDefault` (implicitly unwrapped, as on Apple platforms), as `kCFAllocatorDefault`.
nonisolated(unsafe) public let kCFAllocatorSystemDefault: CFAllocator! = kCFAllocatorDefault

/// `kCFBooleanTrue` (implicitly unwrapped, as on Apple platforms, so `kCFBooleanTrue!` compiles).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// `kCFBooleanFalse`.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// `kCFBundleIdentifierKey` ("CFBundleIdentifier"): keychain code reads its default service with
/// `Bundle.main.infoDictionary?[kCFBundleIdentifierKey as String]` — on Linux from an `Info.plist` beside the
/// executable (COMPATIBILITY difference 2). An immutable `NSString`, so `nonisolated(unsafe)` is sound.
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString! = "CFBundleIdentifier" as NSString

/// `CFErrorCopyDescription`: the error's localized description.
@available(macOS 10.5, *)
@discardableResult
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! {
    guard let err else { return nil }
    return err.localizedDescription as NSString
}

/// `CFErrorGetCode`.
@available(macOS 10.5, *)
@discardableResult
public func CFErrorGetCode(_ err: CFError!) -> CFIndex {
    err?.code ?? 0
}

/// `CFErrorGetDomain`.
@available(macOS 10.5, *)
@discardableResult
public func CFErrorGetDomain(_ err: CFError!) -> CFErrorDomain! {
    guard let err else { return nil }
    return err.domain as NSString
}

/// `CFErrorCopyUserInfo`: the error's user-info dictionary (empty, never nil, for a non-nil error).
@available(macOS 10.5, *)
@discardableResult
public func CFErrorCopyUserInfo(_ err: CFError!) -> CFDictionary! {
    guard let err else { return nil }
    return NSDictionary(dictionary: err.userInfo)
}

/// `CFErrorCopyFailureReason`: `NSLocalizedFailureReasonErrorKey` of the error, if any.
@available(macOS 10.5, *)
@discardableResult
public func CFErrorCopyFailureReason(_ err: CFError!) -> CFString! {
    guard let reason = err?.localizedFailureReason else { return nil }
    return reason as NSString
}

/// `CFErrorCopyRecoverySuggestion`: `NSLocalizedRecoverySuggestionErrorKey` of the error, if any.
@available(macOS 10.5, *)
@discardableResult
public func CFErrorCopyRecoverySuggestion(_ err: CFError!) -> CFString! {
    guard let suggestion = err?.localizedRecoverySuggestion else { return nil }
    return suggestion as NSString
}

/// `CFRelease` / `CFRetain` are no-ops under Swift's memory management.
public func CFRelease(_ cf: CFTypeRef?) {}

/// `CFRetain`: returns its argument (no-op under Swift's memory management).
@discardableResult
public func CFRetain(_ cf: CFTypeRef?) -> CFTypeRef? { cf }
#endif
