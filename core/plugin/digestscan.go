package plugin

import (
	"bytes"
	"strconv"
)

// findDigest looks for path's entry in raw, a digest cache file as
// json.Marshal writes it, without decoding the rest. sure is false when
// the search cannot settle it (no entry in the layout save writes, a path
// that JSON would escape): the caller then decodes the file with
// encoding/json. A path that is not there is thus decoded for, but that
// run hashes the plugin anyway, which costs far more. found is whether
// raw holds an entry for path.
func findDigest(raw []byte, path string) (e digestEntry, found, sure bool) {
	if len(raw) == 0 {
		return digestEntry{}, false, true
	}
	if !plainJSONString(path) {
		return digestEntry{}, false, false
	}
	pat := make([]byte, 0, len(path)+3)
	pat = append(append(append(pat, '"'), path...), '"', ':')
	for from := 0; ; {
		i := bytes.Index(raw[from:], pat)
		if i < 0 {
			return digestEntry{}, false, false
		}
		i += from
		// A key starts the object or follows a comma; a quote inside a
		// string is always escaped, so this is the key itself and not
		// part of another key or value.
		if i > 0 && (raw[i-1] == '{' || raw[i-1] == ',') {
			e, ok := scanDigestEntry(raw[i+len(pat):])
			return e, ok, ok
		}
		from = i + 1
	}
}

// plainJSONString reports whether json.Marshal writes s as it is between
// two quotes: printable ASCII with none of the characters it escapes.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return s != ""
}

// scanDigestEntry reads one entry as json.Marshal writes a digestEntry,
// from the start of b; false for any other layout.
func scanDigestEntry(b []byte) (digestEntry, bool) {
	var e digestEntry
	s := digestScanner{b: b, ok: true}
	s.lit(`{"stamp":{"Dev":`)
	e.Stamp.Dev = s.uint(64)
	s.lit(`,"Ino":`)
	e.Stamp.Ino = s.uint(64)
	s.lit(`,"Size":`)
	e.Stamp.Size = s.int()
	s.lit(`,"MtimeNS":`)
	e.Stamp.MtimeNS = s.int()
	s.lit(`,"CtimeNS":`)
	e.Stamp.CtimeNS = s.int()
	s.lit(`,"UID":`)
	e.Stamp.UID = uint32(s.uint(32))
	s.lit(`},"sha256":"`)
	e.SHA256 = s.hex()
	s.lit(`"}`)
	return e, s.ok
}

// digestScanner reads a byte slice front to back; the first mismatch
// clears ok, and every later read then returns zero.
type digestScanner struct {
	b  []byte
	ok bool
}

func (s *digestScanner) lit(want string) {
	if !s.ok || !bytes.HasPrefix(s.b, []byte(want)) {
		s.ok = false
		return
	}
	s.b = s.b[len(want):]
}

// digits returns the number at the front of b as JSON writes an integer.
func (s *digestScanner) digits(signed bool) []byte {
	if !s.ok {
		return nil
	}
	n := 0
	if signed && n < len(s.b) && s.b[n] == '-' {
		n++
	}
	start := n
	for n < len(s.b) && s.b[n] >= '0' && s.b[n] <= '9' {
		n++
	}
	if n == start || (n-start > 1 && s.b[start] == '0') {
		s.ok = false
		return nil
	}
	d := s.b[:n]
	s.b = s.b[n:]
	return d
}

func (s *digestScanner) uint(bits int) uint64 {
	d := s.digits(false)
	if !s.ok {
		return 0
	}
	v, err := strconv.ParseUint(string(d), 10, bits)
	if err != nil {
		s.ok = false
	}
	return v
}

func (s *digestScanner) int() int64 {
	d := s.digits(true)
	if !s.ok {
		return 0
	}
	v, err := strconv.ParseInt(string(d), 10, 64)
	if err != nil {
		s.ok = false
	}
	return v
}

// hex reads a string of lower-case hex digits up to its closing quote.
func (s *digestScanner) hex() string {
	if !s.ok {
		return ""
	}
	n := 0
	for n < len(s.b) && (s.b[n] >= '0' && s.b[n] <= '9' || s.b[n] >= 'a' && s.b[n] <= 'f') {
		n++
	}
	v := string(s.b[:n])
	s.b = s.b[n:]
	return v
}
