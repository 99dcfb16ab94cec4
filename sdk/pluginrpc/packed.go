package pluginrpc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// The packed encoding of a Match batch (protocol minor 1). Protobuf gives
// every item of a batch its own message, strings and byte slices, which
// costs more than judging a simple assertion; packed, a batch is one byte
// string: the strings the items share (keys, targets, test contexts) once
// in a table, then per item indexes into it and its JSON values, which the
// plugin reads in place. Results come back the same way.
//
// Request:  version 1, table (count, then length-prefixed strings),
//           contexts (count, then test id, test name, suite file and suite
//           dir as table indexes and an update byte), items (count, then
//           key, target and message as table indexes, context (0: none,
//           else 1-based), and actual, argument and options JSON, each
//           length-prefixed). Items are numbered by position.
// Response: version 1, count, then per item a flags byte (pass, score,
//           failure, error, deferred, eval), the score as 8 bytes, the
//           error kind, the failure JSON, the error text, the deferral
//           reason and the eval JSON, each only when flagged.
//
// Integers are unsigned varints. A decoder checks every length and index
// against the bytes it has: a malformed batch is an error, never a panic.

// packedVersion is the first byte of every packed batch.
const packedVersion = 1

// errBadPacked is wrapped by the errors of malformed packed data.
var errBadPacked = errors.New("malformed packed batch")

// Result flags.
const (
	packedPass    = 1 << 0
	packedScore   = 1 << 1
	packedFailure = 1 << 2
	packedError   = 1 << 3
	// packedDeferred and packedEval are later additions: a plugin sets
	// them only on items that need them (model-graded matchers), so
	// batches of other matchers read the same as before.
	packedDeferred = 1 << 4
	packedEval     = 1 << 5
)

// packedItem is one decoded item: its strings come from the table, its
// JSON values are slices of the batch.
type packedItem struct {
	key, target, message string
	context              uint64
	actual, argument     []byte
	options              []byte
}

// packedContext is one decoded test context.
type packedContext struct {
	testID, testName, suiteFile, suiteDir string
	update                                bool
}

// packedWriter builds a batch.
type packedWriter struct {
	strs  map[string]uint64
	table []byte
	n     uint64
}

// index returns s's place in the string table, adding it if new.
func (w *packedWriter) index(s string) uint64 {
	if i, ok := w.strs[s]; ok {
		return i
	}
	i := w.n
	w.n++
	w.strs[s] = i
	w.table = binary.AppendUvarint(w.table, uint64(len(s)))
	w.table = append(w.table, s...)
	return i
}

// lastIndex remembers the last few strings a field of the items was
// interned as, so items cycling through a handful of keys or targets (a
// test's assertions) skip the table's map and its hashing.
type lastIndex struct {
	s    [4]string
	i    [4]uint64
	n    int
	next int
}

// index is w.index(s), from memory when s is one of the field's last
// strings.
func (l *lastIndex) index(w *packedWriter, s string) uint64 {
	for k := range l.n {
		if l.s[k] == s {
			return l.i[k]
		}
	}
	i := w.index(s)
	l.s[l.next], l.i[l.next] = s, i
	l.next = (l.next + 1) % len(l.s)
	l.n = min(l.n+1, len(l.s))
	return i
}

// add appends s to the string table without interning it.
func (w *packedWriter) add(s string) uint64 {
	i := w.n
	w.n++
	w.table = binary.AppendUvarint(w.table, uint64(len(s)))
	w.table = append(w.table, s...)
	return i
}

// packedBuffers are the buffers of one encoded batch, reused for the next
// once the call has returned.
type packedBuffers struct {
	ctxs []byte
	// idx holds each item's key, target, message and context indexes
	// between the encoder's two passes.
	idx []uint64
	w   packedWriter
	// out is the encoded batch, in a buffer of msgPool handed over to the
	// codec (codec_handoff.go), which sends it without copying it again;
	// release takes it back if the codec never did.
	out    []byte
	outBuf *[]byte
	outID  uint64
}

var packedPool = sync.Pool{New: func() any { return &packedBuffers{w: packedWriter{strs: map[string]uint64{}}} }}

// packedKept keeps the buffers of the batches in flight (the host sends up
// to GOMAXPROCS calls per plugin at once) across collections; packedPool
// takes the rest.
var packedKept = NewKeepList[*packedBuffers](4)

// packedKeptMax is the largest buffer packedKept holds for good.
const packedKeptMax = 1 << 20

// getPackedBuffers returns buffers for one batch.
func getPackedBuffers() *packedBuffers {
	if p, ok := packedKept.Get(); ok {
		return p
	}
	return packedPool.Get().(*packedBuffers)
}

// packedKeepMax is the largest buffer kept for reuse; a bigger one goes to
// the collector rather than stay alive in the pool.
const packedKeepMax = 8 << 20

// release returns the buffers to the pool.
func (p *packedBuffers) release() {
	if buf, ok := takeBack(p.out, p.outID); ok {
		msgPool.Put(buf)
	}
	p.out, p.outBuf, p.outID = nil, nil, 0
	if 8*cap(p.idx) > packedKeepMax || cap(p.ctxs) > packedKeepMax || cap(p.w.table) > packedKeepMax {
		return
	}
	clear(p.w.strs)
	p.w.table, p.w.n = p.w.table[:0], 0
	p.idx, p.ctxs = p.idx[:0], p.ctxs[:0]
	if 8*cap(p.idx) <= packedKeptMax && cap(p.ctxs) <= packedKeptMax && cap(p.w.table) <= packedKeptMax && packedKept.Put(p) {
		return
	}
	packedPool.Put(p)
}

// encodePackedItems encodes items; their IDs are not sent (results come
// back in item order).
func encodePackedItems(items []MatchItem) []byte {
	bufs := &packedBuffers{w: packedWriter{strs: map[string]uint64{}}}
	out := bytes.Clone(encodePackedItemsInto(bufs, MatchItems(items)))
	bufs.release()
	return out
}

// EncodePackedItems encodes items for a packed Match request in pooled
// buffers. The bytes stay valid until release is called, which the caller
// does once the call has returned (gRPC has encoded the request by then).
func EncodePackedItems(items []MatchItem) (packed []byte, release func()) {
	bufs := getPackedBuffers()
	return encodePackedItemsInto(bufs, MatchItems(items)), bufs.release
}

// encodePackedItemsInto encodes items in bufs' buffers; the result is
// valid until bufs is released.
func encodePackedItemsInto(bufs *packedBuffers, items ItemSource) []byte {
	w := &bufs.w
	type ctxKey struct {
		id, name, file, dir string
		update              bool
	}
	ctxs := bufs.ctxs[:0]
	var nctx uint64
	var last ctxKey
	// Neighbouring items mostly repeat a key, target and message, and
	// neighbouring contexts a suite file and directory.
	var keys, targets, messages, files, dirs lastIndex
	// The table and the contexts come first in the batch but are known
	// only once every item has been seen: a first pass builds them and
	// notes each item's four indexes, a second writes the items straight
	// after them, so the items' values are copied once.
	n := items.Len()
	idx := slices.Grow(bufs.idx[:0], 4*n)[:4*n]
	bufs.idx = idx
	size := 0
	for i := range n {
		key, actual, argument, o := items.Item(i)
		// A test's assertions arrive together, so a context is sent once
		// per run of items that share it. A test seen again later in the
		// batch (rare) is sent again: looking every context up in a map
		// cost more than the few bytes a repeat takes. Test ids and names
		// go into the table without interning for the same reason; file
		// and directory repeat across tests, so they are interned.
		k := ctxKey{o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.UpdateSnapshots}
		if nctx == 0 || k != last {
			ctxs = binary.AppendUvarint(ctxs, w.add(k.id))
			ctxs = binary.AppendUvarint(ctxs, w.add(k.name))
			ctxs = binary.AppendUvarint(ctxs, files.index(w, k.file))
			ctxs = binary.AppendUvarint(ctxs, dirs.index(w, k.dir))
			if k.update {
				ctxs = append(ctxs, 1)
			} else {
				ctxs = append(ctxs, 0)
			}
			nctx++
			last = k
		}
		x := idx[4*i : 4*i+4 : 4*i+4]
		x[0], x[1], x[2], x[3] = keys.index(w, key), targets.index(w, o.Target), messages.index(w, o.Message), nctx
		size += 7*binary.MaxVarintLen64 + len(actual) + len(argument) + len(o.Raw)
	}
	bufs.ctxs = ctxs
	size += 1 + 3*binary.MaxVarintLen64 + len(w.table) + len(ctxs)
	var out []byte
	if size >= pooledMin {
		bufs.outBuf = msgPool.Get(size)
		out = (*bufs.outBuf)[:0]
	} else {
		out = make([]byte, 0, size)
	}
	out = append(out, packedVersion)
	out = binary.AppendUvarint(out, w.n)
	out = append(out, w.table...)
	out = binary.AppendUvarint(out, nctx)
	out = append(out, ctxs...)
	out = binary.AppendUvarint(out, uint64(n))
	for i := range n {
		_, actual, argument, o := items.Item(i)
		x := idx[4*i : 4*i+4 : 4*i+4]
		out = binary.AppendUvarint(out, x[0])
		out = binary.AppendUvarint(out, x[1])
		out = binary.AppendUvarint(out, x[2])
		out = binary.AppendUvarint(out, x[3])
		out = appendBytes(out, actual)
		out = appendBytes(out, argument)
		out = appendBytes(out, o.Raw)
	}
	bufs.out = out
	if bufs.outBuf != nil {
		bufs.outID = handOff(out, bufs.outBuf)
	}
	return out
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// packedReader reads a batch, failing on the first bad length or index.
type packedReader struct {
	b   []byte
	err error
}

func (r *packedReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", errBadPacked, what)
	}
}

func (r *packedReader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a count of things that take at least min bytes each, so a
// lying count cannot make the reader allocate more than the batch holds.
func (r *packedReader) count(what string, min int) int {
	n := r.uvarint(what)
	if r.err == nil && n > uint64(len(r.b)/min) {
		r.fail(what + " exceeds the batch")
		return 0
	}
	return int(n)
}

func (r *packedReader) bytes(what string) []byte {
	n := r.uvarint(what)
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.fail(what + " runs past the batch")
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *packedReader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.fail(what)
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *packedReader) str(table []string, what string) string {
	i := r.uvarint(what)
	if r.err == nil && i >= uint64(len(table)) {
		r.fail(what + " is not in the string table")
		return ""
	}
	if r.err != nil {
		return ""
	}
	return table[i]
}

// decodePackedItems reads a batch. The items' JSON values are slices of b,
// which the caller must not change while they are in use.
func decodePackedItems(b []byte) ([]packedItem, []packedContext, error) {
	return decodePackedItemsInto(b, new(packedScratch))
}

// decodePackedItemsInto is decodePackedItems reusing sc's arrays (items,
// contexts, the string table and its spans) when they are large enough,
// and leaving the grown ones in sc for the next batch. Only the strings'
// bytes are new memory: matchers may keep a string past the call.
func decodePackedItemsInto(b []byte, sc *packedScratch) ([]packedItem, []packedContext, error) {
	r := &packedReader{b: b}
	if r.byte("version") != packedVersion && r.err == nil {
		return nil, nil, fmt.Errorf("%w: unknown version %d", errBadPacked, b[0])
	}
	nstr := r.count("string count", 1)
	table := slices.Grow(sc.table[:0], nstr)[:nstr]
	sc.table = table
	// The strings are copied out of b in one allocation (matchers may
	// keep them past the call, and b goes back to a pool), then sliced:
	// first each entry's end and length within the table, then the copy.
	start := r.b
	spans := slices.Grow(sc.spans[:0], nstr)[:nstr]
	sc.spans = spans
	for i := range table {
		n := len(r.bytes("string"))
		end := len(start) - len(r.b)
		spans[i] = [2]int{end - n, end}
	}
	if r.err == nil && len(table) > 0 {
		all := string(start[:spans[len(spans)-1][1]])
		for i, sp := range spans {
			table[i] = all[sp[0]:sp[1]]
		}
	}
	nctx := r.count("context count", 5)
	// Every field of every context and item is set below, so reused
	// arrays need no clearing first.
	ctxs := slices.Grow(sc.ctxs[:0], nctx)[:nctx]
	sc.ctxs = ctxs
	for i := range ctxs {
		c := &ctxs[i]
		if rest, ok := fastContext(r.b, table, c); ok && packedFast && r.err == nil {
			r.b = rest
			continue
		}
		c.testID, c.testName = r.str(table, "test id"), r.str(table, "test name")
		c.suiteFile, c.suiteDir = r.str(table, "suite file"), r.str(table, "suite dir")
		c.update = r.byte("update flag") == 1
	}
	n := r.count("item count", 7)
	items := slices.Grow(sc.items[:0], n)[:n]
	sc.items = items
	for i := range items {
		it := &items[i]
		if rest, ok := fastItem(r.b, table, len(ctxs), it); ok && packedFast && r.err == nil {
			r.b = rest
			continue
		}
		it.key, it.target, it.message = r.str(table, "key"), r.str(table, "target"), r.str(table, "message")
		it.context = r.uvarint("context")
		if r.err == nil && it.context > uint64(len(ctxs)) {
			r.fail("item context out of range")
		}
		it.actual, it.argument, it.options = r.bytes("actual"), r.bytes("argument"), r.bytes("options")
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	return items, ctxs, nil
}

// The fast readers below decode a context or an item whose integers all
// fit in one or two bytes (table indexes under 16,384, values under that
// length: nearly every batch) with one call and no error bookkeeping. They
// accept exactly what the general reader accepts; on anything else they
// report false and the general reader, which names the fault, reads it.

// packedFast turns the fast readers on; tests turn them off to compare.
var packedFast = true

// uv12 reads a varint of one or two bytes; n is 0 if it is longer or b
// ends first.
func uv12(b []byte) (v uint64, n int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	if len(b) > 1 && b[1] < 0x80 {
		return uint64(b[0]&0x7f) | uint64(b[1])<<7, 2
	}
	return 0, 0
}

// fastContext reads one test context into c and returns the rest of b.
func fastContext(b []byte, table []string, c *packedContext) ([]byte, bool) {
	var idx [4]uint64
	for k := range idx {
		v, n := uv12(b)
		if n == 0 || v >= uint64(len(table)) {
			return nil, false
		}
		idx[k], b = v, b[n:]
	}
	if len(b) == 0 {
		return nil, false
	}
	c.testID, c.testName, c.suiteFile, c.suiteDir = table[idx[0]], table[idx[1]], table[idx[2]], table[idx[3]]
	c.update = b[0] == 1
	return b[1:], true
}

// fastItem reads one item into it and returns the rest of b.
func fastItem(b []byte, table []string, nctx int, it *packedItem) ([]byte, bool) {
	var idx [3]uint64
	for k := range idx {
		v, n := uv12(b)
		if n == 0 || v >= uint64(len(table)) {
			return nil, false
		}
		idx[k], b = v, b[n:]
	}
	ctx, n := uv12(b)
	if n == 0 || ctx > uint64(nctx) {
		return nil, false
	}
	b = b[n:]
	var vals [3][]byte
	for k := range vals {
		l, n := uv12(b)
		if n == 0 || l > uint64(len(b)-n) {
			return nil, false
		}
		end := n + int(l)
		vals[k], b = b[n:end:end], b[end:]
	}
	it.key, it.target, it.message = table[idx[0]], table[idx[1]], table[idx[2]]
	it.context = ctx
	it.actual, it.argument, it.options = vals[0], vals[1], vals[2]
	return b, true
}
