package pluginrpc

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The results half of the packed encoding (packed.go describes both): a
// plugin encodes one result per item, the host decodes them.

// encodePackedResults encodes one result per item, in item order.
func encodePackedResults(results []MatchItemResult) []byte {
	return appendPackedResults(make([]byte, 0, packedResultsSize(results)), results)
}

// encodePackedResultsPooled is encodePackedResults in a buffer of msgPool,
// handed over to the codec (codec_handoff.go): a server's response is
// sent from it without another copy, and the buffer goes back to msgPool
// once gRPC has written it.
func encodePackedResultsPooled(results []MatchItemResult) []byte {
	size := packedResultsSize(results)
	if size < pooledMin {
		return encodePackedResults(results)
	}
	buf := msgPool.Get(size)
	out := appendPackedResults((*buf)[:0], results)
	handOff(out, buf)
	return out
}

// packedResultsSize is at least the size of the encoding of results.
func packedResultsSize(results []MatchItemResult) int {
	size := 1 + binary.MaxVarintLen64
	for i := range results {
		size += 1 + 8 + 2 + len(results[i].Failure) + len(results[i].Error) + len(results[i].Deferred) + len(results[i].Eval) + 4*binary.MaxVarintLen64
	}
	return size
}

// appendPackedResults appends the encoding of results to out.
func appendPackedResults(out []byte, results []MatchItemResult) []byte {
	out = append(out, packedVersion)
	out = binary.AppendUvarint(out, uint64(len(results)))
	for i := range results {
		res := &results[i]
		var flags byte
		if res.Pass {
			flags |= packedPass
		}
		if res.Score != nil {
			flags |= packedScore
		}
		if len(res.Failure) > 0 {
			flags |= packedFailure
		}
		if res.Error != "" {
			flags |= packedError
		}
		if res.Deferred != "" {
			flags |= packedDeferred
		}
		if len(res.Eval) > 0 {
			flags |= packedEval
		}
		out = append(out, flags)
		if res.Score != nil {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(*res.Score))
		}
		out = binary.AppendUvarint(out, uint64(res.ErrorKind))
		if len(res.Failure) > 0 {
			out = appendBytes(out, res.Failure)
		}
		if res.Error != "" {
			out = binary.AppendUvarint(out, uint64(len(res.Error)))
			out = append(out, res.Error...)
		}
		if res.Deferred != "" {
			out = binary.AppendUvarint(out, uint64(len(res.Deferred)))
			out = append(out, res.Deferred...)
		}
		if len(res.Eval) > 0 {
			out = appendBytes(out, res.Eval)
		}
	}
	return out
}

// DecodePackedResults reads n results into out (len(out) == n), giving
// them ids[i]. Failures are slices of b.
func DecodePackedResults(b []byte, ids func(i int) uint64, out []MatchItemResult) error {
	r := &packedReader{b: b}
	if r.byte("version") != packedVersion && r.err == nil {
		return fmt.Errorf("%w: unknown version %d", errBadPacked, b[0])
	}
	if n := r.uvarint("result count"); r.err == nil && n != uint64(len(out)) {
		return fmt.Errorf("%w: %d results for %d items", errBadPacked, n, len(out))
	}
	for i := range out {
		// Most results are a bare verdict: flags of pass (or nothing)
		// and no error kind, two bytes.
		if b := r.b; len(b) >= 2 && b[0]&^packedPass == 0 && b[1] == 0 {
			out[i] = MatchItemResult{ID: ids(i), Pass: b[0] == packedPass}
			r.b = b[2:]
			continue
		}
		flags := r.byte("flags")
		res := MatchItemResult{ID: ids(i), Pass: flags&packedPass != 0}
		if flags&packedScore != 0 {
			if len(r.b) < 8 {
				r.fail("score")
			} else {
				score := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
				r.b = r.b[8:]
				res.Score = &score
			}
		}
		res.ErrorKind = ErrorKind(r.uvarint("error kind"))
		if flags&packedFailure != 0 {
			res.Failure = r.bytes("failure")
		}
		if flags&packedError != 0 {
			res.Error = string(r.bytes("error"))
		}
		if flags&packedDeferred != 0 {
			res.Deferred = string(r.bytes("deferred"))
		}
		if flags&packedEval != 0 {
			res.Eval = r.bytes("eval")
		}
		if r.err != nil {
			return r.err
		}
		out[i] = res
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: trailing bytes", errBadPacked)
	}
	return nil
}
