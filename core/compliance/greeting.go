package compliance

import (
	"sync"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// A run's discovery starts a server and initializes it asking for the
// run's revision; L01, L02 and L03 each ask a fresh server for the same
// thing again. Over stdio every such ask is a process start (0.4 CPU
// seconds for a Node.js server), and the request and the server's state
// (never spoken to) are the same each time, so the answer is too: those
// checks judge the answer discovery got, with its frames as their
// evidence, instead of starting a server of their own for it.

// greeting is the first exchange with a fresh server.
type greeting struct {
	reply *Reply
	// frames are the exchange as discovery recorded it.
	frames []rpt.Frame
}

// greetings holds a run's greetings by the revision asked for.
type greetings struct {
	mu    sync.Mutex
	byRev map[string]*greeting
}

func (g *greetings) put(rev string, gr *greeting) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byRev == nil {
		g.byRev = map[string]*greeting{}
	}
	g.byRev[rev] = gr
}

// recall returns the answer a fresh server gave when asked for rev,
// replaying its frames into e's evidence, or nil when there is none.
func (g *greetings) recall(e *Env, rev string) *Reply {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	gr := g.byRev[rev]
	g.mu.Unlock()
	if gr == nil {
		return nil
	}
	for _, f := range gr.frames {
		e.rec.add(f.Direction, f.Data)
	}
	return gr.reply
}
