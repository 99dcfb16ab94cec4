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

// handoffSlots bounds the buffers waiting for the codec (or, received, for
// the end of their call). A buffer whose message is never marshalled (its
// call failed first) leaves its slot to be reused: the oldest slot is
// forgotten when all are taken, and its buffer then goes to the collector
// instead of back to the pool.
const handoffSlots = 16

// slot is one buffer waiting, known by the address of its first byte and
// the number put gave it.
type slot[T any] struct {
	data *byte
	id   uint64
	buf  T
}

// slotList is a small set of buffers waiting for their next owner.
type slotList[T any] struct {
	mu    sync.Mutex
	slots []slot[T]
	next  uint64
}

// put records buf under the first byte of b and returns the number that
// tells this recording from a later one of the same memory.
func (l *slotList[T]) put(b []byte, buf T) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.slots) == handoffSlots {
		copy(l.slots, l.slots[1:])
		l.slots = l.slots[:handoffSlots-1]
	}
	l.next++
	l.slots = append(l.slots, slot[T]{data: unsafe.SliceData(b), id: l.next, buf: buf})
	return l.next
}

// take returns the buffer recorded under the first byte of b, if any, and
// forgets it. id 0 takes whatever is recorded there; another id takes
// only that recording.
func (l *slotList[T]) take(b []byte, id uint64) (T, bool) {
	var zero T
	if len(b) == 0 {
		return zero, false
	}
	p := unsafe.SliceData(b)
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, s := range l.slots {
		if s.data == p && (id == 0 || s.id == id) {
			l.slots = append(l.slots[:i], l.slots[i+1:]...)
			return s.buf, true
		}
	}
	return zero, false
}

// len is how many buffers wait.
func (l *slotList[T]) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.slots)
}

// handoffs are the buffers handed over and not yet marshalled.
var handoffs slotList[*[]byte]

// handOff records that b, the written part of buf (a buffer from msgPool),
// may be sent by the codec and then returned to msgPool. The number it
// returns (0 if b was not recorded) is what takeBack needs.
func handOff(b []byte, buf *[]byte) uint64 {
	if len(b) == 0 || cap(*buf) == 0 || unsafe.SliceData(b) != unsafe.SliceData(*buf) {
		return 0
	}
	return handoffs.put(b, buf)
}

// takeHandoff returns the buffer b was written in if it was handed over,
// and forgets it: from here on the caller owns it. The codec calls it for
// the message it is marshalling, which is the latest use of that memory.
func takeHandoff(b []byte) (*[]byte, bool) { return handoffs.take(b, 0) }

// takeBack is takeHandoff for the encoder, once its call is over: only
// its own recording (id) is taken. Once the codec took the buffer, gRPC
// may already have returned it to the pool and another batch handed the
// same memory over again; that one is not this encoder's to take.
func takeBack(b []byte, id uint64) (*[]byte, bool) {
	if id == 0 {
		return nil, false
	}
	return handoffs.take(b, id)
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
