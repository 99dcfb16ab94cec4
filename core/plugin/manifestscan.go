package plugin

import (
	"bytes"
	"strconv"

	"github.com/mcptest/mcptest/sdk"
)

// scanManifest reads a manifest as json.Marshal writes one (the manifest
// cache's entries) from the start of b, and returns it with the length of
// its encoding. It reports false for any other layout (a string with an
// escape, a field out of order, a number JSON would not write), which the
// caller then hands to encoding/json: every run reads the cached manifest
// of each installed plugin, and decoding them through reflection was most
// of plugin discovery, which the servers' start waits for.
func scanManifest(b []byte) (*Manifest, int, bool) {
	s := jsonScanner{b: b, ok: true}
	m := &Manifest{}
	s.lit(`{"manifest_version":`)
	m.ManifestVersion = s.int()
	s.lit(`,"name":`)
	m.Name = s.str()
	s.lit(`,"version":`)
	m.Version = s.str()
	s.lit(`,"protocol_versions":`)
	if !s.null() {
		m.ProtocolVersions = []int{}
		s.list(func() { m.ProtocolVersions = append(m.ProtocolVersions, s.int()) })
	}
	s.lit(`,"executable":`)
	m.Executable = s.str()
	if s.opt(`,"sha256":`) {
		m.SHA256 = s.str()
	}
	s.lit(`,"components":`)
	if !s.null() {
		m.Components = []sdk.Component{}
		s.list(func() {
			var c sdk.Component
			s.lit(`{"kind":`)
			c.Kind = s.str()
			s.lit(`,"keys":`)
			c.Keys = s.strs()
			s.lit(`}`)
			m.Components = append(m.Components, c)
		})
	}
	if s.opt(`,"capabilities":`) {
		m.Capabilities = s.strs()
	}
	if s.opt(`,"env":`) {
		m.Env = s.strs()
	}
	if s.opt(`,"prices":`) {
		m.Prices = []sdk.ModelPrice{}
		s.list(func() {
			var p sdk.ModelPrice
			s.lit(`{"model":`)
			p.Model = s.str()
			s.lit(`,"input_per_mtok":`)
			p.InputPerMTok = s.float()
			s.lit(`,"output_per_mtok":`)
			p.OutputPerMTok = s.float()
			s.lit(`}`)
			m.Prices = append(m.Prices, p)
		})
	}
	s.lit(`}`)
	if !s.ok {
		return nil, 0, false
	}
	return m, len(b) - len(s.b), true
}

// jsonScanner reads JSON written by json.Marshal front to back, for the
// few fixed layouts of the private caches; the first mismatch clears ok,
// and every later read returns a zero value.
type jsonScanner struct {
	b  []byte
	ok bool
}

// lit consumes want, which must come next.
func (s *jsonScanner) lit(want string) {
	if !s.opt(want) {
		s.ok = false
	}
}

// opt consumes want if it comes next.
func (s *jsonScanner) opt(want string) bool {
	if !s.ok || !bytes.HasPrefix(s.b, []byte(want)) {
		return false
	}
	s.b = s.b[len(want):]
	return true
}

// null consumes a JSON null if it comes next.
func (s *jsonScanner) null() bool { return s.opt("null") }

// list reads a JSON array, calling item for each element.
func (s *jsonScanner) list(item func()) {
	s.lit("[")
	if s.opt("]") {
		return
	}
	for s.ok {
		item()
		if !s.opt(",") {
			break
		}
	}
	s.lit("]")
}

// strs reads an array of strings, or null.
func (s *jsonScanner) strs() []string {
	if s.null() {
		return nil
	}
	out := []string{}
	s.list(func() { out = append(out, s.str()) })
	return out
}

// str reads a string in which json.Marshal escaped nothing: printable
// ASCII other than the quote, backslash and the characters it escapes
// for HTML, or UTF-8 above it that needs no escape. Anything else is left
// to encoding/json.
func (s *jsonScanner) str() string {
	if !s.opt(`"`) {
		s.ok = false
		return ""
	}
	for i := 0; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			v := string(s.b[:i])
			s.b = s.b[i+1:]
			return v
		case c < 0x20, c == '\\', c == '<', c == '>', c == '&', c >= 0x80:
			// Non-ASCII is rare in manifests; checking what JSON would
			// escape there (invalid UTF-8, U+2028, U+2029) is
			// encoding/json's business.
			s.ok = false
			return ""
		}
	}
	s.ok = false
	return ""
}

// number returns the bytes of the JSON number that comes next.
func (s *jsonScanner) number() []byte {
	if !s.ok {
		return nil
	}
	n := 0
	for n < len(s.b) && bytes.IndexByte([]byte("+-.0123456789eE"), s.b[n]) >= 0 {
		n++
	}
	d := s.b[:n]
	s.b = s.b[n:]
	return d
}

// int reads an integer as json.Marshal writes an int.
func (s *jsonScanner) int() int {
	d := s.number()
	if !s.ok {
		return 0
	}
	// No leading zero, no plus sign: what strconv would take but
	// encoding/json would refuse.
	digits := bytes.TrimPrefix(d, []byte("-"))
	if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') || digits[0] == '+' {
		s.ok = false
		return 0
	}
	v, err := strconv.Atoi(string(d))
	if err != nil {
		s.ok = false
	}
	return v
}

// float reads a number as json.Marshal writes a float64: an integer part
// without a leading zero, then an optional fraction and exponent.
func (s *jsonScanner) float() float64 {
	d := s.number()
	if !s.ok || !validJSONNumber(d) {
		s.ok = false
		return 0
	}
	v, err := strconv.ParseFloat(string(d), 64)
	if err != nil {
		s.ok = false
	}
	return v
}

// validJSONNumber reports whether d is a number in JSON's grammar.
func validJSONNumber(d []byte) bool {
	i := 0
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(d)
}
