package plugin

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFullVetFile writes a cache of maxVetEntries verdicts, as save
// would, and returns its path and the keys it holds: the first entry is a
// rejection, the others acceptances.
func writeFullVetFile(t *testing.T) (string, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	full := map[string]vetVerdict{}
	keys := make([]string, 0, maxVetEntries)
	for i := range maxVetEntries {
		k := vetKey("id", "matcher", "exact", fmt.Appendf(nil, "%d", i))
		v := vetVerdict{Day: today()}
		if i == 0 {
			// A message quoting another key cannot be mistaken for it.
			v.Err = fmt.Sprintf(`bad {"%s": 1}`, vetKey("id", "matcher", "exact", []byte(`"quoted"`)))
		}
		full[k] = v
		keys = append(keys, k)
	}
	raw, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, keys
}

// A lookup reads the verdict of its key from the file without decoding
// every entry: with the cache full, a few lookups stay a few allocations
// (decoding the whole file took tens of thousands).
func TestVetCacheLookupDoesNotDecodeTheWholeFile(t *testing.T) {
	path, keys := writeFullVetFile(t)
	allocs := testing.AllocsPerRun(5, func() {
		c := newVetCache(path)
		for _, k := range keys[len(keys)-3:] {
			if err, ok := c.lookup(k); !ok || err != nil {
				t.Fatalf("lookup of a remembered acceptance: %v, %v", err, ok)
			}
		}
	})
	// The file's bytes, the map of looked-up verdicts, a decoder per hit.
	if allocs > 100 {
		t.Errorf("three lookups in a full cache: %.0f allocations, want at most 100", allocs)
	}
}

// The search finds exactly what decoding the file would: acceptances,
// rejections with their message, no entry for an unknown key or for a key
// quoted inside a message, and nothing from a file cut short.
func TestVetCacheLookupFindsWhatTheFileHolds(t *testing.T) {
	path, keys := writeFullVetFile(t)
	c := newVetCache(path)
	if err, ok := c.lookup(keys[0]); !ok || err == nil || !strings.HasPrefix(err.Error(), "bad {") {
		t.Errorf("remembered rejection: %v, %v", err, ok)
	}
	if err, ok := c.lookup(keys[100]); !ok || err != nil {
		t.Errorf("remembered acceptance: %v, %v", err, ok)
	}
	for name, k := range map[string]string{
		"unknown": vetKey("id", "matcher", "exact", []byte(`"never"`)),
		"quoted":  vetKey("id", "matcher", "exact", []byte(`"quoted"`)),
	} {
		if err, ok := c.lookup(k); ok {
			t.Errorf("%s key found: %v", name, err)
		}
	}

	raw, _ := os.ReadFile(path)
	if err := os.WriteFile(path, raw[:len(raw)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := newVetCache(path).lookup(keys[0]); ok {
		t.Error("a verdict was read from a file cut short")
	}

	long := vetKey("id", "matcher", "exact", []byte(`"long"`))
	raw = fmt.Appendf(nil, `{%q:{"e":%q,"d":1}}`, long, strings.Repeat("x", maxVetMessage+1))
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := newVetCache(path).lookup(long); ok {
		t.Error("an over-long message was taken as a verdict")
	}
}

// A verdict learnt on a day when the cache is already full of verdicts
// of that day is kept (an older one of the day goes), even when its key
// sorts after all of theirs: settling ties by key alone dropped it at
// once, and the suite's plugins were started for vetting on every run.
func TestVetCacheFullOfTodayKeepsNewVerdicts(t *testing.T) {
	path, keys := writeFullVetFile(t)
	maxKey := ""
	for _, k := range keys {
		maxKey = max(maxKey, k)
	}
	fresh := ""
	for i := 0; fresh <= maxKey; i++ {
		fresh = vetKey("new", "matcher", "exact", fmt.Appendf(nil, "%d", i))
	}
	c := newVetCache(path)
	c.record(fresh, nil)
	c.save()
	got := readVetFile(path)
	if _, kept := got[fresh]; !kept || len(got) != maxVetEntries {
		t.Fatalf("%d entries, new verdict kept: %v; want %d with it", len(got), kept, maxVetEntries)
	}
	if err, ok := newVetCache(path).lookup(fresh); !ok || err != nil {
		t.Errorf("next run's lookup of the new verdict: %v, %v", err, ok)
	}
}

// A plan with many distinct arguments (a generated suite of 1,000 tests,
// each with its own exact text) searches the file for a handful of them
// only, then decodes it once: a search per key made the lookups quadratic
// in the file (a 1,000-test run took ~25% longer). Every verdict is still
// found, the rejection with its message, and an unknown key is not.
func TestVetCacheManyLookupsDecodeTheFileOnce(t *testing.T) {
	path, keys := writeFullVetFile(t)
	c := newVetCache(path)
	for i, k := range keys {
		err, ok := c.lookup(k)
		if !ok || (i == 0) != (err != nil) {
			t.Fatalf("lookup %d: %v, %v", i, err, ok)
		}
	}
	if c.scans > vetScans || !c.decoded {
		t.Errorf("%d lookups searched the file %d times (decoded %v), want at most %d searches and then one decoding",
			len(keys), c.scans, c.decoded, vetScans)
	}
	if _, ok := c.lookup(vetKey("id", "matcher", "exact", []byte("never vetted"))); ok {
		t.Error("a key the file does not hold was found")
	}
	// What this process learns after the decoding is kept as before.
	learnt := vetKey("id", "matcher", "exact", []byte("learnt now"))
	c.record(learnt, nil)
	if err, ok := c.lookup(learnt); !ok || err != nil {
		t.Errorf("a verdict recorded after the decoding: %v, %v", err, ok)
	}
}

// The scanner of entries reads what encoding/json reads, or leaves the
// entry to encoding/json: every verdict save can write, and a damaged or
// hand-edited entry, give the same result either way.
func TestScanVerdictAgreesWithEncodingJSON(t *testing.T) {
	var entries []string
	for _, msg := range []string{"", "bad", `has "quotes"`, "a <tag> & more", "tab\there", "é ü 日本", "back\\slash", "\u2028"} {
		for _, day := range []int64{0, 1, 20786, -3, 1 << 40} {
			b, err := json.Marshal(vetVerdict{Err: msg, Day: day})
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, string(b))
		}
	}
	entries = append(entries, `{"d":007}`, `{"d":}`, `{"d":1`, `{"e":"x"}`, `{"e":"x","d":1,"z":2}`, `{"d":1.5}`,
		`{"e":"raw`+"\x01"+`","d":1}`, "{\"e\":\"\xff\",\"d\":1}", `{"d":123456789012345678901}`, `{ "d":1}`, `{"d":1}xyz`, ``)
	for _, e := range entries {
		checkScanVerdict(t, []byte(e))
	}
}

func FuzzScanVerdict(f *testing.F) {
	for _, s := range []string{`{"d":1}`, `{"e":"no","d":20786}`, `{"e":"a\"b","d":2}`, `{"d":01}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScanVerdict(t, b) })
}

// checkScanVerdict fails t when scanVerdict accepts b but reads it
// otherwise than encoding/json's decoder of the first value would.
func checkScanVerdict(t *testing.T, b []byte) {
	t.Helper()
	got, ok := scanVerdict(b)
	if !ok {
		return
	}
	var want vetVerdict
	if err := json.NewDecoder(strings.NewReader(string(b))).Decode(&want); err != nil {
		t.Fatalf("scanVerdict read %q as %+v, encoding/json refuses it: %v", b, got, err)
	}
	if got != want {
		t.Fatalf("scanVerdict read %q as %+v, encoding/json as %+v", b, got, want)
	}
}

// The binary search finds every verdict of a file save wrote (keys in
// sorted order), with messages holding quotes, commas and keys, and no
// key the file does not hold; in a file of any other order it may miss,
// but whatever it finds is what decoding the file says.
func TestFindVerdictSearchesSortedFiles(t *testing.T) {
	entries := map[string]vetVerdict{}
	for i := range 500 {
		v := vetVerdict{Day: int64(i)}
		switch i % 7 {
		case 1:
			v.Err = fmt.Sprintf(`bad ,"%s": {"d":1}`, vetKey("id", "matcher", "x", fmt.Appendf(nil, "%d", i+1)))
		case 2:
			v.Err = strings.Repeat("long, \"quoted\" ", 100)
		}
		entries[vetKey("id", "matcher", "exact", fmt.Appendf(nil, "%d", i))] = v
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range entries {
		if got, ok := findVerdict(raw, k); !ok || got != want {
			t.Fatalf("findVerdict(%s) = %+v, %v; want %+v", k, got, ok, want)
		}
	}
	for i := range 200 {
		k := vetKey("other", "matcher", "exact", fmt.Appendf(nil, "%d", i))
		if _, ok := findVerdict(raw, k); ok {
			t.Fatalf("findVerdict found %s, which the file does not hold", k)
		}
	}
}

func FuzzFindVerdict(f *testing.F) {
	k1, k2 := vetKey("a", "m", "k", []byte("1")), vetKey("a", "m", "k", []byte("2"))
	f.Add([]byte(fmt.Sprintf(`{"%s":{"d":1},"%s":{"e":"x","d":2}}`, min(k1, k2), max(k1, k2))), k1)
	f.Add([]byte(fmt.Sprintf(`{"%s":{"d":1},"%s":{"e":"x","d":2}}`, max(k1, k2), min(k1, k2))), k2)
	f.Fuzz(func(t *testing.T, raw []byte, key string) {
		got, ok := findVerdict(raw, key)
		if !ok {
			return
		}
		var all map[string]vetVerdict
		if json.Unmarshal(raw, &all) != nil {
			return // a damaged file is refused before any search (readVetRaw)
		}
		if want, in := all[key]; !in || want != got {
			t.Fatalf("findVerdict(%q) in %s = %+v; decoding says %+v, %v", key, raw, got, want, in)
		}
	})
}

// BenchmarkFindVerdictFull looks up a key in a full cache file.
func BenchmarkFindVerdictFull(b *testing.B) {
	entries := map[string]vetVerdict{}
	var keys []string
	for i := range maxVetEntries {
		k := vetKey("id", "matcher", "exact", fmt.Appendf(nil, "%d", i))
		entries[k] = vetVerdict{Day: 20786}
		keys = append(keys, k)
	}
	raw, _ := json.Marshal(entries)
	for i := 0; b.Loop(); i++ {
		findVerdict(raw, keys[i%len(keys)])
	}
}
