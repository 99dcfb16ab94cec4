package pluginrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
)

// decodeBoth decodes b with and without the fast readers.
func decodeBoth(b []byte) (fast, slow string) {
	show := func(items []packedItem, ctxs []packedContext, err error) string {
		return fmt.Sprintf("%#v|%#v|%v", items, ctxs, err)
	}
	fast = show(decodePackedItems(b))
	packedFast = false
	defer func() { packedFast = true }()
	slow = show(decodePackedItems(b))
	return fast, slow
}

// fastCaseBatch encodes items that exercise both readers: one-, two- and
// three-byte indexes and lengths, empty values, and contexts.
func fastCaseBatch() []byte {
	var items []MatchItem
	for i := range 20_000 {
		actual := json.RawMessage(fmt.Sprintf("%q", strings.Repeat("x", i%300)))
		if i == 7 {
			actual = json.RawMessage(`"` + strings.Repeat("y", 20_000) + `"`)
		}
		items = append(items, MatchItem{
			Key: fmt.Sprintf("k%d", i%3), Actual: actual, Argument: json.RawMessage(`"a"`),
			Options: contract.MatchOptions{TestID: fmt.Sprintf("t%d", i/2), TestName: "n", Target: "result", SuiteFile: "s.yml", UpdateSnapshots: i%5 == 0},
		})
	}
	items[3].Options.Raw = json.RawMessage(`{"x":1}`)
	return encodePackedItems(items)
}

// TestPackedFastReadersAgree: the fast readers decode exactly what the
// general reader decodes, on a batch whose later items need the general
// reader, and on every truncation and on one-byte corruptions of a small
// batch, where both must fail alike.
func TestPackedFastReadersAgree(t *testing.T) {
	big := fastCaseBatch()
	if fast, slow := decodeBoth(big); fast != slow {
		t.Fatal("the fast and general readers decode a large batch differently")
	}
	small := encodePackedItems([]MatchItem{
		{Key: "exact", Actual: json.RawMessage(`"abc"`), Argument: json.RawMessage(`"abd"`), Options: contract.MatchOptions{TestID: "a", Message: "m"}},
		{Key: "contains", Actual: json.RawMessage(`[1,2]`), Argument: json.RawMessage(`2`), Options: contract.MatchOptions{TestID: "b", Raw: json.RawMessage(`{}`)}},
	})
	for n := range len(small) {
		if fast, slow := decodeBoth(small[:n]); fast != slow {
			t.Fatalf("truncated at %d: fast %s, general %s", n, fast, slow)
		}
	}
	for i := range small {
		for _, v := range []byte{0, 1, 2, 0x7f, 0x80, 0xff} {
			b := bytes.Clone(small)
			b[i] = v
			if fast, slow := decodeBoth(b); fast != slow {
				t.Fatalf("byte %d set to %#x: fast %s, general %s", i, v, fast, slow)
			}
		}
	}
}
