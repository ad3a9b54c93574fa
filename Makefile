# Easel's build. `make run` and `make test` are the two set-up commands of
# README: each installs what is missing on a Debian/Ubuntu machine (apt-get,
# with sudo when not root; nothing when it is all there), then does its job.

SHELL       := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := /usr/local/go/bin:$(HOME)/go/bin:$(PATH)
export GOTOOLCHAIN ?= auto
export LANG ?= C.UTF-8

BIN         := bin/easel
BARE        := bin/barewindow
RACE_BIN    := bin/easel-race
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
XVFB        := xvfb-run -a -s "-screen 0 1400x900x24"
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
PRISM_VER   := 5.14.2
PRISM       := .cache/prism/node_modules/.bin/prism
FYNE_TOOL   := fyne.io/tools/cmd/fyne@v1.7.4
APP_ID      := dev.easel.app
DIST        := dist
PACKAGE     := $(DIST)/easel-linux-amd64.tar.xz
# What the package holds, unpacked beside it; the real-window tests run
# this release binary, the one users get.
PKG_ROOT    := $(DIST)/easel/usr/local
RELEASE_BIN := $(PKG_ROOT)/bin/easel

# Debian packages: to build (Fyne's OpenGL and X11 headers), and to test
# (a virtual display and input — the tests read pixels over X11 themselves —
# a real Secret Service, the drag source's GTK, Node.js for the
# spec-validating proxy).
BUILD_PKGS := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
              libwayland-dev libxkbcommon-dev wayland-protocols \
              libxinerama-dev libxi-dev libxxf86vm-dev
TEST_PKGS  := xvfb xauth xdotool libgl1-mesa-dri gnome-keyring dbus \
              dbus-x11 libsecret-tools python3-gi gir1.2-gtk-3.0 desktop-file-utils
# The tarball is xz-compressed, as fyne package makes it.
PKG_PKGS   := xz-utils

# Packages whose tests need no display and no cgo OpenGL: everything but
# the two binaries that open windows and the real-window tests.
UNIT_PKGS = $$(go list ./... | grep -v -x -e easel -e easel/bench/barewindow -e easel/e2e)

.PHONY: run test build demo unit keyring e2e bench lint screenshot package install uninstall deps-build deps-test deps-go deps-node clean

run: build
	./$(BIN)

demo: build
	./$(BIN) --demo

build: deps-build deps-go
	go build -o $(BIN) .

test: deps-build deps-test deps-go deps-node
	$(MAKE) --no-print-directory unit
	$(MAKE) --no-print-directory keyring
	$(MAKE) --no-print-directory e2e

# The release package, with Fyne's own tool: a stripped -trimpath build
# with Fyne's release tags, the .desktop entry (FyneApp.toml: "Open with
# Easel" for PNG, JPEG and WebP) and the icon, in a tarball, also unpacked
# beside it. fyne package raises the build number in FyneApp.toml each
# time; the file is put back, so packaging changes nothing in the tree.
package: deps-build deps-go
	@$(call ensure_pkgs,$(PKG_PKGS))
	rm -rf $(DIST) && mkdir -p $(DIST)
	cp FyneApp.toml $(DIST)/FyneApp.toml.orig
	go run $(FYNE_TOOL) package -os linux -release || { cp $(DIST)/FyneApp.toml.orig FyneApp.toml; exit 1; }
	cp $(DIST)/FyneApp.toml.orig FyneApp.toml && rm $(DIST)/FyneApp.toml.orig
	mv Easel.tar.xz $(PACKAGE)
	tar -xJf $(PACKAGE) -C $(DIST)

# For the current user: the binary in ~/.local/bin, the menu entry in
# ~/.local/share/applications (its Exec pointing at that binary, as
# ~/.local/bin may not be on a launcher's PATH), the icon in the hicolor
# theme. uninstall removes exactly these three files.
INSTALLED := $(HOME)/.local/bin/easel $(HOME)/.local/share/applications/$(APP_ID).desktop \
             $(HOME)/.local/share/icons/hicolor/512x512/apps/$(APP_ID).png

install:
	@[ -x $(RELEASE_BIN) ] || $(MAKE) --no-print-directory package
	install -Dm755 $(RELEASE_BIN) $(HOME)/.local/bin/easel
	install -Dm644 $(PKG_ROOT)/share/applications/$(APP_ID).desktop $(HOME)/.local/share/applications/$(APP_ID).desktop
	sed -i 's|^Exec=easel |Exec=$(HOME)/.local/bin/easel |' $(HOME)/.local/share/applications/$(APP_ID).desktop
	install -Dm644 $(PKG_ROOT)/share/pixmaps/$(APP_ID).png $(HOME)/.local/share/icons/hicolor/512x512/apps/$(APP_ID).png

uninstall:
	rm -f $(INSTALLED)

# PRISM lets the conformance test send the client's requests through a
# proxy that validates them, and fakeapi's answers, against the spec.
unit:
	PRISM=$(abspath $(PRISM)) go test -race -count=1 $(UNIT_PKGS)

# The keyring tests talk to a real Secret Service: a private D-Bus session
# with gnome-keyring, its keyrings in a fresh folder, unlocked by a
# throw-away password.
WITH_KEYRING := dbus-run-session -- bash -c 'printf easel-test | XDG_DATA_HOME=$$(mktemp -d) gnome-keyring-daemon --unlock --components=secrets >/dev/null && "$$0" "$$@"'

keyring:
	$(WITH_KEYRING) go test -race -count=1 -tags keyring -run Keyring ./internal/secrets/ ./internal/cli/

# The real-window tests also run a -race build of easel: the window's
# widgets are built off the main thread (ui.Run), which only the real
# driver exercises.
e2e: package
	go build -race -o $(RACE_BIN) .
	EASEL_BIN=$(abspath $(RELEASE_BIN)) EASEL_RACE_BIN=$(abspath $(RACE_BIN)) EASEL_PACKAGE=$(abspath $(PACKAGE)) \
		$(XVFB) $(WITH_KEYRING) go test -tags e2e -count=1 -v -timeout 20m ./e2e/

bench: deps-build deps-test deps-go build
	go build -o $(BARE) ./bench/barewindow
	mkdir -p .cache/bench
	EASEL_BENCH_CACHE=$(abspath .cache/bench) go test -run '^$$' -bench . -benchmem $(UNIT_PKGS)
	EASEL_BIN=$(abspath $(BIN)) BARE_BIN=$(abspath $(BARE)) $(XVFB) $(WITH_KEYRING) \
		go test -tags e2e -run '^$$' -bench . -benchtime 20x -timeout 20m ./e2e/

lint: deps-go
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet $(UNIT_PKGS)
	go run $(STATICCHECK) ./...

screenshot: build deps-test
	EASEL_BIN=$(abspath $(BIN)) SCREENSHOT_DIR=$(abspath docs) $(XVFB) $(WITH_KEYRING) \
		go test -tags e2e -count=1 -run "TestScreenshot|TestGenerateOnDemo|InRealWindow" -v ./e2e/

clean:
	rm -rf bin .cache $(DIST)

deps-build:
	@$(call ensure_pkgs,$(BUILD_PKGS))

deps-test:
	@$(call ensure_pkgs,$(TEST_PKGS))

# Go: the machine's own, or Debian's golang-go, which then fetches the
# toolchain go.mod asks for (GOTOOLCHAIN=auto).
deps-go:
	@command -v go >/dev/null || $(call apt_install,golang-go)

deps-node:
	@command -v npm >/dev/null || $(call apt_install,nodejs npm)
	@[ -x $(PRISM) ] || npm install --silent --no-audit --no-fund --prefix .cache/prism @stoplight/prism-cli@$(PRISM_VER)

define apt_install
	{ echo "Installing: $(1)"; $(SUDO) apt-get update -qq; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(1); }
endef

define ensure_pkgs
	missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then $(call apt_install,$$missing); fi
endef
