package pluginrpc

import (
	"sync"
	"unsafe"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// A packed batch is a few hundred kilobytes that its encoder wrote into a
// buffer of msgPool. Marshalling the message around it the ordinary way
// copies it once more into another pooled buffer. Instead the encoder
// hands its buffer over (handOff), and the codec, finding it in a message
// that holds nothing else, sends it as it is after a few bytes of
// protobuf header; gRPC gives the buffer back to msgPool once it has
// written it. A buffer not handed over (any other message, a caller's own
// bytes) is marshalled as before.

// handoffSlots bounds the buffers waiting for the codec. A message that is
// never marshalled (its call failed first) leaves its slot to be reused:
// the oldest slot is forgotten when all are taken, and its buffer then
// goes to the collector instead of back to the pool.
const handoffSlots = 16

// handoff is one buffer waiting for the codec.
type handoff struct {
	data *byte
	buf  *[]byte
}

// handoffs are the buffers handed over and not yet marshalled.
var handoffs struct {
	mu    sync.Mutex
	slots []handoff
}

// handOff records that b, the written part of buf (a buffer from msgPool),
// may be sent by the codec and then returned to msgPool.
func handOff(b []byte, buf *[]byte) {
	if len(b) == 0 || cap(*buf) == 0 || unsafe.SliceData(b) != unsafe.SliceData(*buf) {
		return
	}
	handoffs.mu.Lock()
	defer handoffs.mu.Unlock()
	if len(handoffs.slots) == handoffSlots {
		copy(handoffs.slots, handoffs.slots[1:])
		handoffs.slots = handoffs.slots[:handoffSlots-1]
	}
	handoffs.slots = append(handoffs.slots, handoff{data: unsafe.SliceData(b), buf: buf})
}

// takeHandoff returns the buffer b was written in if it was handed over,
// and forgets it: from here on the caller owns it.
func takeHandoff(b []byte) (*[]byte, bool) {
	if len(b) == 0 {
		return nil, false
	}
	p := unsafe.SliceData(b)
	handoffs.mu.Lock()
	defer handoffs.mu.Unlock()
	for i, h := range handoffs.slots {
		if h.data == p {
			handoffs.slots = append(handoffs.slots[:i], handoffs.slots[i+1:]...)
			return h.buf, true
		}
	}
	return nil, false
}

// marshalHandedOff marshals a MatchResponse holding only packed results
// that were handed over (or a MatchRequest holding only packed items),
// without copying them; ok is false for anything else.
func marshalHandedOff(v any, size int) (mem.BufferSlice, bool) {
	var field protowire.Number
	var packed []byte
	switch m := v.(type) {
	case *pluginv1.MatchResponse:
		field, packed = 2, m.GetPackedResults()
	case *pluginv1.MatchRequest:
		field, packed = 3, m.GetPackedItems()
	default:
		return nil, false
	}
	// The message holds nothing but the packed field when its size is
	// that field's alone (no other field, no unknown fields).
	if len(packed) == 0 || size != protowire.SizeTag(field)+protowire.SizeBytes(len(packed)) {
		return nil, false
	}
	buf, ok := takeHandoff(packed)
	if !ok {
		return nil, false
	}
	*buf = (*buf)[:len(packed)]
	header := protowire.AppendTag(make([]byte, 0, protowire.SizeTag(field)+protowire.SizeVarint(uint64(len(packed)))), field, protowire.BytesType)
	header = protowire.AppendVarint(header, uint64(len(packed)))
	return mem.BufferSlice{mem.SliceBuffer(header), mem.NewBuffer(buf, msgPool)}, true
}
