package pluginrpc

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// TestPoolCodecWritesProtobuf: the codec's bytes are protobuf's, so a peer
// on gRPC's own codec (a host or plugin built with an older SDK) reads
// them; and a pooled buffer reused for a smaller message carries nothing
// of the earlier one, although the pool does not zero it.
func TestPoolCodecWritesProtobuf(t *testing.T) {
	var c poolCodec
	for _, size := range []int{0, 10, pooledMin, 5000, 300_000, 300_000 - 7, 2 << 20, 20 << 20} {
		packed := bytes.Repeat([]byte{byte(size%251 + 1)}, size)
		msg := &pluginv1.MatchRequest{PackedItems: packed}
		want, err := proto.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		data, err := c.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		if got := data.Materialize(); !bytes.Equal(got, want) {
			t.Fatalf("size %d: the codec wrote %d bytes that differ from protobuf's %d", size, len(got), len(want))
		}
		var back pluginv1.MatchRequest
		if err := c.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		data.Free()
		if !proto.Equal(&back, msg) {
			t.Fatalf("size %d: the message did not round-trip", size)
		}
		// What gRPC hands Unmarshal: a received message in pooled buffers.
		var fromWire pluginv1.MatchRequest
		if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(want)}, &fromWire); err != nil || !proto.Equal(&fromWire, msg) {
			t.Fatalf("size %d: protobuf's bytes did not decode (%v)", size, err)
		}
	}
	if _, err := c.Marshal("not a message"); err == nil {
		t.Error("marshalled a string")
	}
}

// TestBufferPoolTiers: Get returns the length asked for, in a buffer of a
// pool size; Put keeps only the pool's own sizes.
func TestBufferPoolTiers(t *testing.T) {
	p := newBufferPool()
	for _, size := range []int{0, 1, 1 << poolMinShift, 1<<poolMinShift + 1, 300_000, 1 << poolMaxShift} {
		b := p.Get(size)
		if len(*b) != size {
			t.Fatalf("Get(%d) has length %d", size, len(*b))
		}
		if c := cap(*b); c&(c-1) != 0 || c < 1<<poolMinShift {
			t.Fatalf("Get(%d) has capacity %d, not a tier", size, c)
		}
		p.Put(b)
	}
	huge := p.Get(1<<poolMaxShift + 1)
	if len(*huge) != 1<<poolMaxShift+1 {
		t.Fatalf("a buffer beyond the tiers has length %d", len(*huge))
	}
	p.Put(huge) // dropped, not kept
	odd := make([]byte, 3000)
	p.Put(&odd) // not a tier size: dropped
	if b := p.Get(3000); cap(*b) != 4096 {
		t.Fatalf("Get(3000) has capacity %d, want the 4 KiB tier", cap(*b))
	}
}
