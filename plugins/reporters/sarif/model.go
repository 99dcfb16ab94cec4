package main

// The types below are the part of SARIF 2.1.0 this reporter writes; field
// names follow the specification's JSON names.

// sarifLog is the document root.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

// sarifRun is one run of one tool.
type sarifRun struct {
	Tool tool `json:"tool"`
	// AutomationDetails names the analysis; code scanning services group
	// the runs of one analysis by the part of its id before the last /.
	AutomationDetails  *automationDetails          `json:"automationDetails,omitempty"`
	Invocations        []invocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]artifactLocation `json:"originalUriBaseIds,omitempty"`
	// Results is [] rather than null when nothing was found: null would
	// mean the analysis did not produce results at all.
	Results    []result       `json:"results"`
	ColumnKind string         `json:"columnKind,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
}

// automationDetails is a runAutomationDetails: "category/instance".
type automationDetails struct {
	ID         string            `json:"id"`
	Properties map[string]string `json:"properties,omitempty"`
}

// tool describes the analysis tool.
type tool struct {
	Driver driver `json:"driver"`
}

// driver is the tool component that produced the results.
type driver struct {
	Name           string       `json:"name"`
	FullName       string       `json:"fullName,omitempty"`
	Version        string       `json:"version,omitempty"`
	InformationURI string       `json:"informationUri,omitempty"`
	Rules          []descriptor `json:"rules"`
	Notifications  []descriptor `json:"notifications,omitempty"`
}

// descriptor is a reportingDescriptor: a rule, or a kind of notification.
type descriptor struct {
	ID string `json:"id"`
	// Name is a PascalCase identifier for the rule, as SARIF recommends
	// and GitHub Advanced Security for Azure DevOps requires.
	Name                 string         `json:"name,omitempty"`
	ShortDescription     *message       `json:"shortDescription,omitempty"`
	FullDescription      *message       `json:"fullDescription,omitempty"`
	Help                 *helpText      `json:"help,omitempty"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration *configuration `json:"defaultConfiguration,omitempty"`
	Properties           map[string]any `json:"properties,omitempty"`
}

// helpText is a multiformatMessageString. Only its plain text is
// written: check titles come from outside and may hold characters that
// Markdown would read as markup.
type helpText struct {
	Text string `json:"text"`
}

// configuration is a reportingConfiguration.
type configuration struct {
	Level string `json:"level"`
}

// message is plain text.
type message struct {
	Text string `json:"text"`
}

// invocation describes how the run went.
type invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ExitCode                   int            `json:"exitCode"`
	StartTimeUTC               string         `json:"startTimeUtc,omitempty"`
	EndTimeUTC                 string         `json:"endTimeUtc,omitempty"`
	ToolExecutionNotifications []notification `json:"toolExecutionNotifications,omitempty"`
}

// notification reports a problem of the tool itself.
type notification struct {
	Level      string         `json:"level"`
	Message    message        `json:"message"`
	Descriptor *descriptorRef `json:"descriptor,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
}

// descriptorRef points at a descriptor of the driver.
type descriptorRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

// result is one finding.
type result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Kind                string            `json:"kind"`
	Level               string            `json:"level"`
	Message             message           `json:"message"`
	Locations           []location        `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

// location says where a finding is, physically and logically.
type location struct {
	PhysicalLocation *physicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []logicalLocation `json:"logicalLocations,omitempty"`
}

// physicalLocation is a file and a region in it.
type physicalLocation struct {
	ArtifactLocation artifactLocation `json:"artifactLocation"`
	Region           *region          `json:"region,omitempty"`
}

// artifactLocation is a file, relative to a base URI when URIBaseID is
// set.
type artifactLocation struct {
	URI         string   `json:"uri,omitempty"`
	URIBaseID   string   `json:"uriBaseId,omitempty"`
	Description *message `json:"description,omitempty"`
}

// region is a position in a file; lines and columns are 1-based.
type region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// logicalLocation names the test a finding belongs to.
type logicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
}
