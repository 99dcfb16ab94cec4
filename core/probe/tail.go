package probe

import "github.com/mcptest/mcptest/internal/proc"

// Tail keeps the last Max bytes written to it, so a chatty server's output
// can be shown without holding all of it; it is internal/proc's bounded
// tail, the one copy of that mechanism.
type Tail = proc.Tail

// DefaultTailBytes is the capture bound used when none is set.
const DefaultTailBytes = proc.DefaultTailBytes
