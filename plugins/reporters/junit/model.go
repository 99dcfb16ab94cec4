package main

import "encoding/xml"

// The types below mirror the JUnit schema (junit-windyroad.xsd): element
// order inside a suite is fixed (properties, testcases, system-out,
// system-err) and all four are required, so none of them is omitted when
// empty. <testsuites> takes no attributes in that schema.

// testsuitesXML is the document root.
type testsuitesXML struct {
	XMLName xml.Name    `xml:"testsuites"`
	Suites  []*suiteXML `xml:"testsuite"`
}

// suiteXML is one <testsuite> inside <testsuites>.
type suiteXML struct {
	Name       string        `xml:"name,attr"`
	Tests      int           `xml:"tests,attr"`
	Failures   int           `xml:"failures,attr"`
	Errors     int           `xml:"errors,attr"`
	Skipped    int           `xml:"skipped,attr"`
	Time       string        `xml:"time,attr"`
	Timestamp  string        `xml:"timestamp,attr"`
	Hostname   string        `xml:"hostname,attr"`
	ID         int           `xml:"id,attr"`
	Package    string        `xml:"package,attr"`
	Properties propertiesXML `xml:"properties"`
	Cases      []caseXML     `xml:"testcase"`
	SystemOut  textXML       `xml:"system-out"`
	SystemErr  textXML       `xml:"system-err"`
}

// propertiesXML is the suite's <properties>; it is written even when empty
// because the schema requires it.
type propertiesXML struct {
	Property []propertyXML `xml:"property"`
}

// propertyXML is one name and value.
type propertyXML struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// caseXML is one <testcase>; at most one of its outcomes is set (the
// schema allows a single child).
type caseXML struct {
	Name      string     `xml:"name,attr"`
	Classname string     `xml:"classname,attr"`
	Time      string     `xml:"time,attr"`
	Skipped   *detailXML `xml:"skipped"`
	Error     *detailXML `xml:"error"`
	Failure   *detailXML `xml:"failure"`
}

// detailXML is a <failure>, <error> or <skipped> element: optional message
// and type attributes and a text body.
type detailXML struct {
	Message string
	Type    string
	Body    string
}

// MarshalXML writes the element with its body as character data, so line
// breaks in the body stay line breaks instead of becoming &#xA;.
func (d detailXML) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if d.Message != "" {
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "message"}, Value: d.Message})
	}
	if d.Type != "" {
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "type"}, Value: d.Type})
	}
	return encodeText(e, start, d.Body)
}

// textXML is an element holding only text, such as <system-err>.
type textXML string

// MarshalXML writes the text as character data, keeping line breaks.
func (t textXML) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	return encodeText(e, start, string(t))
}

// encodeText writes start, text and the matching end tag. The encoder
// escapes markup; the text must already be free of characters XML forbids.
func encodeText(e *xml.Encoder, start xml.StartElement, text string) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if text != "" {
		if err := e.EncodeToken(xml.CharData(text)); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}
