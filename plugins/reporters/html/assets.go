package main

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
)

// assets holds the page template, its stylesheet and its script. They are
// inlined into every report, which therefore loads nothing from anywhere.
//
//go:embed assets/report.html.tmpl assets/report.css assets/report.js
var assets embed.FS

// The inlined stylesheet and script, and the template that places them.
var (
	pageCSS  = mustRead("assets/report.css")
	pageJS   = mustRead("assets/report.js")
	pageTmpl = template.Must(template.New("report.html.tmpl").ParseFS(assets, "assets/report.html.tmpl"))
)

// contentPolicy is the page's Content-Security-Policy. Nothing may be
// fetched, and only the reporter's own stylesheet and script (pinned by
// their hashes) may run, so even markup that slipped past escaping could
// neither load a resource nor execute.
var contentPolicy = "default-src 'none'; img-src data:; style-src " + hashSource(pageCSS) +
	"; script-src " + hashSource(pageJS) + "; base-uri 'none'; form-action 'none'"

// hashSource is the CSP source expression that allows exactly text.
func hashSource(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func mustRead(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}
