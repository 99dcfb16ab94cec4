package plugin

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcptest/mcptest/internal/safefile"
	"github.com/mcptest/mcptest/sdk"
)

// Bounds of the vetting cache.
const (
	// maxVetEntries bounds the verdicts kept on disk; the stalest go
	// first. A suite's distinct matcher arguments are few (generated
	// suites repeat the same ones), so this covers many suites.
	maxVetEntries = 4096
	// maxVetCacheSize bounds the file read: an entry is about 100 bytes.
	maxVetCacheSize = 4 << 20
	// maxVetMessage bounds a remembered rejection; a longer message is
	// not remembered (the plugin is asked again next time).
	maxVetMessage = 2048
	// maxVetLookups bounds the lookups of one host. A plan with more
	// distinct arguments than the cache can hold starts its plugins for
	// vetting anyway, and hashing its every argument would only add work.
	maxVetLookups = maxVetEntries
	// vetScans is how many keys a host looks up by searching the file's
	// bytes; past it the file is decoded once and the rest are map
	// lookups. A search costs a pass over the file, so a plan with
	// hundreds of distinct arguments (a generated suite) would otherwise
	// pay hundreds of passes.
	vetScans = 16
)

// vetCacheFormat names the layout of a key; a change of what goes into
// keys changes it, so old entries are simply never found.
const vetCacheFormat = "mcptest-vet/1"

// vetVerdict is one remembered verdict.
type vetVerdict struct {
	// Err is the plugin's rejection; "" means the argument was accepted.
	Err string `json:"e,omitempty"`
	// Day is the day (in days since 1970) the verdict was last used, so
	// the stalest are dropped first when the cache is full.
	Day int64 `json:"d"`
}

// vetCache remembers the verdicts of plugins that declare their vetting
// pure (sdk.CapabilityVetPure) on matcher arguments, across runs. A
// verdict is keyed by the plugin's verified identity (the sha256 of its
// executable, vouched for by the digest cache without hashing), the
// protocol the host speaks and the exact request (kind, key, argument
// bytes), so a rebuilt plugin or a changed argument is asked again. With
// every argument of a suite remembered as accepted, the servers start
// without waiting for a matcher plugin to start. Like the digest cache it
// lives in the user cache folder, is ignored unless it is this user's
// alone, and only saves work.
type vetCache struct {
	path string // "" disables the cache

	once sync.Once
	// The file is searched one key at a time (findVerdictIn): a run looks
	// up a handful of its up to maxVetEntries verdicts, and decoding them
	// all cost each run a millisecond or more. scans counts the searches;
	// decoded says the file has been decoded into entries whole, so a key
	// not in entries is not in the file.
	scans   int
	decoded bool
	mu      sync.Mutex
	entries map[string]vetVerdict // verdicts looked up or learnt by this process
	// added holds the verdicts this process learnt or used on a new day;
	// they are merged into the file on save.
	added map[string]vetVerdict
}

// sharedVetting is the process's vetting cache, beside the digest cache
// (MCPTEST_DIGEST_CACHE moves it, or turns all three caches off).
var sharedVetting = newVetCache(vetCachePath(defaultDigestCachePath()))

func newVetCache(path string) *vetCache { return &vetCache{path: path} }

// vetCachePath places the vetting cache beside the digest cache.
func vetCachePath(digests string) string {
	if digests == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(digests), "plugin-vetting.json")
}

// vetKey is the cache key of vetting a matcher argument with the plugin
// whose executable has the verified sha256 identity. Every part is
// length-prefixed, so no two requests share a key.
func vetKey(identity, kind, key string, arg []byte) string {
	h := sha256.New()
	var n [8]byte
	part := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	part([]byte(vetCacheFormat))
	part([]byte(identity))
	part([]byte(strconv.Itoa(sdk.ProtocolVersion) + "." + strconv.Itoa(sdk.ProtocolMinor)))
	part([]byte(kind))
	part([]byte(key))
	part(arg)
	return hex.EncodeToString(h.Sum(nil))
}

// today is the current day number of verdicts.
func today() int64 { return time.Now().Unix() / 86400 }

// load prepares the cache; the file itself is read a few pages at a time
// by each search (findVerdictIn), or whole once many keys are looked up.
func (c *vetCache) load() {
	c.entries = map[string]vetVerdict{}
}

// readVetRaw returns the bytes of the cache file at path, or nil for an
// unreadable or foreign file or one that is not a whole JSON object (a
// file cut short is not searched).
func readVetRaw(path string) []byte {
	raw := readPrivateCache(path, maxVetCacheSize)
	t := bytes.TrimSpace(raw)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return nil
	}
	return raw
}

// findVerdictIn returns the verdict of key in the cache file at path,
// reading only the pages the search visits: a full file is 300 KB, and
// reading it whole cost every run's gate a few hundred microseconds of
// copying and page faults for the dozen entries a search looks at. The
// file is refused as readPrivateCache refuses it, and so is one that is
// not a whole JSON object.
func findVerdictIn(path, key string) (vetVerdict, bool) {
	f, size := openPrivateCache(path, maxVetCacheSize)
	if f == nil {
		return vetVerdict{}, false
	}
	defer f.Close()
	return findVerdictAt(newPager(f, int64(size)), key)
}

// findVerdict is findVerdictIn on a file's bytes.
func findVerdict(raw []byte, key string) (vetVerdict, bool) {
	return findVerdictAt(newPager(bytes.NewReader(raw), int64(len(raw))), key)
}

// findVerdictAt returns the verdict of key (lower-case hex, as vetKey
// makes) in the cache file p reads, as save writes it, without decoding
// the rest. json.Marshal writes the keys of a map in sorted order, so the
// entry is found by a binary search; a file in any other order only
// misses, and the plugin is asked.
func findVerdictAt(p *pager, key string) (vetVerdict, bool) {
	if p.size < 2 || len(key) != 2*sha256.Size {
		return vetVerdict{}, false
	}
	head := bytes.TrimLeft(p.slice(0, min(p.size, 64)), " \t\r\n")
	tail := bytes.TrimRight(p.slice(max(0, p.size-64), p.size), " \t\r\n")
	if len(head) == 0 || head[0] != '{' || len(tail) == 0 || tail[len(tail)-1] != '}' {
		// Cut short, or not the object save writes.
		return vetVerdict{}, false
	}
	i := searchVetKey(p, key)
	if i < 0 {
		return vetVerdict{}, false
	}
	// An acceptance is a dozen bytes; a rejection's message, escaped,
	// up to six times maxVetMessage.
	rest := p.slice(i, i+256)
	v, ok := scanVerdict(rest)
	if !ok {
		rest = p.slice(i, i+maxVetMessage*6+64)
		// Not the layout save writes (a message with escapes, a file
		// edited by hand): encoding/json reads the entry.
		dec := json.NewDecoder(bytes.NewReader(rest))
		if dec.Decode(&v) != nil {
			return vetVerdict{}, false
		}
	}
	if len(v.Err) > maxVetMessage || p.failed {
		return vetVerdict{}, false
	}
	return v, true
}

// scanVerdict reads a verdict written as json.Marshal writes one,
// {"d":DAY} or {"e":"MESSAGE","d":DAY} with no escape in the message,
// from the start of b. It reports false for anything else, which the
// caller hands to encoding/json: the first use of encoding/json on a type
// costs each run a few hundred microseconds of reflection before the
// servers start, and nearly every entry is an acceptance.
func scanVerdict(b []byte) (vetVerdict, bool) {
	var v vetVerdict
	rest, ok := bytes.CutPrefix(b, []byte(`{"e":"`))
	if ok {
		end := bytes.IndexByte(rest, '"')
		if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 || !utf8.Valid(rest[:end]) {
			return vetVerdict{}, false
		}
		for _, c := range rest[:end] {
			if c < 0x20 {
				return vetVerdict{}, false
			}
		}
		v.Err = string(rest[:end])
		if rest, ok = bytes.CutPrefix(rest[end+1:], []byte(`,"d":`)); !ok {
			return vetVerdict{}, false
		}
	} else if rest, ok = bytes.CutPrefix(b, []byte(`{"d":`)); !ok {
		return vetVerdict{}, false
	}
	n := 0
	for n < len(rest) && n < 18 && rest[n] >= '0' && rest[n] <= '9' {
		v.Day = v.Day*10 + int64(rest[n]-'0')
		n++
	}
	if n == 0 || n == 18 || (n > 1 && rest[0] == '0') || n >= len(rest) || rest[n] != '}' {
		return vetVerdict{}, false
	}
	return v, true
}

// vetEntryLen is the length of an entry's quoted key and colon.
const vetEntryLen = 2*sha256.Size + 3

// searchVetKey returns where the value of key starts in the file p
// reads, a JSON object whose keys are in sorted order, or -1.
func searchVetKey(p *pager, key string) int {
	lo, hi := 0, p.size
	for lo < hi && !p.failed {
		mid := lo + (hi-lo)/2
		at, k := nextVetEntry(p, mid, hi)
		if at < 0 {
			// No entry starts in [mid, hi): the key's, if any, is before.
			hi = mid
			continue
		}
		switch {
		case string(k) == key:
			return at + vetEntryLen
		case string(k) < key:
			lo = at + 1
		default:
			// Entries from mid on start at or after at, past the key's.
			hi = mid
		}
	}
	return -1
}

// vetWindow is how much of the file nextVetEntry reads at a time: a few
// entries.
const vetWindow = 512

// nextVetEntry returns the position of the first entry of the file p reads
// that starts in [from, to), and its key; -1 when none does. An entry is a
// quoted key of 64 lower-case hex digits and a colon, after the object's
// brace or a comma: a quote inside a message is escaped, so nothing in a
// value looks like one.
func nextVetEntry(p *pager, from, to int) (int, []byte) {
	for base := from; base < to && !p.failed; base += vetWindow {
		end := min(to, base+vetWindow)
		// The window, with the byte before it and room for a whole key.
		start := max(0, base-1)
		w := p.slice(start, min(p.size, end+vetEntryLen))
		for i := base; i < end; i++ {
			j := bytes.IndexByte(w[i-start:end-start], '"')
			if j < 0 {
				break
			}
			i += j
			o := i - start
			if i == 0 || (w[o-1] != '{' && w[o-1] != ',') || o+vetEntryLen > len(w) {
				continue
			}
			k := w[o+1 : o+vetEntryLen-2]
			if w[o+vetEntryLen-2] == '"' && w[o+vetEntryLen-1] == ':' && isLowerHexBytes(k) {
				return i, k
			}
		}
	}
	return -1, nil
}

func isLowerHexBytes(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// readVetFile returns the verdicts of the file at path; an unreadable,
// foreign or damaged file gives none, and malformed entries are dropped.
func readVetFile(path string) map[string]vetVerdict {
	return decodeVetEntries(readPrivateCache(path, maxVetCacheSize))
}

// decodeVetEntries returns the verdicts of raw, a cache file's bytes; a
// damaged file gives none, and malformed entries are dropped.
func decodeVetEntries(raw []byte) map[string]vetVerdict {
	out := map[string]vetVerdict{}
	if raw == nil {
		return out
	}
	var entries map[string]vetVerdict
	if json.Unmarshal(raw, &entries) != nil {
		return out
	}
	for k, v := range entries {
		if len(k) == 2*sha256.Size && isLowerHex(k) && len(v.Err) <= maxVetMessage {
			out[k] = v
		}
	}
	return out
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// lookup returns the remembered verdict for key: a nil error for an
// accepted argument, the plugin's message for a rejected one.
func (c *vetCache) lookup(key string) (error, bool) {
	if c.path == "" {
		return nil, false
	}
	c.once.Do(c.load)
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.entries[key]
	if !ok && !c.decoded && c.scans >= vetScans {
		// Many lookups: one decoding of the whole file is cheaper than a
		// search each. Verdicts this process already holds stay.
		for k, fv := range decodeVetEntries(readVetRaw(c.path)) {
			if _, have := c.entries[k]; !have {
				c.entries[k] = fv
			}
		}
		c.decoded = true
		v, ok = c.entries[key]
	}
	if !ok {
		if c.decoded {
			return nil, false
		}
		c.scans++
		if v, ok = findVerdictIn(c.path, key); !ok {
			return nil, false
		}
		c.entries[key] = v
	}
	if d := today(); v.Day < d {
		// Used again on a new day: the file learns it on save, so a
		// verdict in use is not the first dropped.
		v.Day = d
		c.entries[key] = v
		c.note(key, v)
	}
	if v.Err == "" {
		return nil, true
	}
	return errors.New(v.Err), true
}

// record remembers the plugin's verdict on key (verdict nil: accepted).
func (c *vetCache) record(key string, verdict error) {
	if c.path == "" {
		return
	}
	v := vetVerdict{Day: today()}
	if verdict != nil {
		v.Err = verdict.Error()
		if v.Err == "" || len(v.Err) > maxVetMessage {
			return
		}
	}
	c.once.Do(c.load)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = v
	c.note(key, v)
}

// note queues v for the next save; c.mu is held.
func (c *vetCache) note(key string, v vetVerdict) {
	if c.added == nil {
		c.added = map[string]vetVerdict{}
	}
	c.added[key] = v
}

// save merges what this process learnt into the file as it is now (other
// runs may have saved since it was read), keeping the maxVetEntries most
// recently used verdicts. Failing to save is not an error.
func (c *vetCache) save() {
	if c.path == "" {
		return
	}
	c.mu.Lock()
	added := c.added
	c.added = nil
	c.mu.Unlock()
	if len(added) == 0 {
		return
	}
	entries := readVetFile(c.path)
	for k, v := range added {
		entries[k] = v
	}
	if len(entries) > maxVetEntries {
		keys := make([]string, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		// Newest first; on the same day what this process learnt or
		// used first (a day holds many verdicts: were ties settled by key
		// alone, a full cache would keep the smallest keys of the day and
		// drop every new verdict at once, so its suites would be vetted
		// by starting the plugins on every run); then key order, so the
		// result is the same whatever the map's order.
		slices.SortFunc(keys, func(a, b string) int {
			if da, db := entries[a].Day, entries[b].Day; da != db {
				return int(db - da)
			}
			_, na := added[a]
			_, nb := added[b]
			if na != nb {
				if na {
					return -1
				}
				return 1
			}
			if a < b {
				return -1
			}
			return 1
		})
		for _, k := range keys[maxVetEntries:] {
			delete(entries, k)
		}
	}
	b, err := json.Marshal(entries)
	if err != nil {
		return
	}
	_ = safefile.WriteAtomic(c.path, b, 0o700)
}
