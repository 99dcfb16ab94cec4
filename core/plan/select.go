package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/config"
)

// Selection picks the tests of a run from the command line: --tag,
// --skip-tag, --include, --exclude and --profile. The zero Selection keeps
// every test.
//
// A test is kept when all of these hold:
//   - with Tags, it has at least one of them (the flags are OR'd);
//   - it has none of SkipTags (a skip wins over a tag);
//   - with Include, its name matches at least one pattern;
//   - its name matches no Exclude pattern (an exclude wins);
//   - with a Profile, the test belongs to it: quick keeps tests marked
//     quick; standard keeps tests marked quick or standard and tests with
//     no profile; full keeps everything.
//
// Name patterns: a pattern with no *, ? or [ matches any name that
// contains it (case-sensitive); a pattern with one of them is a glob that
// must match the whole name, where * matches any run of characters
// (including / and spaces), ? one character and [...] a character class.
type Selection struct {
	Tags     []string
	SkipTags []string
	Include  []string
	Exclude  []string
	// Profile is quick, standard, full or "" (no profile filtering).
	Profile string

	include, exclude []*regexp.Regexp
}

// Active reports whether the selection can leave a test out.
func (s *Selection) Active() bool {
	return len(s.Tags)+len(s.SkipTags)+len(s.Include)+len(s.Exclude) > 0 ||
		s.Profile != "" && s.Profile != config.ProfileFull
}

// Compile checks the profile and the name patterns; Build calls it.
func (s *Selection) Compile() error {
	switch s.Profile {
	case "", config.ProfileQuick, config.ProfileStandard, config.ProfileFull:
	default:
		return fmt.Errorf("unknown profile %q: use quick, standard or full", s.Profile)
	}
	var err error
	if s.include, err = compilePatterns("--include", s.Include); err != nil {
		return err
	}
	s.exclude, err = compilePatterns("--exclude", s.Exclude)
	return err
}

// compilePatterns turns name patterns into regular expressions.
func compilePatterns(flag string, patterns []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(patterns))
	for _, p := range patterns {
		if p == "" {
			return nil, fmt.Errorf("%s: empty pattern", flag)
		}
		re, err := patternRegexp(p)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", flag, p, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// patternRegexp converts one name pattern (see Selection) to a regular
// expression.
func patternRegexp(p string) (*regexp.Regexp, error) {
	if !strings.ContainsAny(p, "*?[") {
		return regexp.MustCompile(regexp.QuoteMeta(p)), nil
	}
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [ in the pattern")
			}
			class := p[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			if class == "" || class == "^" {
				return nil, fmt.Errorf("empty [] in the pattern")
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`)$`)
	return regexp.Compile(b.String())
}

// keeps reports whether a test with this name, these tags and this profile
// is selected. Compile must have been called.
func (s *Selection) keeps(name string, tags []string, profile string) bool {
	if len(s.Tags) > 0 && !slices.ContainsFunc(s.Tags, func(t string) bool { return slices.Contains(tags, t) }) {
		return false
	}
	if slices.ContainsFunc(s.SkipTags, func(t string) bool { return slices.Contains(tags, t) }) {
		return false
	}
	if len(s.include) > 0 && !slices.ContainsFunc(s.include, func(re *regexp.Regexp) bool { return re.MatchString(name) }) {
		return false
	}
	if slices.ContainsFunc(s.exclude, func(re *regexp.Regexp) bool { return re.MatchString(name) }) {
		return false
	}
	switch s.Profile {
	case config.ProfileQuick:
		return profile == config.ProfileQuick
	case config.ProfileStandard:
		return profile != config.ProfileFull
	}
	return true
}

// Describe renders the selection for messages, e.g. "--tag smoke
// --profile standard".
func (s *Selection) Describe() string {
	var parts []string
	for _, t := range s.Tags {
		parts = append(parts, "--tag "+t)
	}
	for _, t := range s.SkipTags {
		parts = append(parts, "--skip-tag "+t)
	}
	for _, p := range s.Include {
		parts = append(parts, "--include "+p)
	}
	for _, p := range s.Exclude {
		parts = append(parts, "--exclude "+p)
	}
	if s.Profile != "" {
		parts = append(parts, "--profile "+s.Profile)
	}
	return strings.Join(parts, " ")
}
