package main

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeReport writes the run as an indented JUnit XML document, with an
// XML declaration and a trailing newline, to the primary sink.
func writeReport(_ context.Context, s *sdk.RenderSession, run *report.Run) error {
	return encode(s.Primary, buildDocument(run))
}

// encode writes doc as XML.
func encode(w io.Writer, doc *testsuitesXML) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode junit report: %w", err)
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
