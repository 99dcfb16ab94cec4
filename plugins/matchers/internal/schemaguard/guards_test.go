package schemaguard

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard/guardtest"
)

// TestDepthCheckedBeforeCompile shows the depth guard wins over the others:
// a schema both too deep and external is reported as too deep, and one too
// deep to decode safely is never decoded.
func TestDepthCheckedBeforeCompile(t *testing.T) {
	deepAndExternal := strings.Repeat(`{"items":`, 70) + `{"$ref":"https://x"}` + strings.Repeat(`}`, 70)
	_, err := Compile([]byte(deepAndExternal), DefaultMaxDepth)
	if !errors.Is(err, ErrSchemaTooDeep) || errors.Is(err, ErrSchemaExternalRef) {
		t.Errorf("error %v, want only ErrSchemaTooDeep", err)
	}
	// Not even valid JSON: refused on depth alone, before decoding.
	_, err = Compile([]byte(strings.Repeat("[", 100000)), DefaultMaxDepth)
	if !errors.Is(err, ErrSchemaTooDeep) {
		t.Errorf("error %v, want ErrSchemaTooDeep", err)
	}
	if _, err := Compile([]byte(guardtest.Nested(64)), DefaultMaxDepth); err != nil {
		t.Errorf("depth 64: %v", err)
	}
}

// TestGuardErrorsAreDistinct checks each guard has its own sentinel.
func TestGuardErrorsAreDistinct(t *testing.T) {
	_, ext := Compile([]byte(`{"$ref":"https://x"}`), DefaultMaxDepth)
	_, deep := Compile([]byte(guardtest.Nested(65)), DefaultMaxDepth)
	for _, tc := range []struct {
		err        error
		is, isNot1 error
		isNot2     error
	}{
		{ext, ErrSchemaExternalRef, ErrSchemaTooDeep, ErrSchemaValidationTimedOut},
		{deep, ErrSchemaTooDeep, ErrSchemaExternalRef, ErrSchemaValidationTimedOut},
	} {
		if !errors.Is(tc.err, tc.is) || errors.Is(tc.err, tc.isNot1) || errors.Is(tc.err, tc.isNot2) {
			t.Errorf("%v: wrong sentinel", tc.err)
		}
	}
}

func TestPointer(t *testing.T) {
	if got := Pointer([]string{"a/b", "~c", "0"}); got != "/a~1b/~0c/0" {
		t.Errorf("Pointer = %q", got)
	}
	if got := Pointer(nil); got != "" {
		t.Errorf("Pointer(nil) = %q", got)
	}
}
