#if os(Linux)
// The C constants of LAPublicDefines.h, as Swift imports them (`Int32`). Same values as `LAPolicy` and `LAError.Code`.

/// `kLAPolicyDeviceOwnerAuthenticationWithBiometrics` (1).
public let kLAPolicyDeviceOwnerAuthenticationWithBiometrics: Int32 = 1
/// `kLAPolicyDeviceOwnerAuthentication` (2).
public let kLAPolicyDeviceOwnerAuthentication: Int32 = 2
/// `kLAPolicyDeviceOwnerAuthenticationWithWatch` (3).
public let kLAPolicyDeviceOwnerAuthenticationWithWatch: Int32 = 3
/// `kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrWatch` (4).
public let kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrWatch: Int32 = 4

/// `kLAErrorAuthenticationFailed` (-1).
public let kLAErrorAuthenticationFailed: Int32 = -1
/// `kLAErrorUserCancel` (-2).
public let kLAErrorUserCancel: Int32 = -2
/// `kLAErrorUserFallback` (-3).
public let kLAErrorUserFallback: Int32 = -3
/// `kLAErrorSystemCancel` (-4).
public let kLAErrorSystemCancel: Int32 = -4
/// `kLAErrorPasscodeNotSet` (-5).
public let kLAErrorPasscodeNotSet: Int32 = -5
/// `kLAErrorTouchIDNotAvailable` (-6).
public let kLAErrorTouchIDNotAvailable: Int32 = -6
/// `kLAErrorTouchIDNotEnrolled` (-7).
public let kLAErrorTouchIDNotEnrolled: Int32 = -7
/// `kLAErrorTouchIDLockout` (-8).
public let kLAErrorTouchIDLockout: Int32 = -8
/// `kLAErrorAppCancel` (-9).
public let kLAErrorAppCancel: Int32 = -9
/// `kLAErrorInvalidContext` (-10).
public let kLAErrorInvalidContext: Int32 = -10
/// `kLAErrorNotInteractive` (-1004).
public let kLAErrorNotInteractive: Int32 = -1004
/// `kLAErrorBiometryNotAvailable` (-6).
public let kLAErrorBiometryNotAvailable: Int32 = kLAErrorTouchIDNotAvailable
/// `kLAErrorBiometryNotEnrolled` (-7).
public let kLAErrorBiometryNotEnrolled: Int32 = kLAErrorTouchIDNotEnrolled
/// `kLAErrorBiometryLockout` (-8).
public let kLAErrorBiometryLockout: Int32 = kLAErrorTouchIDLockout
#endif
