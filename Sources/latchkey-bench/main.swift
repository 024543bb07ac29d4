import Foundation

print("latchkey-bench")
