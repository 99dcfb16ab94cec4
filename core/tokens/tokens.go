// Package tokens counts the tokens of a response for the max_response_tokens
// budget of the long form of expect. A suite that names no tokenizer gets
// the documented approximation (Approx); a named tokenizer is a real BPE
// encoding, served by a tokenizer library with its vocabulary compiled in
// (no download at run time), when the build includes one.
package tokens

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Approx is the name of the approximation used when a suite names no
// tokenizer.
const Approx = "approx"

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
}

// ErrUnknown is wrapped when a tokenizer name is not one mcptest knows.
var ErrUnknown = errors.New("unknown tokenizer")

// ErrNotBuilt is wrapped when a tokenizer name is known but this build
// does not include the library that serves it.
var ErrNotBuilt = errors.New("tokenizer not included in this build")

// bpeNames are the real encodings mcptest knows by name. They are served
// only when a tokenizer library registers them (tiktoken.go).
var bpeNames = []string{"cl100k_base", "o200k_base", "p50k_base", "r50k_base"}

// registry holds the tokenizers this build serves, built on first use:
// a real encoding's vocabulary takes tens of milliseconds to load, and most
// runs never need one.
var registry = struct {
	sync.Mutex
	makers map[string]func() (Counter, error)
	made   map[string]*lazy
}{makers: map[string]func() (Counter, error){Approx: func() (Counter, error) { return approx{}, nil }}, made: map[string]*lazy{}}

// lazy is a tokenizer built at most once.
type lazy struct {
	once sync.Once
	c    Counter
	err  error
}

// register makes a tokenizer available by name.
func register(name string, mk func() (Counter, error)) {
	registry.Lock()
	defer registry.Unlock()
	registry.makers[name] = mk
}

// Normalize maps the name a suite writes to the tokenizer's: "" is Approx;
// case and dashes do not matter (O200K-base is o200k_base).
func Normalize(name string) string {
	if name == "" {
		return Approx
	}
	return strings.ReplaceAll(strings.ToLower(name), "-", "_")
}

// Check reports whether the named tokenizer can be used, without building
// it: nil, an error wrapping ErrNotBuilt, or one wrapping ErrUnknown.
func Check(name string) error {
	n := Normalize(name)
	registry.Lock()
	_, ok := registry.makers[n]
	registry.Unlock()
	switch {
	case ok:
		return nil
	case slices.Contains(bpeNames, n):
		return fmt.Errorf("%w: %s", ErrNotBuilt, n)
	}
	return fmt.Errorf("%w %q; known: %s", ErrUnknown, name, strings.Join(Names(), ", "))
}

// Lookup returns the named tokenizer, building it on first use.
func Lookup(name string) (Counter, error) {
	if err := Check(name); err != nil {
		return nil, err
	}
	n := Normalize(name)
	registry.Lock()
	l := registry.made[n]
	if l == nil {
		l = &lazy{}
		registry.made[n] = l
	}
	mk := registry.makers[n]
	registry.Unlock()
	l.once.Do(func() { l.c, l.err = mk() })
	if l.err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", n, l.err)
	}
	return l.c, nil
}

// Names lists every tokenizer name mcptest knows, served or not, sorted.
func Names() []string {
	out := append([]string{Approx}, bpeNames...)
	sort.Strings(out)
	return out
}
