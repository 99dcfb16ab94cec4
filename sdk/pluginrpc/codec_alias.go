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
	b := data.Materialize()
	var packed []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != field || typ != protowire.BytesType {
			return false
		}
		b = b[n:]
		val, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return false
		}
		// A repeated singular field: the last one wins, as in protobuf.
		packed, b = val[:len(val):len(val)], b[n:]
	}
	if packed == nil {
		return false
	}
	// What proto.Unmarshal does first: nothing of an earlier use remains.
	proto.Reset(v.(proto.Message))
	*dst = packed
	return true
}
