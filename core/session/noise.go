package session

import (
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// noiseLimit bounds how many bytes of one logged line are kept, and
// noiseLines how many lines a log keeps.
const (
	noiseLimit = 512
	noiseLines = 5
)

// noiseLog keeps the last few messages of one kind the server sent that no
// call could use: non-JSON lines on stdout (Session.noise), or responses
// whose id matches no request (Session.strays). Each is kept with the time
// it arrived, so a call that times out can show what came while it waited.
type noiseLog struct {
	mu    sync.Mutex
	lines []noiseLine
}

// noiseLine is one logged message.
type noiseLine struct {
	at   time.Time
	text string
}

// add records line, cut to noiseLimit bytes.
func (l *noiseLog) add(line []byte) {
	line = wire.TrimNewline(line)
	s := string(line)
	if len(line) > noiseLimit {
		s = strings.ToValidUTF8(string(line[:noiseLimit]), "") + "…"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == noiseLines {
		l.lines = append(l.lines[:0], l.lines[1:]...)
	}
	l.lines = append(l.lines, noiseLine{at: time.Now(), text: s})
}

// String returns the kept lines, newline-separated.
func (l *noiseLog) String() string {
	return l.since(time.Time{})
}

// since returns the kept lines that arrived at or after t, newline-separated.
func (l *noiseLog) since(t time.Time) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if !line.at.Before(t) {
			out = append(out, line.text)
		}
	}
	return strings.Join(out, "\n")
}
