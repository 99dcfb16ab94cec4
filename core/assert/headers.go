package assert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcptest/mcptest/core/config"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Response header checks (response_headers, response_headers_absent) judge
// the HTTP response to the test's call on a URL server. Planning refuses
// them for other servers. Names match case-insensitively; a header sent
// several times is judged on its values joined with ", ", as HTTP allows.

// headerSchemas caches compiled header schemas by check, so a check shared
// through defaultTest compiles once per run.
var headerSchemas sync.Map // *config.HeaderCheck -> *headerSchema

type headerSchema struct {
	once sync.Once
	s    *jsonschema.Schema
	err  error
}

// compileHeaderSchema compiles the schema of a header check. Nothing
// outside the schema is ever loaded: a $ref must be a fragment of the
// schema itself.
func compileHeaderSchema(h *config.HeaderCheck) (*jsonschema.Schema, error) {
	v, _ := headerSchemas.LoadOrStore(h, &headerSchema{})
	hs := v.(*headerSchema)
	hs.once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(h.Schema))
		if err != nil {
			hs.err = fmt.Errorf("the schema is not valid JSON: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.UseLoader(noLoader{})
		const url = "mcptest:header-schema.json"
		if err := c.AddResource(url, doc); err != nil {
			hs.err = fmt.Errorf("register the schema: %w", err)
			return
		}
		hs.s, hs.err = c.Compile(url)
	})
	return hs.s, hs.err
}

// noLoader refuses every external document.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("refused to load %s: a header schema can only refer to itself", url)
}

// headerValue is the header's value and whether it was sent at all.
func headerValue(h http.Header, name string) (string, bool) {
	vs := h.Values(name)
	if len(vs) == 0 {
		return "", false
	}
	return strings.Join(vs, ", "), true
}

// checkHeader judges one response_headers entry.
func checkHeader(hdr http.Header, h *config.HeaderCheck) (rpt.Status, json.RawMessage, error) {
	value, present := headerValue(hdr, h.Name)
	actual := any(nil)
	if present {
		actual = value
	}
	fail := func(expected any, note string, extra ...any) (rpt.Status, json.RawMessage, error) {
		f := map[string]any{"expected": expected, "actual": actual, "note": note}
		for i := 0; i+1 < len(extra); i += 2 {
			f[extra[i].(string)] = extra[i+1]
		}
		b, _ := json.Marshal(f)
		return rpt.StatusFailed, b, nil
	}
	missing := fmt.Sprintf("the response has no %s header", h.Name)
	switch {
	case h.Exists != nil:
		if present == *h.Exists {
			return rpt.StatusPassed, nil, nil
		}
		if *h.Exists {
			return fail("present", missing)
		}
		return fail("absent", fmt.Sprintf("the %s header is present; it must not be", h.Name))
	case h.Equals != nil:
		if present && value == *h.Equals {
			return rpt.StatusPassed, nil, nil
		}
		if !present {
			return fail(*h.Equals, missing)
		}
		return fail(*h.Equals, fmt.Sprintf("the %s header differs", h.Name))
	case h.Contains != "":
		if present && strings.Contains(value, h.Contains) {
			return rpt.StatusPassed, nil, nil
		}
		if !present {
			return fail(h.Contains, missing)
		}
		return fail(h.Contains, fmt.Sprintf("the %s header does not contain the text", h.Name))
	case h.Regex != "":
		re, err := regexp.Compile(h.Regex)
		if err != nil {
			return rpt.StatusErrored, nil, fmt.Errorf("invalid regex %q: %w", h.Regex, err)
		}
		if present && re.MatchString(value) {
			return rpt.StatusPassed, nil, nil
		}
		if !present {
			return fail(h.Regex, missing, "match", nil)
		}
		return fail(h.Regex, fmt.Sprintf("the %s header does not match", h.Name), "match", nil)
	case h.Schema != nil:
		sch, err := compileHeaderSchema(h)
		if err != nil {
			return rpt.StatusErrored, nil, fmt.Errorf("the schema of the %s header check: %w", h.Name, err)
		}
		if !present {
			return fail(h.Schema, missing)
		}
		err = sch.Validate(value)
		var ve *jsonschema.ValidationError
		switch {
		case err == nil:
			return rpt.StatusPassed, nil, nil
		case errors.As(err, &ve):
			return fail(h.Schema, fmt.Sprintf("the %s header does not satisfy the schema: %s", h.Name, firstCause(ve)))
		}
		return rpt.StatusErrored, nil, fmt.Errorf("validate the %s header: %w", h.Name, err)
	}
	// The loader guarantees one predicate; a contains of "" lands here.
	if present {
		return rpt.StatusPassed, nil, nil
	}
	return fail(h.Contains, missing)
}

// checkHeaderAbsent judges one response_headers_absent entry.
func checkHeaderAbsent(hdr http.Header, name string) (rpt.Status, json.RawMessage) {
	value, present := headerValue(hdr, name)
	if !present {
		return rpt.StatusPassed, nil
	}
	b, _ := json.Marshal(map[string]any{"expected": "absent", "actual": value,
		"note": fmt.Sprintf("the %s header is present; it must not be", name)})
	return rpt.StatusFailed, b
}

// firstCause is the innermost message of a validation error.
func firstCause(ve *jsonschema.ValidationError) string {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	loc := "/" + strings.Join(ve.InstanceLocation, "/")
	return strings.TrimSpace(fmt.Sprintf("%s at %s", ve.ErrorKind.LocalizedString(schemaPrinter), loc))
}

// schemaPrinter renders validation messages in English.
var schemaPrinter = message.NewPrinter(language.English)
