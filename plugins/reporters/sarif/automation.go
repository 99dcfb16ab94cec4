package main

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// The run's automationDetails says which analysis the log belongs to.
// GitHub code scanning reads a category from its id (the part before the
// last /). GitHub Advanced Security for Azure DevOps ingests a log only
// when the id names the pipeline build that made it and four properties
// name the pipeline and its job, so inside an Azure Pipelines job the id
// and properties are taken from the job's predefined variables (the agent
// exports them to every step, and plugins inherit mcptest's environment).

// azurePrefix begins the automation id Azure DevOps expects.
const azurePrefix = "azuredevops/pipeline/build/"

// The automation properties Azure DevOps reads.
const (
	propBuildDefinitionID   = azurePrefix + "buildDefinitionId"
	propBuildDefinitionName = azurePrefix + "buildDefinitionName"
	propPhaseID             = azurePrefix + "phaseId"
	propPhaseName           = azurePrefix + "phaseName"
)

var guidRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

// automation returns the run's automation details: the Azure Pipelines
// build when getenv describes one completely, else the category "mcptest"
// with the run id as its instance.
func automation(run *report.Run, getenv func(string) string) *automationDetails {
	if d := azurePipeline(getenv); d != nil {
		return d
	}
	return &automationDetails{ID: driverName + "/" + strings.ReplaceAll(textsafe.CleanLineTrim(run.RunID), "/", "-")}
}

// azurePipeline reads the Azure Pipelines job from its predefined
// variables, or returns nil outside a job or when one is missing or
// malformed (a partial id would be refused at upload anyway).
func azurePipeline(getenv func(string) string) *automationDetails {
	env := func(names ...string) string {
		for _, n := range names {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return v
			}
		}
		return ""
	}
	if tf := strings.ToLower(env("TF_BUILD")); tf != "true" && tf != "1" {
		return nil
	}
	org := azureOrganization(env("SYSTEM_COLLECTIONURI"))
	project := env("SYSTEM_TEAMPROJECTID")
	definition := env("BUILD_DEFINITIONID", "SYSTEM_DEFINITIONID")
	definitionName := env("BUILD_DEFINITIONNAME")
	build := env("BUILD_BUILDID")
	phase := env("SYSTEM_PHASEID", "SYSTEM_JOBID")
	phaseName := env("SYSTEM_PHASENAME", "SYSTEM_JOBNAME")
	branch := env("BUILD_SOURCEBRANCH")
	if org == "" || !isGUID(project) || !positive(definition) || definitionName == "" || !positive(build) ||
		!isGUID(phase) || phaseName == "" || branch == "" {
		return nil
	}
	return &automationDetails{
		ID: azurePrefix + strings.Join([]string{org, project, definition, phase, branch, build}, "/"),
		Properties: map[string]string{
			propBuildDefinitionID:   definition,
			propBuildDefinitionName: definitionName,
			propPhaseID:             phase,
			propPhaseName:           phaseName,
		},
	}
}

// azureOrganization reads the organization from the collection URI:
// https://dev.azure.com/ORG/ or https://ORG.visualstudio.com/ (and their
// vsrm. forms).
func azureOrganization(collection string) string {
	u, err := url.Parse(collection)
	if err != nil || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "dev.azure.com" || host == "vsrm.dev.azure.com":
		first, _, _ := strings.Cut(strings.Trim(u.Path, "/"), "/")
		return first
	case strings.HasSuffix(host, ".visualstudio.com"):
		return strings.TrimSuffix(strings.TrimSuffix(host, ".visualstudio.com"), ".vsrm")
	}
	return ""
}

// isGUID reports a GUID in its 8-4-4-4-12 form, other than all zeros.
func isGUID(s string) bool {
	return guidRE().MatchString(s) && strings.Trim(s, "0-") != ""
}

// positive reports a positive decimal integer.
func positive(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0
}
