package pluginrpc

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// TestHandedOffResultsMarshalAsProtobuf: a response whose packed results
// were handed over is sent from their own buffer, and the bytes are still
// protobuf's; the buffer is taken once (a second marshal copies), and a
// response with anything else in it is marshalled the ordinary way.
func TestHandedOffResultsMarshalAsProtobuf(t *testing.T) {
	var c poolCodec
	results := make([]MatchItemResult, 2000)
	for i := range results {
		results[i] = MatchItemResult{Pass: i%4 != 3}
		if i%4 == 3 {
			results[i].Failure = []byte(`{"expected":"a","actual":"b","diff":"-a\n+b"}`)
		}
	}
	packed := encodePackedResultsPooled(results)
	if !bytes.Equal(packed, encodePackedResults(results)) {
		t.Fatal("the pooled encoding differs from the plain one")
	}
	msg := &pluginv1.MatchResponse{PackedResults: packed}
	want, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 2 || &data[1].ReadOnlyData()[0] != &packed[0] {
		t.Fatalf("the handed-over results were copied (%d buffers)", len(data))
	}
	if got := data.Materialize(); !bytes.Equal(got, want) {
		t.Fatalf("the codec wrote %d bytes that differ from protobuf's %d", len(got), len(want))
	}
	if _, ok := takeHandoff(packed); ok {
		t.Fatal("the buffer is still handed over after the codec took it")
	}
	data.Free()

	// Not handed over: copied, the same bytes.
	own := bytes.Clone(packed)
	for _, m := range []*pluginv1.MatchResponse{
		{PackedResults: own},
		{PackedResults: packed2(t), Results: []*pluginv1.MatchResult{{Id: 7, Pass: true}}},
	} {
		want, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		data, err := c.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := data.Materialize(); !bytes.Equal(got, want) {
			t.Fatalf("the codec wrote %d bytes that differ from protobuf's %d", len(got), len(want))
		}
		if len(data) == 2 {
			t.Fatal("a buffer that was not handed over (or a message with more in it) was sent in place")
		}
		data.Free()
	}
}

// packed2 hands over a fresh results buffer and returns it.
func packed2(t *testing.T) []byte {
	t.Helper()
	results := make([]MatchItemResult, 500)
	return encodePackedResultsPooled(results)
}

// TestHandoffSlotsAreBounded: buffers handed over and never marshalled
// (their call failed) do not pile up: the oldest is forgotten.
func TestHandoffSlotsAreBounded(t *testing.T) {
	var first []byte
	for i := range 3 * handoffSlots {
		b := encodePackedResultsPooled(make([]MatchItemResult, 1000))
		if i == 0 {
			first = b
		}
	}
	if n := handoffs.len(); n > handoffSlots {
		t.Fatalf("%d buffers wait for the codec, more than %d", handoffs.len(), handoffSlots)
	}
	if _, ok := takeHandoff(first); ok {
		t.Fatal("the oldest buffer was not forgotten")
	}
}

// TestHandedOffItemsMarshalAsProtobuf: the host's packed request is sent
// from the encoder's buffer with protobuf's bytes, and a request never
// marshalled (its call failed first) gives its buffer back at release.
func TestHandedOffItemsMarshalAsProtobuf(t *testing.T) {
	var c poolCodec
	items := make([]MatchItem, 1000)
	for i := range items {
		items[i] = MatchItem{Key: "exact", Actual: []byte(`"some tool text"`), Argument: []byte(`"some tool text"`)}
	}
	packed, release := EncodePackedItems(items)
	if !bytes.Equal(packed, encodePackedItems(items)) {
		t.Fatal("the pooled encoding differs from the plain one")
	}
	msg := &pluginv1.MatchRequest{PackedItems: packed}
	want, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 2 || &data[1].ReadOnlyData()[0] != &packed[0] {
		t.Fatalf("the handed-over items were copied (%d buffers)", len(data))
	}
	if got := data.Materialize(); !bytes.Equal(got, want) {
		t.Fatal("the codec's bytes differ from protobuf's")
	}
	release() // after the codec took the buffer: leaves it to gRPC
	data.Free()

	packed, release = EncodePackedItems(items)
	release() // never marshalled: taken back
	if _, ok := takeHandoff(packed); ok {
		t.Fatal("release left the unsent buffer handed over")
	}
}

// TestHandoffReleaseTakesOnlyItsOwnBuffer: once gRPC has written a
// request it returns the buffer to the pool, where the next batch may get
// the same memory and hand it over again before the first call's release
// runs. That release must leave the new batch's buffer alone, or the pool
// gives it out twice and a request goes out with another one's bytes.
func TestHandoffReleaseTakesOnlyItsOwnBuffer(t *testing.T) {
	var c poolCodec
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			items := make([]MatchItem, 400)
			for i := range items {
				v := []byte(fmt.Sprintf(`"goroutine %d item %d"`, g, i))
				items[i] = MatchItem{Key: "exact", Actual: v, Argument: v}
			}
			want, err := proto.Marshal(&pluginv1.MatchRequest{PackedItems: encodePackedItems(items)})
			if err != nil {
				errs <- err.Error()
				return
			}
			var prev func()
			for range 300 {
				packed, release := EncodePackedItems(items)
				data, err := c.Marshal(&pluginv1.MatchRequest{PackedItems: packed})
				if err != nil {
					errs <- err.Error()
					return
				}
				// The previous call returns only now, while this one's
				// buffer (maybe the same memory) is in flight.
				if prev != nil {
					prev()
				}
				runtime.Gosched()
				if !bytes.Equal(data.Materialize(), want) {
					errs <- fmt.Sprintf("goroutine %d sent another batch's bytes", g)
					data.Free()
					release()
					return
				}
				data.Free() // gRPC has written it
				prev = release
			}
			prev()
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
