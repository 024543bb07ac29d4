#if canImport(SwiftUI)
import Latchkey
import SwiftUI

extension View {
    /// Tells Password AutoFill what the field holds (`AutoFillContentType`, from a form model): SwiftUI's
    /// `.textContentType` with UIKit's or AppKit's constant; watchOS fills no passwords, so nothing there.
    func autoFill(_ type: AutoFillContentType) -> some View {
        #if canImport(UIKit) && !os(watchOS)
        let content: UITextContentType = switch type {
        case .username: .username
        case .password: .password
        case .newPassword: .newPassword
        }
        return textContentType(content)
        #elseif os(macOS)
        let content: NSTextContentType = switch type {
        case .username: .username
        case .password: .password
        case .newPassword: .newPassword
        }
        return textContentType(content)
        #else
        return self
        #endif
    }
}
#endif
