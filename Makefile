# hecscope: a viewer for GHC eventlogs. `make run` and `make test` do all set-up
# on a fresh Debian machine (run as root, or with sudo available).

GO      ?= go
SAMPLE  ?= testdata/corpus/ghc-events__ghc-9.2-events.eventlog
APT_PKGS := gcc pkg-config libgl1-mesa-dev xorg-dev libgtk-3-dev xvfb
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run test deps vet fmt bench fuzz clean

all: build

# deps installs the apt packages cgo needs (only those missing) and the Go modules.
deps:
	@missing=""; for p in $(APT_PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	$(GO) mod download

build: deps
	$(GO) build -o bin/hecscope ./cmd/hecscope

run: build
	./bin/hecscope summary $(SAMPLE)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

test: deps vet
	$(GO) test -race -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
