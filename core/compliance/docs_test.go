package compliance

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// docs/compliance.md has a row for every check, with its severity, and
// states how many there are.
func TestDocsListEveryCheck(t *testing.T) {
	b, err := os.ReadFile("../../docs/compliance.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, c := range All() {
		i := strings.Index(doc, "\n| "+c.ID+" |")
		if i < 0 {
			t.Errorf("%s has no row", c.ID)
			continue
		}
		row, _, _ := strings.Cut(doc[i+1:], "\n")
		if !strings.Contains(row, "| "+string(c.Severity)+" |") {
			t.Errorf("%s: the row does not give severity %s: %s", c.ID, c.Severity, row)
		}
	}
	if want := fmt.Sprintf("There are %d checks", len(All())); !strings.Contains(doc, want) {
		t.Errorf("docs/compliance.md does not say %q", want)
	}
}
