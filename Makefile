# mcptest build. `make demo` builds everything and runs the quickstart suite;
# `make test` runs the tests.
GO ?= go
BIN := bin
PLUGINS_DIR := $(BIN)/mcptest-plugins
PROTO_DIR := sdk/proto
PROTO_FILES := $(wildcard $(PROTO_DIR)/mcptest/plugin/v1/*.proto)

.PHONY: all build demo test test-race test-short vet fuzz-short bench bench-peer generate check-generate clean

all: build

build:
	$(GO) run ./plugins/internal/bundle -bin $(BIN)

demo: build
	$(BIN)/mcptest run examples/quickstart.yml

# The SDK (sdk/), the example plugins (examples/plugins/*) and our copy of
# jsonschema (third_party/jsonschema, see its NOTICE) are Go modules of their
# own, so the root module's ./... does not reach them.
SUB_MODULES := sdk $(patsubst %/go.mod,%,$(wildcard examples/plugins/*/go.mod)) third_party/jsonschema

test: build
	$(GO) test ./...
	for m in $(SUB_MODULES); do (cd $$m && $(GO) test ./...) || exit 1; done

# test-short is the quick check for every save (under a minute here): it
# builds no binaries and launches no browser. Tests that need either skip
# under -short with a message saying so (internal/testbin builds the test
# servers on demand); `make test` runs them all.
test-short:
	$(GO) test -short ./...
	for m in $(SUB_MODULES); do (cd $$m && $(GO) test -short ./...) || exit 1; done

# test-race runs the packages whose code is concurrent (plugin host,
# sessions and their wires, cassette replay, the runner, judging, report
# writing, the shared internals, the SDK, and the first use of the lazily
# compiled meta-schemas in third_party/jsonschema) under the race detector.
RACE_PKGS := ./core/plugin ./core/session/... ./core/cassette/... ./core/budget ./core/run ./core/assert ./core/report ./internal/...
test-race:
	$(GO) test -race -count=1 $(RACE_PKGS)
	cd sdk && $(GO) test -race -count=1 ./...
	cd third_party/jsonschema && $(GO) test -race -count=1 -run 'MetaSchemas|Concurrent' .

# vet checks the root module and each separate one.
vet:
	$(GO) vet ./...
	for m in $(SUB_MODULES); do (cd $$m && $(GO) vet ./...) || exit 1; done

# fuzz-short runs each fuzz target briefly; the loader must never panic,
# whatever bytes it is given, and reading a large suite item by item must
# give what the whole parse gives (and its quick reader what yaml.v3
# gives). Long runs: raise -fuzztime.
fuzz-short:
	$(GO) test -run '^$$' -fuzz FuzzLoad -fuzztime 10s ./core/config
	$(GO) test -run '^$$' -fuzz FuzzSplitMatchesWhole -fuzztime 10s ./core/config
	$(GO) test -run '^$$' -fuzz FuzzFastItemsMatchYAML -fuzztime 10s ./core/config

# bench checks the performance budgets of DESIGN.md against floors measured
# in the same run and prints verdicts; see bench/run.sh.
bench: build
	GO="$(GO)" bash bench/run.sh

# bench-peer times mcptest next to mcp-assert 0.12.3 (from .ci/npm) on the
# demo server and server-everything; the figures of docs/toolkit.md.
bench-peer: build
	bash bench/peer.sh

generate:
	protoc -I $(PROTO_DIR) \
		--plugin=protoc-gen-go=$$($(GO) tool -n protoc-gen-go) \
		--plugin=protoc-gen-go-grpc=$$($(GO) tool -n protoc-gen-go-grpc) \
		--go_out=$(PROTO_DIR) --go_opt=paths=source_relative \
		--go-grpc_out=$(PROTO_DIR) --go-grpc_opt=paths=source_relative \
		$(patsubst $(PROTO_DIR)/%,%,$(PROTO_FILES))

# check-generate fails when the committed generated code is stale.
check-generate: generate
	git diff --exit-code -- $(PROTO_DIR)

clean:
	rm -rf $(BIN)
