package session

import (
	"encoding/json"
	"time"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// sink is the session as its wire sees it (wire.Sink): the router, the
// calls in flight and the session's death. It is a separate type so that
// these methods stay off Session's API.
type sink struct{ s *Session }

// ownerOf returns the session call behind a wire's Call, or nil.
func ownerOf(c wire.Call) *call {
	owner, _ := c.(*call)
	return owner
}

// Route implements wire.Sink.
func (k sink) Route(msg []byte, src wire.Source) {
	k.s.route(msg, source{owner: ownerOf(src.Owner), event: src.Event, id: src.ID, owned: src.Owned})
}

// RouteTooLong implements wire.Sink.
func (k sink) RouteTooLong(head []byte, size int) { k.s.routeTooLong(head, size) }

// InputEnded implements wire.Sink: mcp-go's reader gets EOF.
func (k sink) InputEnded() { _ = k.s.toClient.Close() }

// Die implements wire.Sink.
func (k sink) Die(err error) { k.s.die(err) }

// DeathError implements wire.Sink.
func (k sink) DeathError() error { return k.s.deathError() }

// AwaitDeath implements wire.Sink.
func (k sink) AwaitDeath(d time.Duration) error { return k.s.awaitDeath(d) }

// FailInit implements wire.Sink.
func (k sink) FailInit(err error) { k.s.failInit(err) }

// Pending implements wire.Sink.
func (k sink) Pending(c wire.Call) bool { return k.s.isPending(c.ID()) }

// Fail implements wire.Sink.
func (k sink) Fail(c wire.Call, err error) {
	if owner := ownerOf(c); owner != nil {
		k.s.answer(owner, reply{err: err, at: time.Now()})
	}
}

// AnswerError implements wire.Sink: the error answers c unless c has been
// settled, when it is only recorded on c.
func (k sink) AnswerError(c wire.Call, msg []byte, rpcErr json.RawMessage) {
	owner := ownerOf(c)
	if owner == nil {
		return
	}
	at := time.Now()
	if !k.s.answer(owner, reply{frame: k.s.frame(Received, at, msg, "", ""), rpcErr: rpcErr, at: at}) {
		owner.addFrame(k.s.frame(Received, at, msg, "", ""))
	}
}

// Record implements wire.Sink.
func (k sink) Record(c wire.Call, data []byte, event, id string) {
	if owner := ownerOf(c); owner != nil {
		owner.addFrame(k.s.frame(Received, time.Now(), data, event, id))
	}
}

// Noise implements wire.Sink.
func (k sink) Noise() string { return k.s.noise.String() }
