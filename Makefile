# hecscope: a viewer for GHC eventlogs. `make run` and `make test` do all set-up
# on a fresh Debian machine (run as root, or with sudo available).

GO      ?= go
SAMPLE  ?= testdata/ghc-9.0.2/parwork-N2.eventlog
APT_PKGS := gcc pkg-config libgl1-mesa-dev libgl1-mesa-dri xorg-dev libgtk-3-dev xvfb imagemagick
# test also needs Debian's GHC 9.0.2 and the parallel library that the test
# programs import (testdata/haskell): the live tests build real GHC programs
# and watch them (TestGHCSocket against the eventlog-socket imitation,
# TestLiveGHCProgramThroughFIFO through a FIFO), and skip where ghc is
# absent. Only test installs them (~73 MB download, ~780 MB installed), so
# that run stays light.
TEST_PKGS := ghc libghc-parallel-dev
# install also needs the desktop databases' tools.
INSTALL_PKGS := xdg-utils shared-mime-info desktop-file-utils
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run test deps apt vet bench clean install

all: build

# deps installs the apt packages cgo needs, and Xvfb, Mesa and ImageMagick for
# the test that screenshots the real window (only those missing), and the Go
# modules.
deps:
	@$(MAKE) --no-print-directory apt PKGS="$(APT_PKGS)"
	$(GO) mod download

# apt installs those of PKGS that are missing.
apt:
	@missing=""; for p in $(PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# hecscope (the commands, and the launcher of the app) is built without cgo: a
# static program that starts in ~2 ms and runs on machines without any
# desktop libraries. The app, hecscope-gui, links Fyne (OpenGL, X11),
# without Fyne's bundled colour-emoji font (no_emoji): every text style
# parsed its 4 MB again, 21 MB of the window's resident memory and 0.1 s of
# its start; a glyph the fonts lack still comes from the system's fonts.
# hecscope-chooser shows GTK's file chooser for the app on Linux: linked
# into the app, its library started GTK at every start of the window (64 ms).
GUI_TAGS ?= no_emoji
build: deps
	CGO_ENABLED=0 $(GO) build -o bin/hecscope ./cmd/hecscope
	$(GO) build -tags '$(GUI_TAGS)' -o bin/hecscope-gui ./cmd/hecscope-gui
	$(GO) build -o bin/hecscope-chooser ./cmd/hecscope-chooser

# run opens the app on a bundled sample: a GHC 9.0.2 run with two capabilities.
run: build
	./bin/hecscope $(SAMPLE)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

# The memory tests run again without -race: the race detector's shadow
# memory makes a resident set no measure of what the code holds. So does the
# live test against a real GHC program, whose streams are too big for it.
test: deps vet
	@$(MAKE) --no-print-directory apt PKGS="$(TEST_PKGS)"
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run 'Residency' ./ingest/
	$(GO) test -count=1 -run 'TestGHCSocket' ./live/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# install installs hecscope for the current user (PREFIX=~/.local): the programs,
# the icon, the desktop entry and the GHC eventlog MIME type, then refreshes
# the desktop databases and makes hecscope the default application for
# eventlogs and .hp heap profiles, so that double-clicking one opens it.
PREFIX ?= $(HOME)/.local
install: build
	@$(MAKE) --no-print-directory apt PKGS="$(INSTALL_PKGS)"
	install -Dm755 bin/hecscope $(PREFIX)/bin/hecscope
	install -Dm755 bin/hecscope-gui $(PREFIX)/bin/hecscope-gui
	install -Dm755 bin/hecscope-chooser $(PREFIX)/bin/hecscope-chooser
	install -Dm644 assets/hecscope.png $(PREFIX)/share/icons/hicolor/256x256/apps/hecscope.png
	install -Dm644 assets/hecscope-512.png $(PREFIX)/share/icons/hicolor/512x512/apps/hecscope.png
	install -Dm644 assets/hecscope.svg $(PREFIX)/share/icons/hicolor/scalable/apps/hecscope.svg
	install -Dm644 assets/hecscope-mime.xml $(PREFIX)/share/mime/packages/hecscope.xml
	mkdir -p $(PREFIX)/share/applications
	sed 's|^Exec=hecscope|Exec=$(PREFIX)/bin/hecscope|; s|^TryExec=hecscope|TryExec=$(PREFIX)/bin/hecscope|' \
	  assets/hecscope.desktop > $(PREFIX)/share/applications/hecscope.desktop
	update-mime-database $(PREFIX)/share/mime
	update-desktop-database $(PREFIX)/share/applications
	-gtk-update-icon-cache -q -t -f $(PREFIX)/share/icons/hicolor
	xdg-mime default hecscope.desktop application/x-ghc-eventlog application/x-ghc-heap-profile

clean:
	rm -rf bin
