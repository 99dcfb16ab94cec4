package pluginrpc

import (
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// A packed Match request or response is one bytes field of a few hundred
// kilobytes. proto.Unmarshal copies it out of the received buffer, which
// the codec had already copied out of gRPC's frames: two copies of the
// whole batch into fresh memory per message. For these two messages the
// codec gathers the frames once into memory of its own and lets the field
// refer to it; the collector frees it once the batch is done with.

// unmarshalPacked decodes a MatchRequest or MatchResponse that holds only
// its packed field, aliasing the bytes; ok is false for any other message
// or content (the caller then decodes it the general way).
func unmarshalPacked(data mem.BufferSlice, v any) (ok bool) {
	var field protowire.Number
	var dst *[]byte
	switch m := v.(type) {
	case *pluginv1.MatchRequest:
		field, dst = 3, &m.PackedItems
	case *pluginv1.MatchResponse:
		field, dst = 2, &m.PackedResults
	default:
		return false
	}
	if data.Len() < pooledMin {
		return false
	}
	// A request is read by the plugin's matchers during the call only
	// (contract.MatchInput), so it is gathered into a pooled buffer that
	// matchPacked frees once the results are encoded. A response's
	// failures are kept by the host in its report: fresh memory.
	var b []byte
	var pooled mem.Buffer
	if field == 3 {
		pooled = data.MaterializeToBuffer(msgPool)
		b = pooled.ReadOnlyData()
	} else {
		b = data.Materialize()
	}
	packed, ok := packedField(b, field)
	if !ok {
		if pooled != nil {
			pooled.Free()
		}
		return false
	}
	if pooled != nil {
		received.put(packed, pooled)
	}
	// What proto.Unmarshal does first: nothing of an earlier use remains.
	proto.Reset(v.(proto.Message))
	*dst = packed
	return true
}

// packedField returns the packed field of a message holding only that
// field (possibly repeated: the last one wins, as in protobuf).
func packedField(b []byte, field protowire.Number) ([]byte, bool) {
	var packed []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != field || typ != protowire.BytesType {
			return nil, false
		}
		b = b[n:]
		val, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, false
		}
		packed, b = val[:len(val):len(val)], b[n:]
	}
	return packed, packed != nil
}

// received are the pooled buffers of packed requests being served; the
// packed field of each request is a slice of its buffer.
var received slotList[mem.Buffer]

// releaseReceived frees the pooled buffer packed was received in, once
// nothing refers to it any more; bytes not received that way are left
// alone.
func releaseReceived(packed []byte) {
	if buf, ok := received.take(packed, 0); ok {
		buf.Free()
	}
}
