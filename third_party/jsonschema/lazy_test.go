package jsonschema

// mcptest addition: tests of the lazy meta-schema compilation (see
// Draft.metaSchemas and NOTICE).

import (
	"os"
	"strings"
	"sync"
	"testing"
)

var allDrafts = []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}

// compiledAtStart records, once every package init has run and before any
// test, which drafts already had their meta-schema compiled.
var compiledAtStart []string

func TestMain(m *testing.M) {
	for _, d := range allDrafts {
		if d.sch != nil || d.vocabMetas != nil {
			compiledAtStart = append(compiledAtStart, d.url)
		}
	}
	os.Exit(m.Run())
}

// Importing the package must not compile any meta-schema: upstream did all
// five drafts in init, which cost every importing program milliseconds.
func TestMetaSchemasNotCompiledAtInit(t *testing.T) {
	if len(compiledAtStart) > 0 {
		t.Fatalf("meta-schemas compiled before any use: %v", compiledAtStart)
	}
}

// freshDraft copies d's static description into a Draft whose meta-schemas
// have not been compiled, so a test can watch a first use happen.
func freshDraft(d *Draft) *Draft {
	return &Draft{
		version:       d.version,
		url:           d.url,
		id:            d.id,
		subschemas:    d.subschemas,
		vocabPrefix:   d.vocabPrefix,
		allVocabs:     d.allVocabs,
		defaultVocabs: d.defaultVocabs,
	}
}

// Many goroutines asking for the same draft's meta-schemas at once all get
// the one compiled set (run under -race to check the synchronisation).
func TestMetaSchemasConcurrentFirstUse(t *testing.T) {
	for _, orig := range allDrafts {
		d := freshDraft(orig)
		const n = 8
		schs := make([]*Schema, n)
		vocabs := make([]map[string]*Schema, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				schs[i], vocabs[i] = d.metaSchemas()
			}(i)
		}
		wg.Wait()
		for i := 0; i < n; i++ {
			if schs[i] == nil || schs[i] != schs[0] {
				t.Fatalf("%s: goroutine %d got meta-schema %p, goroutine 0 %p", d.url, i, schs[i], schs[0])
			}
			if len(vocabs[i]) != len(d.allVocabs) {
				t.Fatalf("%s: goroutine %d got %d vocab schemas, want %d", d.url, i, len(vocabs[i]), len(d.allVocabs))
			}
			for name := range d.allVocabs {
				if vocabs[i][name] == nil || vocabs[i][name] != vocabs[0][name] {
					t.Fatalf("%s: vocab %q differs between goroutines", d.url, name)
				}
			}
		}
		if !strings.HasPrefix(schs[0].Location, d.url) {
			t.Fatalf("%s: meta-schema location %q", d.url, schs[0].Location)
		}
	}
}

// Compiling user schemas of every draft concurrently, as the first use of
// each draft in a fresh process would, gives working validators; the meta
// check still rejects an invalid schema.
func TestConcurrentCompileAcrossDrafts(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 2*len(allDrafts))
	for _, d := range allDrafts {
		wg.Add(1)
		go func(d *Draft) {
			defer wg.Done()
			c := NewCompiler()
			if err := c.AddResource("mem://ok.json", map[string]any{"$schema": d.url + "#", "type": "integer"}); err != nil {
				errs <- err.Error()
				return
			}
			sch, err := c.Compile("mem://ok.json")
			if err != nil {
				errs <- d.url + ": " + err.Error()
				return
			}
			if sch.Validate(float64(1)) != nil || sch.Validate("x") == nil {
				errs <- d.url + ": type integer not enforced"
			}
			c = NewCompiler()
			if err := c.AddResource("mem://bad.json", map[string]any{"$schema": d.url + "#", "type": 12}); err != nil {
				errs <- err.Error()
				return
			}
			if _, err := c.Compile("mem://bad.json"); err == nil {
				errs <- d.url + ": a schema with type 12 compiled"
			}
		}(d)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
