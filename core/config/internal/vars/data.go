package vars

import (
	"regexp"
	"strings"
	"sync"
)

// DataPrefix starts a data row reference: ${data.FIELD}. Load-time
// interpolation keeps such references as written (a dotted name, see
// Expand); the loader replaces them once per row of the test's data.
const DataPrefix = "${data."

// dataRef matches one data row reference: ${data.FIELD} or
// ${data.FIELD.SUB...}, a path into the row's nested objects.
var dataRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{data\.([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_0-9-]+)*)\}`)
})

// DataRef is one ${data.PATH} reference in a string.
type DataRef struct {
	// Start and End delimit the reference in the string.
	Start, End int
	// Path is the field path, split at the dots.
	Path []string
}

// DataRefs returns the data row references of s, in order. Like a
// capture, a string that is one reference and nothing else takes the
// field's value whatever its type (Whole); a reference inside longer text
// takes the value's text.
func DataRefs(s string) (refs []DataRef, whole bool) {
	if !strings.Contains(s, DataPrefix) {
		return nil, false
	}
	for _, loc := range dataRef().FindAllStringSubmatchIndex(s, -1) {
		refs = append(refs, DataRef{Start: loc[0], End: loc[1], Path: strings.Split(s[loc[2]:loc[3]], ".")})
	}
	return refs, len(refs) == 1 && refs[0].Start == 0 && refs[0].End == len(s)
}

// ReplaceDataRefs rebuilds s with each reference replaced by the text
// value returns for it.
func ReplaceDataRefs(s string, refs []DataRef, value func(DataRef) string) string {
	var b strings.Builder
	last := 0
	for _, r := range refs {
		b.WriteString(s[last:r.Start])
		b.WriteString(value(r))
		last = r.End
	}
	b.WriteString(s[last:])
	return b.String()
}
