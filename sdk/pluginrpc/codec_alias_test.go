package pluginrpc

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// TestCodecPackedAliasAgrees: the codec decodes packed Match messages
// without protobuf's copy, to the same message proto.Unmarshal gives, and
// leaves every other shape (items, a repeated field, small or empty
// messages, garbage) to protobuf, which decides as before.
func TestCodecPackedAliasAgrees(t *testing.T) {
	big := bytes.Repeat([]byte("packed!"), 1000)
	wire := func(m proto.Message) []byte {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first, _ := proto.Marshal(&pluginv1.MatchRequest{PackedItems: big})
	second, _ := proto.Marshal(&pluginv1.MatchRequest{PackedItems: []byte("last wins")})
	cases := []struct {
		name  string
		b     []byte
		msg   func() proto.Message
		alias bool
	}{
		{"request", wire(&pluginv1.MatchRequest{PackedItems: big}), func() proto.Message { return new(pluginv1.MatchRequest) }, true},
		{"response", wire(&pluginv1.MatchResponse{PackedResults: big}), func() proto.Message { return new(pluginv1.MatchResponse) }, true},
		{"repeated field", append(first, second...), func() proto.Message { return new(pluginv1.MatchRequest) }, true},
		{"items", wire(&pluginv1.MatchRequest{Items: []*pluginv1.MatchItem{{Key: "exact", ActualJson: big}}}), func() proto.Message { return new(pluginv1.MatchRequest) }, false},
		{"small", wire(&pluginv1.MatchRequest{PackedItems: []byte("x")}), func() proto.Message { return new(pluginv1.MatchRequest) }, false},
		{"truncated", wire(&pluginv1.MatchRequest{PackedItems: big})[:2000], func() proto.Message { return new(pluginv1.MatchRequest) }, false},
		{"other message", wire(&pluginv1.CheckRequest{}), func() proto.Message { return new(pluginv1.CheckRequest) }, false},
	}
	for _, tc := range cases {
		got, want := tc.msg(), tc.msg()
		errGot := poolCodec{}.Unmarshal(mem.BufferSlice{mem.SliceBuffer(tc.b)}, got)
		errWant := proto.Unmarshal(tc.b, want)
		if (errGot == nil) != (errWant == nil) || (errWant == nil && !proto.Equal(got, want)) {
			t.Errorf("%s: codec gave %v (%v), protobuf %v (%v)", tc.name, got, errGot, want, errWant)
		}
		if aliased := unmarshalPacked(mem.BufferSlice{mem.SliceBuffer(tc.b)}, tc.msg()); aliased != tc.alias {
			t.Errorf("%s: aliased = %v, want %v", tc.name, aliased, tc.alias)
		}
	}
}
