package pluginrpc

import (
	"encoding/json"

	"github.com/mcptest/mcptest/sdk/contract"
)

// ItemSource gives the items of a Match batch by position, so a host that
// keeps its requests in a type of its own can have them encoded where they
// are, instead of copying each into a MatchItem first (a few hundred bytes
// an item, then cleared again after the call).
type ItemSource interface {
	// Len is the number of items.
	Len() int
	// Item returns item i's matcher key, actual value, argument and
	// options. The encoder reads them during the call and keeps nothing.
	Item(i int) (key string, actual, argument json.RawMessage, options *contract.MatchOptions)
}

// MatchItems is a slice of MatchItem as an ItemSource.
type MatchItems []MatchItem

// Len is the number of items.
func (m MatchItems) Len() int { return len(m) }

// Item returns item i's fields.
func (m MatchItems) Item(i int) (string, json.RawMessage, json.RawMessage, *contract.MatchOptions) {
	it := &m[i]
	return it.Key, it.Actual, it.Argument, &it.Options
}

// EncodePackedSource is EncodePackedItems for items given by src.
func EncodePackedSource(src ItemSource) (packed []byte, release func()) {
	bufs := getPackedBuffers()
	return encodePackedItemsInto(bufs, src), bufs.release
}
