package yamlpos

import (
	"encoding/json"

	"gopkg.in/yaml.v3"
)

// Reader holds the state of the YAML layer while reading one file: the
// errors found, and the caches and guards of merge keys, aliases and the
// YAML to JSON conversion.
type Reader struct {
	// C collects the errors and warnings of the file; readers that find
	// a problem add it here and return ok false.
	C Collector

	// merge keys: entries of each merge source, and the sources being
	// expanded (cycle detection).
	merged    map[*yaml.Node][]Entry
	expanding map[*yaml.Node]bool

	// YAML to JSON: the JSON of each alias target (nil when it failed),
	// the targets being converted (cycle detection), a scratch buffer and
	// whether the current conversion failed.
	jsonMemo   map[*yaml.Node]json.RawMessage
	jsonActive map[*yaml.Node]bool
	buf        []byte
	jfailed    bool

	// recursive readers: the values being read, and the aliases followed.
	reading      map[*yaml.Node]bool
	aliasFollows int
}

// NewReader returns the reader of one file; file names it in errors.
func NewReader(file string) *Reader {
	return &Reader{
		C:          Collector{File: file},
		merged:     map[*yaml.Node][]Entry{},
		expanding:  map[*yaml.Node]bool{},
		jsonMemo:   map[*yaml.Node]json.RawMessage{},
		jsonActive: map[*yaml.Node]bool{},
		reading:    map[*yaml.Node]bool{},
	}
}
