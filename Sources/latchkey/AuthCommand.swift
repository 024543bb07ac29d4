import Foundation

enum AuthCommand {
    static func run(_ arguments: [String]) -> Int32 {
        FileHandle.standardError.write(Data("latchkey: this command is not built yet\n".utf8))
        return 69
    }
}
