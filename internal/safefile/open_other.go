//go:build !unix

package safefile

import "os"

// openNonBlocking opens path read-only; systems without O_NONBLOCK have no
// FIFOs that an open could block on in the same way, and the stat before
// and the fstat after still refuse anything irregular.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
