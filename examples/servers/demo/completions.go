package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Completions: the travel prompt's arguments and the items template's id
// complete. The city depends on the country already chosen, which the
// client sends as context.arguments, so a test can check that the
// context really arrives.

// maxCompletionValues is the most values one answer may hold (the
// protocol's limit); past it, hasMore is set and total says how many.
const maxCompletionValues = 100

// itemCount is how many item ids the items template completes.
const itemCount = 250

// cities lists the travel prompt's cities by country code.
var cities = map[string][]string{
	"NO": {"Bergen", "Oslo", "Stavanger", "Tromsø", "Trondheim"},
	"SE": {"Gothenburg", "Malmö", "Stockholm", "Uppsala"},
	"DK": {"Aarhus", "Copenhagen", "Odense"},
}

// addTravelPrompt registers the travel prompt, whose arguments complete.
func addTravelPrompt(s *server.MCPServer) {
	s.AddPrompt(mcp.NewPrompt("travel",
		mcp.WithPromptDescription("Plans a trip to a city; its arguments complete."),
		mcp.WithArgument("country", mcp.RequiredArgument(), mcp.ArgumentDescription("Country code: NO, SE or DK")),
		mcp.WithArgument("city", mcp.RequiredArgument(), mcp.ArgumentDescription("A city of that country")),
	), travel)
}

func travel(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	country, city := req.Params.Arguments["country"], req.Params.Arguments["city"]
	if country == "" || city == "" {
		return nil, fmt.Errorf("travel needs a country and a city")
	}
	return mcp.NewGetPromptResult("Trip plan", []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(fmt.Sprintf("Plan three days in %s (%s).", city, country))),
	}), nil
}

// completer completes the travel prompt and the items template.
type completer struct{}

// CompletePromptArgument completes the travel prompt's country and city;
// a city is looked up in the country of the context, or in every country
// when the context has none.
func (completer) CompletePromptArgument(_ context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	if prompt != "travel" {
		return &mcp.Completion{Values: []string{}}, nil
	}
	var options []string
	switch arg.Name {
	case "country":
		for code := range cities {
			options = append(options, code)
		}
	case "city":
		if country, ok := cc.Arguments["country"]; ok {
			options = cities[strings.ToUpper(country)]
		} else {
			for _, cs := range cities {
				options = append(options, cs...)
			}
		}
	default:
		return nil, fmt.Errorf("travel has no argument %q", arg.Name)
	}
	return complete(options, arg.Value), nil
}

// CompleteResourceArgument completes the id of the items template: ids 1
// to itemCount, more than one answer may hold.
func (completer) CompleteResourceArgument(_ context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	if uri != itemsTemplate || arg.Name != "id" {
		return &mcp.Completion{Values: []string{}}, nil
	}
	ids := make([]string, itemCount)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return complete(ids, arg.Value), nil
}

// complete keeps the options that start with prefix (case-insensitively),
// sorted, at most maxCompletionValues of them.
func complete(options []string, prefix string) *mcp.Completion {
	var match []string
	for _, o := range options {
		if strings.HasPrefix(strings.ToLower(o), strings.ToLower(prefix)) {
			match = append(match, o)
		}
	}
	sort.Strings(match)
	c := &mcp.Completion{Values: match, Total: len(match)}
	if len(match) > maxCompletionValues {
		c.Values, c.HasMore = match[:maxCompletionValues], true
	}
	if c.Values == nil {
		c.Values = []string{}
	}
	return c
}
