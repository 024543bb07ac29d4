#if canImport(SwiftUI)
import Latchkey
import SwiftUI

/// The "Delete Account" screen: the warning, what deleting does, the re-authentication note, the progress, the result
/// and the error line, and the destructive and cancel buttons, laid out from `DeleteAccountScreenModel`, which decides
/// all of them.
public struct DeleteAccountScreen: View {
    private let model: DeleteAccountScreenModel
    private let onCancel: () -> Void

    /// A screen over `model`; `onCancel` closes it.
    public init(model: DeleteAccountScreenModel, onCancel: @escaping () -> Void) {
        self.model = model
        self.onCancel = onCancel
    }

    public var body: some View {
        Form {
            Section {
                Text(model.message)
                ForEach(model.consequences, id: \.self) { line in
                    Label(line, systemImage: "exclamationmark.circle")
                }
            } footer: {
                Text(model.reauthenticationNotice)
            }
            Section {
                Button(model.deleteTitle, role: .destructive) {
                    Task { await model.delete() }
                }
                .disabled(!model.isDeleteEnabled)
                Button(model.cancelTitle, role: .cancel, action: onCancel)
                    .disabled(!model.isCancelEnabled)
            } footer: {
                if let progress = model.progressMessage {
                    HStack {
                        ProgressView()
                        Text(progress)
                    }
                }
                if let result = model.resultMessage {
                    Text(result)
                }
                if let error = model.errorMessage {
                    Text(error).foregroundStyle(.red)
                }
            }
        }
        .navigationTitle(model.title)
    }
}
#endif
