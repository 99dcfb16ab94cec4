package httpwire

import (
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// TestExcerptMaskedBeforeTheCut: an error body excerpt leaves no prefix of
// a secret that straddles the excerpt's limit.
func TestExcerptMaskedBeforeTheCut(t *testing.T) {
	const secret = "Q7-body-secret-0042"
	body := strings.Repeat("x", excerptLimit-5) + secret + " tail"
	got := excerpt([]byte(body), wire.NewRedactor([]string{secret}, nil))
	if strings.Contains(got, "Q7-b") || !strings.HasSuffix(got, "…") {
		t.Errorf("excerpt ends %q", got[len(got)-20:])
	}
}
