package config

import (
	"sort"
	"strings"

	"github.com/mcptest/mcptest/internal/redact"
)

// credentialWords mark an env variable name as a credential: an env
// overlay of a scorer typically carries the grading service's API key
// (BRAINTRUST_API_KEY: ${BRAINTRUST_API_KEY}), which the scorer may echo
// in its reasoning or on stderr.
var credentialWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH"}

// ScorerSecrets returns the values of the scorer's env overlay whose
// names look like credentials (they contain KEY, TOKEN, SECRET, PASSWORD,
// CREDENTIAL or AUTH, in any case), sorted, for redaction. Values too
// short to mask are left out.
func ScorerSecrets(c *Scorer) []string {
	var out []string
	for name, v := range c.Env {
		if len(v) < redact.MinLen || !credentialName(name) {
			continue
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// credentialName reports whether an env variable name looks like it holds
// a credential.
func credentialName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range credentialWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}
