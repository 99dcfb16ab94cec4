package pluginrpc

import (
	"fmt"
	"math/bits"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"
)

// The gRPC codec of both sides: protobuf, exactly as gRPC's own "proto"
// codec writes and reads it (so a host or plugin built with an older SDK
// sees the same bytes), with message buffers from msgPool.
//
// Why: gRPC's codec takes its buffers from its default pool, whose tiers
// jump from 32 KiB to 1 MiB and which zeroes a whole buffer on every Get.
// A batch of a thousand match items is a few hundred kilobytes, so each of
// the four messages of a Match call (request and response, marshalled on
// one side, gathered on the other) cleared a megabyte: a tenth of the
// plugin side's time per item. msgPool's tiers are powers of two, and it
// does not zero: both users write every byte they are given (Marshal the
// whole message into it, MaterializeToBuffer a copy of the received one).

// codecName is the name gRPC knows protobuf by; the content type stays
// application/grpc+proto.
const codecName = "proto"

// poolCodec is the codec; it is stateless.
type poolCodec struct{}

var _ encoding.CodecV2 = poolCodec{}

// pooledMin is the smallest message marshalled into a pooled buffer:
// below it a plain allocation is cheaper than the pool.
const pooledMin = 1 << 10

// Marshal encodes v into a buffer from msgPool (a small message into a
// fresh slice).
func (poolCodec) Marshal(v any) (mem.BufferSlice, error) {
	m := messageOf(v)
	if m == nil {
		return nil, fmt.Errorf("proto: cannot marshal %T, want a proto.Message", v)
	}
	size := proto.Size(m)
	if out, ok := marshalHandedOff(v, size); ok {
		return out, nil
	}
	// The size was just computed, and gRPC does not change a message it
	// is sending, so the cached sizes are safe to use.
	opts := proto.MarshalOptions{UseCachedSize: true}
	if size < pooledMin {
		b, err := opts.Marshal(m)
		if err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	buf := msgPool.Get(size)
	out, err := opts.MarshalAppend((*buf)[:0], m)
	if err != nil {
		msgPool.Put(buf)
		return nil, err
	}
	if len(out) != size || &out[0] != &(*buf)[0] {
		// The message did not fit where its size said (never expected):
		// send what was written, and keep the pool's buffer.
		msgPool.Put(buf)
		return mem.BufferSlice{mem.SliceBuffer(out)}, nil
	}
	return mem.BufferSlice{mem.NewBuffer(buf, msgPool)}, nil
}

// Unmarshal decodes data into v. protobuf copies every bytes and string
// field out of the buffer, so it goes back to the pool at once.
func (poolCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m := messageOf(v)
	if m == nil {
		return fmt.Errorf("proto: cannot unmarshal into %T, want a proto.Message", v)
	}
	if unmarshalPacked(data, m) {
		return nil
	}
	buf := data.MaterializeToBuffer(msgPool)
	defer buf.Free()
	return proto.Unmarshal(buf.ReadOnlyData(), m)
}

// Name is the codec's content subtype.
func (poolCodec) Name() string { return codecName }

// messageOf returns v as a protobuf message (go-plugin's own services may
// use the older API), or nil.
func messageOf(v any) proto.Message {
	switch v := v.(type) {
	case protoadapt.MessageV2:
		return v
	case protoadapt.MessageV1:
		return protoadapt.MessageV2Of(v)
	}
	return nil
}

// serverCodec is the server option that makes a server use poolCodec.
func serverCodec() grpc.ServerOption { return grpc.ForceServerCodecV2(poolCodec{}) }

// ClientCodec is the call option that makes a client use the SDK's codec;
// the host's dial options (hostrpc.GRPCDialOptions) include it.
func ClientCodec() grpc.CallOption { return grpc.ForceCodecV2(poolCodec{}) }

// Buffer sizes msgPool keeps: powers of two from 2^poolMinShift to
// 2^poolMaxShift bytes. A larger message gets a buffer of its own, which
// the collector takes back once it is used: keeping a buffer of tens of
// megabytes alive for the next huge response would count against the
// memory budgets.
const (
	poolMinShift = 10
	poolMaxShift = 24
)

// keptMaxShift is the largest tier whose buffers are also kept across
// garbage collections, keptPerTier how many of each: a batch's messages
// fall in these tiers, and a few of each cover the calls in flight. What
// stays alive for good is under 8 MiB.
const (
	keptMaxShift = 20
	keptPerTier  = 4
)

// bufferPool is a gRPC buffer pool in power-of-two tiers that hands out
// buffers without zeroing them (see the codec's comment for why that is
// safe for its users). Only the codec uses it. Each tier up to
// keptMaxShift keeps a few buffers in a KeepList, which collections do not
// empty, before its sync.Pool.
type bufferPool struct {
	kept  [keptMaxShift - poolMinShift + 1]*KeepList[*[]byte]
	tiers [poolMaxShift - poolMinShift + 1]sync.Pool
}

var msgPool = newBufferPool()

func newBufferPool() *bufferPool {
	p := &bufferPool{}
	for i := range p.kept {
		p.kept[i] = NewKeepList[*[]byte](keptPerTier)
	}
	return p
}

var _ mem.BufferPool = (*bufferPool)(nil)

// tier returns the shift of the smallest tier holding size bytes, or -1
// when size is beyond the largest.
func tier(size int) int {
	shift := max(bits.Len(uint(size-1)), poolMinShift)
	if size <= 0 {
		shift = poolMinShift
	}
	if shift > poolMaxShift {
		return -1
	}
	return shift
}

// Get returns a buffer of length size; its contents are whatever the
// previous user left.
func (p *bufferPool) Get(size int) *[]byte {
	shift := tier(size)
	if shift < 0 {
		b := make([]byte, size)
		return &b
	}
	if shift <= keptMaxShift {
		if v, ok := p.kept[shift-poolMinShift].Get(); ok {
			*v = (*v)[:size]
			return v
		}
	}
	if v, ok := p.tiers[shift-poolMinShift].Get().(*[]byte); ok {
		*v = (*v)[:size]
		return v
	}
	b := make([]byte, size, 1<<shift)
	return &b
}

// Put keeps a buffer for reuse if it is one of the pool's sizes; any other
// buffer is left to the collector.
func (p *bufferPool) Put(b *[]byte) {
	c := cap(*b)
	if c < 1<<poolMinShift || c > 1<<poolMaxShift || c&(c-1) != 0 {
		return
	}
	*b = (*b)[:0]
	shift := bits.Len(uint(c)) - 1
	if shift <= keptMaxShift && p.kept[shift-poolMinShift].Put(b) {
		return
	}
	p.tiers[shift-poolMinShift].Put(b)
}
