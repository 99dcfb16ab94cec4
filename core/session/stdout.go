package session

import (
	"bytes"
	"errors"

	"github.com/mcptest/mcptest/internal/lines"
)

// readStdout routes every line the server writes (see Session.route), and
// records non-JSON lines in the noise log. It returns when stdout ends or is
// closed.
func (p *stdioTransport) readStdout(lr *lines.Reader) {
	s := p.s
	defer close(p.stdoutDone)
	defer s.toClient.Close() // mcp-go sees EOF and fails its own requests
	for {
		line, err := lr.Next()
		if errors.Is(err, lines.ErrTooLong) {
			s.routeTooLong(lr.Head, lr.Size)
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			// Next drops a buffer this large instead of reusing it.
			s.route(line, source{owned: cap(line) > lines.KeepBufferMax})
		}
		if err != nil {
			return
		}
	}
}
