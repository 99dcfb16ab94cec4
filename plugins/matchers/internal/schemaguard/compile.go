package schemaguard

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the address a schema is registered under. It only names
// the document inside the compiler (it shows in some compiler messages);
// nothing is ever loaded from it.
const schemaURL = "mcptest:schema-argument.json"

// compiles counts schema compilations in this process, so tests can check
// that a cache compiles each distinct schema once.
var compiles atomic.Int64

// Compiles returns how many schemas this process has compiled (for tests
// and diagnostics).
func Compiles() int64 { return compiles.Load() }

// Schema is a compiled schema ready to validate, with the gate its
// validations share (see validate.go). It is safe for concurrent use.
type Schema struct {
	schema *jsonschema.Schema
	gate   *gate
}

// Compile applies the guards to a JSON Schema given as JSON text and
// compiles it (draft 2020-12 unless it names another with $schema). In
// order: the nesting depth is capped at maxDepth on the raw text, before
// anything is decoded; a reference that does not start with "#" is
// refused (ErrSchemaExternalRef) before compiling; 2019-09 and 2020-12
// schemas are checked against their full metaschema; and the compiler's
// loader refuses every URL. Every error is a bug in the schema; the guard
// errors wrap their sentinels.
func Compile(raw []byte, maxDepth int) (*Schema, error) {
	compiles.Add(1)
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, fmt.Errorf("an inline JSON Schema is required")
	}
	// Depth first, on the raw text: a pathologically nested argument is
	// refused before the decoder or the compiler recurse into it.
	if err := checkDepth(raw, maxDepth); err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the argument is not valid JSON: %w", err)
	}
	if err := checkRefs(doc); err != nil {
		return nil, err
	}
	if err := checkMetaschema(doc); err != nil {
		return nil, err
	}
	g := &gate{}
	var refused string
	c := jsonschema.NewCompiler()
	// Pinned, not left to the library: its default "latest" could move.
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refusingLoader{refused: &refused})
	// The interrupt hook must run for every draft and dialect, so user
	// vocabularies are asserted even where the draft would not require it
	// (metaschema.go makes up for what that changes).
	c.RegisterVocabulary(interruptVocabulary(g))
	c.AssertVocabs()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("register the schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if refused != "" {
		// The walk above should have caught it; this is the backstop, for
		// example a $schema naming an unknown metaschema.
		return nil, fmt.Errorf("%w: the schema needs %q, and nothing outside the schema is ever loaded", ErrSchemaExternalRef, refused)
	}
	var sve *jsonschema.SchemaValidationError
	switch {
	case errors.As(err, &sve):
		// Rare after checkMetaschema, but the compiler also checks what
		// that cannot, such as each pattern being a valid regex.
		return nil, invalidSchema(sve.Err)
	case err != nil:
		return nil, fmt.Errorf("the schema does not compile: %w", err)
	}
	return &Schema{schema: sch, gate: g}, nil
}

// maxCachedSchemas bounds a Cache; schemas beyond it are compiled on every
// use (a suite rarely holds this many distinct inline schemas).
const maxCachedSchemas = 256

// Cache keeps compiled schemas by their JSON text. Concurrent first uses of
// one schema wait for a single compilation, and a schema that fails to
// compile is remembered with its error, so checking an argument and every
// later use report it without compiling again. It is safe for concurrent
// use.
type Cache struct {
	maxDepth int

	mu      sync.Mutex
	entries map[string]*cacheEntry
}

// cacheEntry is one schema, compiled at most once.
type cacheEntry struct {
	once sync.Once
	s    *Schema
	err  error
}

// NewCache returns an empty cache applying the given depth cap.
func NewCache(maxDepth int) *Cache {
	return &Cache{maxDepth: maxDepth, entries: make(map[string]*cacheEntry)}
}

// Get returns the compiled schema for the JSON text raw (see Compile).
func (sc *Cache) Get(raw []byte) (*Schema, error) {
	key := string(bytes.TrimSpace(raw))
	sc.mu.Lock()
	e, ok := sc.entries[key]
	if !ok {
		e = &cacheEntry{}
		if len(sc.entries) < maxCachedSchemas {
			sc.entries[key] = e
		}
	}
	sc.mu.Unlock()
	e.once.Do(func() { e.s, e.err = Compile(raw, sc.maxDepth) })
	return e.s, e.err
}
