package modeltape

import (
	"fmt"
	"sync"

	"github.com/mcptest/mcptest/core/cassette"
)

// Library reads the models sections of cassette files for replay, each
// file at most once per run, however many agent tests replay from it. It
// is safe for concurrent use.
type Library struct {
	scrub func([]byte) []byte

	mu    sync.Mutex
	files map[string]*libEntry
}

type libEntry struct {
	once   sync.Once
	player *Player
	err    error
}

// NewLibrary returns a library whose players mask live requests with
// scrub (the suite's redactor) before comparing them with the recording.
func NewLibrary(scrub func([]byte) []byte) *Library {
	return &Library{scrub: scrub, files: map[string]*libEntry{}}
}

// Player returns the player of the cassette at path, or nil when the
// cassette has no models section (it was recorded without agent tests, or
// before the section existed): its agent tests then reach their models
// live.
func (l *Library) Player(path string) (*Player, error) {
	l.mu.Lock()
	e := l.files[path]
	if e == nil {
		e = &libEntry{}
		l.files[path] = e
	}
	l.mu.Unlock()
	e.once.Do(func() {
		c, err := cassette.Load(path)
		if err != nil {
			e.err = err
			return
		}
		sec, err := Parse(c.Models)
		if err != nil {
			e.err = fmt.Errorf("cassette %s: %w", path, err)
			return
		}
		if sec != nil {
			e.player = NewPlayer(sec, l.scrub)
		}
	})
	return e.player, e.err
}
