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
GOIMPORTS   := golang.org/x/tools/cmd/goimports@v0.52.0
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0
GOSEC       := github.com/securego/gosec/v2/cmd/gosec@v2.30.0
# gosec's rules that do not fit a desktop app, each for its reason (see
# docs/decisions.md): it opens the files its user names (G304), makes
# folders its user reads like any other (G301), starts itself and the
# platform's tools with arguments it built, through no shell (G204,
# G702); its pixel maths converts integers in ranges it has just bounded
# (G115); the demo service's noise need not be secret (G404) and its
# form limit is the test's (G120). Test helpers, fixtures' generators
# and benchmarks are not shipped.
GOSEC_SKIP  := G304,G301,G204,G702,G115,G404,G120
GOSEC_DIRS  := -exclude-dir=testdata -exclude-dir=testsupport -exclude-dir=roomtest -exclude-dir=secretstest -exclude-dir=storetest -exclude-dir=bench
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

# The race detector instruments every package; Easel's own code and its
# other Go dependencies stay instrumented, but two kinds are compiled
# without it (docs/decisions.md): the modernc.org packages (SQLite and the
# C library, machine-translated from C: hundreds of thousands of lines
# whose threading is SQLite's own; every test that opened a gallery ran
# ten times slower), and the pixel and compression codecs (the standard
# library's image/, compress/ and hash/, x/image, klauspost/compress and
# the two imaging libraries: tight loops over one buffer, where the
# instrumentation made the command line's tests run 2.6 times slower).
RACE_OFF := modernc.org/... image/... compress/... hash/... golang.org/x/image/... \
            github.com/klauspost/compress/... github.com/disintegration/imaging \
            github.com/kovidgoyal/imaging/...
RACE := -race $(foreach p,$(RACE_OFF),-gcflags=$(p)=-race=false)

# Packages whose tests need no display and no cgo OpenGL: everything but
# the two binaries that open windows and the real-window tests.
UNIT_PKGS = $$(go list ./... | grep -v -x -e easel -e easel/bench/barewindow -e easel/e2e)

.PHONY: checks deb deb-check flatpak-check flatpak-vendor winget windows-pack sign-check e2e-binaries e2e-run run test build demo deps-fonts unit keyring e2e bench lint fuzz screenshot package install uninstall deps-build deps-test deps-go deps-node clean \
        windows test-windows unit-windows race-binary e2e-windows check-darwin deps-windows

run: build deps-fonts
	./$(BIN)

demo: build deps-fonts
	./$(BIN) --demo

# Chinese is drawn with the system's CJK font, which Fyne falls back to
# for the glyphs its own font lacks (docs/decisions.md): Windows and
# macOS have one; a Debian or Ubuntu machine without one gets Noto CJK.
deps-fonts:
	@fc-list :lang=zh 2>/dev/null | grep -q . || { $(call ensure_pkgs,fonts-noto-cjk); }

build: deps-build deps-go
	go build -ldflags "-X easel/internal/buildinfo.Commit=$(COMMIT)" -o $(BIN) .

# The binaries the real windows run (the release package, the -race
# window) are built beside the unit tests, a little below their priority:
# the unit tests end with a long package or two running alone, and the
# builds have one-process cgo steps, so each fills a core the other
# leaves, and the windows can start soon after the unit tests end.
# The real-window tests spend most of their run waiting on windows and
# services, with the CPU idle; the checks (lint, the darwin type-check,
# the keyring) need CPU and no display. So they run beside the
# real-window tests at the lowest priority (as .ci/run builds the Windows
# release beside make test): they take only what the windows leave. Each
# side job's output is printed whole when it is done, and any failing
# fails the run.
test: deps-build deps-test deps-go deps-node deps-fonts
	@mkdir -p .cache; \
	 nice -n 5 $(MAKE) --no-print-directory e2e-binaries >.cache/e2e-binaries.log 2>&1 & bins=$$!; \
	 u=0; $(MAKE) --no-print-directory unit || u=$$?; \
	 b=0; wait $$bins || b=$$?; \
	 echo "== the real-window tests' binaries (built beside the unit tests): exit $$b"; cat .cache/e2e-binaries.log; \
	 [ $$u -eq 0 ] && [ $$b -eq 0 ]
	@mkdir -p .cache; \
	 nice -n 19 $(MAKE) --no-print-directory checks >.cache/checks.log 2>&1 & checks=$$!; \
	 e2e=0; $(MAKE) --no-print-directory e2e-run || e2e=$$?; \
	 c=0; wait $$checks || c=$$?; \
	 echo "== lint, check-darwin, keyring, the packages (run beside the real-window tests): exit $$c"; cat .cache/checks.log; \
	 [ $$e2e -eq 0 ] && [ $$c -eq 0 ]

checks: lint check-darwin keyring deb-check flatpak-check

# fyne package writes a file into the main package's folder while it
# builds, and the Windows build writes one there too: CI runs both at
# once (.ci/run), so each holds this lock while it builds main (Windows
# compiles everything main imports first, without it).
MAIN_LOCK := flock $(abspath .cache)/main-package.lock

# The release package, with Fyne's own tool: a stripped -trimpath build
# with Fyne's release tags, the .desktop entry (FyneApp.toml: "Open with
# Easel" for PNG, JPEG and WebP) and the icon, in a tarball, also unpacked
# beside it. fyne package raises the build number in FyneApp.toml each
# time; the file is put back, so packaging changes nothing in the tree.
package: deps-build deps-go
	@$(call ensure_pkgs,$(PKG_PKGS))
	rm -rf $(DIST)/easel $(PACKAGE) && mkdir -p $(DIST) .cache
	cp FyneApp.toml $(DIST)/FyneApp.toml.orig
	$(MAIN_LOCK) go run $(FYNE_TOOL) package -os linux -release || { cp $(DIST)/FyneApp.toml.orig FyneApp.toml; exit 1; }
	cp $(DIST)/FyneApp.toml.orig FyneApp.toml && rm $(DIST)/FyneApp.toml.orig
	mv Easel.tar.xz $(PACKAGE)
	tar -xJf $(PACKAGE) -C $(DIST)

# A Debian package (build/linux/make-deb: the release binary under /usr,
# the desktop entry, the icon at every hicolor size, the AppStream
# metainfo, Depends from what the binary links and opens). deb-check
# installs it with apt, runs the installed easel, validates what it
# installed with appstreamcli and desktop-file-validate, and removes it
# again, leaving nothing; on a machine where a package named easel is
# already installed it only validates the files, and leaves that alone.
DEB_PKGS := dpkg-dev imagemagick appstream desktop-file-utils
DEB       = $(DIST)/easel_$(VERSION)_$$(dpkg --print-architecture).deb

# The package built before is used as it is: make test runs deb-check
# beside the real-window tests, which run that very binary (a rebuild
# would delete it under them).
deb:
	@[ -x $(RELEASE_BIN) ] || $(MAKE) --no-print-directory package
	@$(call ensure_pkgs,$(DEB_PKGS))
	build/linux/make-deb $(VERSION) $(PKG_ROOT) $(DIST)

deb-check: deb
	appstreamcli validate --no-net build/linux/$(APP_ID).metainfo.xml
	desktop-file-validate $(PKG_ROOT)/share/applications/$(APP_ID).desktop
	@if dpkg -s easel >/dev/null 2>&1; then echo "a package named easel is installed here: not installing over it"; exit 0; fi; \
	 flock $${TMPDIR:-/tmp}/easel-apt.lock $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q ./$(DEB) >/dev/null && \
	 /usr/bin/easel --version && \
	 appstreamcli validate --no-net /usr/share/metainfo/$(APP_ID).metainfo.xml && \
	 desktop-file-validate /usr/share/applications/$(APP_ID).desktop && \
	 test -f /usr/share/icons/hicolor/48x48/apps/$(APP_ID).png; ok=$$?; \
	 flock $${TMPDIR:-/tmp}/easel-apt.lock $(SUDO) apt-get -o DPkg::Lock::Timeout=600 remove -y -q easel >/dev/null; \
	 if [ -e /usr/bin/easel ]; then echo "apt-get remove left /usr/bin/easel"; exit 1; fi; \
	 exit $$ok

# The Flatpak manifest (build/flatpak) builds only where Flathub's
# runtimes can be downloaded; here it is checked: it parses, names files
# that exist, and its desktop entry is valid and says what fyne package
# writes from FyneApp.toml. flatpak-vendor makes the module sources its
# offline build reads.
flatpak-check:
	@[ -x $(RELEASE_BIN) ] || $(MAKE) --no-print-directory package
	@$(call ensure_pkgs,python3-yaml desktop-file-utils)
	python3 -c 'import yaml, os, sys; m = yaml.safe_load(open("build/flatpak/$(APP_ID).yml")); \
		assert m["id"] == "$(APP_ID)" and m["command"] == "easel", m; \
		cmds = " ".join(m["modules"][0]["build-commands"]); \
		missing = [w for w in cmds.split() if "/" in w and not w.startswith(("/", "-")) and not os.path.exists(w)]; \
		sys.exit("the manifest names files that are not here: %s" % missing if missing else 0)'
	desktop-file-validate build/flatpak/$(APP_ID).desktop
	diff <(grep -v '^$$' build/flatpak/$(APP_ID).desktop | sort) <(grep -v '^$$' $(PKG_ROOT)/share/applications/$(APP_ID).desktop | sort)

flatpak-vendor:
	rm -rf .cache/flatpak-vendor && go mod vendor -o .cache/flatpak-vendor
	tar -C .cache/flatpak-vendor -cJf build/flatpak/vendor.tar.xz .

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

# Windows, built here with mingw-w64: Easel.exe (windowed, with its icon
# at every size from 16 to 256, version information and a per-monitor
# DPI-aware manifest, all from build/windows/winres.json through
# go-winres), easel.com (the console companion the command line runs as
# in cmd.exe and PowerShell, cmd/easel-console), zipped; and, with
# Debian's NSIS, an installer (build/windows/installer.nsi).
WIN_ENV     := GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc
WIN_PKGS    := gcc-mingw-w64-x86-64 zip nsis
WINE_PKGS   := wine wine64 xvfb xauth xdotool
GOWINRES    := github.com/tc-hib/go-winres@v0.3.3
VERSION     := $(shell sed -n 's/^Version = "\(.*\)"/\1/p' FyneApp.toml)
COMMIT      := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
WIN_DIR     := $(DIST)/windows
WIN_ZIP     := $(DIST)/easel-windows-amd64.zip
WIN_SETUP   := $(DIST)/easel-windows-amd64-setup.exe
WINE_OVERLAY = $$(e2e/wine/overlay)

windows: deps-go deps-windows
	rm -rf $(WIN_DIR) $(WIN_ZIP) $(WIN_SETUP) && mkdir -p $(WIN_DIR) .cache
	$(WIN_ENV) go build -trimpath -tags release $$($(WIN_ENV) go list -tags release -f '{{join .Imports " "}}' .)
	go run $(GOWINRES) make --in build/windows/winres.json --arch amd64 --out rsrc \
		--product-version $(VERSION) --file-version $(VERSION)
	$(MAIN_LOCK) env $(WIN_ENV) go build -trimpath -tags release -ldflags "-s -w -H=windowsgui -X easel/internal/buildinfo.Version=$(VERSION) -X easel/internal/buildinfo.Commit=$(COMMIT)" -o $(WIN_DIR)/Easel.exe . \
		|| { rm -f rsrc_windows_amd64.syso; exit 1; }
	rm -f rsrc_windows_amd64.syso
	$(WIN_ENV) go build -trimpath -ldflags "-s -w" -o $(WIN_DIR)/easel.com ./cmd/easel-console
	$(MAKE) --no-print-directory windows-pack

# The zip and the installer of $(WIN_DIR), Authenticode-signed when
# EASEL_SIGN_PKCS12 names a certificate (build/windows/sign: the two
# programs, the installer and its uninstaller), unsigned otherwise.
windows-pack:
	@if [ -n "$${EASEL_SIGN_PKCS12:-}" ]; then $(call ensure_pkgs,osslsigncode); fi
	build/windows/sign $(WIN_DIR)/Easel.exe $(WIN_DIR)/easel.com
	rm -f $(WIN_ZIP) $(WIN_SETUP)
	cd $(WIN_DIR) && zip -q -X -r $(abspath $(WIN_ZIP)) .
	makensis -V2 -DVERSION=$(VERSION) -DSRC=$(abspath $(WIN_DIR)) -DOUT=$(abspath $(WIN_SETUP)) $(NSIS_FLAGS) \
		$$([ -z "$${EASEL_SIGN_PKCS12:-}" ] || echo -DSIGN=$(abspath build/windows/sign)) build/windows/installer.nsi

# Signing checked with a throwaway certificate made here, on a copy of
# the release: every program in the zip and the installer verify against
# it, and the signed console program still runs under Wine.
sign-check:
	@[ -f $(WIN_ZIP) ] || $(MAKE) --no-print-directory windows
	@$(call ensure_pkgs,osslsigncode openssl unzip)
	rm -rf .cache/sign-check && mkdir -p .cache/sign-check/zip && cd .cache/sign-check && \
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Easel test signer" \
			-addext extendedKeyUsage=codeSigning -keyout key.pem -out cert.pem 2>/dev/null && \
		openssl pkcs12 -export -inkey key.pem -in cert.pem -passout pass:test -out signer.p12
	cp -r $(WIN_DIR) .cache/sign-check/windows
	EASEL_SIGN_PKCS12=$(abspath .cache/sign-check/signer.p12) EASEL_SIGN_PASSWORD=test $(MAKE) --no-print-directory windows-pack \
		WIN_DIR=.cache/sign-check/windows WIN_ZIP=.cache/sign-check/easel.zip NSIS_FLAGS=-DCOMPRESSOR=zlib WIN_SETUP=.cache/sign-check/easel-setup-signed.exe
	cd .cache/sign-check && unzip -q easel.zip -d zip && for f in zip/Easel.exe zip/easel.com easel-setup-signed.exe; do \
		osslsigncode verify -CAfile cert.pem -in $$f | grep -q "Signature verification: ok" || { echo "$$f: not signed"; exit 1; }; done
	! osslsigncode verify -in $(WIN_SETUP) >/dev/null 2>&1
	@$(call ensure_pkgs,$(WINE_PKGS))
	e2e/wine/exec .cache/sign-check/zip/easel.com --version | grep -q "$(VERSION)"
	e2e/wine/exec .cache/sign-check/easel-setup-signed.exe /S /D=C:\\easel-sign-check
	d=$$(WINEPREFIX=$$(e2e/wine/prefix) winepath -u 'C:\easel-sign-check') && \
		osslsigncode verify -CAfile .cache/sign-check/cert.pem -in "$$d/Uninstall.exe" | grep -q "Signature verification: ok" && \
		e2e/wine/exec "$$d/Uninstall.exe" /S && for i in $$(seq 50); do [ -e "$$d/Easel.exe" ] || break; sleep 0.2; done; [ ! -e "$$d/Easel.exe" ]

# Windows tests under Wine (e2e/wine: a prefix in .cache/wine with the
# two test-only workarounds Wine 8 needs): every package without a window
# built for Windows and run under Wine; the keyring through the Windows
# credential store; then the release under Wine on its own display.
test-windows: windows deps-windows
	@$(call ensure_pkgs,$(WINE_PKGS))
	$(MAKE) --no-print-directory winget
	$(MAKE) --no-print-directory sign-check
	$(MAKE) --no-print-directory unit-windows
	$(MAKE) --no-print-directory e2e-windows

# The winget manifests of the zip release (build/windows/winget), in
# dist/winget, with the zip's SHA-256; WINGET_URL is where the zip is
# published. Each manifest is checked to parse and to name the package,
# version and hash.
WINGET_URL ?= https://easel.invalid/releases/$(VERSION)/easel-windows-amd64.zip

winget:
	@[ -f $(WIN_ZIP) ] || $(MAKE) --no-print-directory windows
	@$(call ensure_pkgs,python3-yaml)
	rm -rf $(DIST)/winget
	dir=$$(build/windows/winget/make-manifests $(VERSION) $(WIN_ZIP) $(WINGET_URL) $(DIST)/winget) && \
	python3 -c 'import yaml, glob, hashlib, sys; d = sys.argv[1]; \
		ms = {f.rsplit("/", 1)[1]: yaml.safe_load(open(f)) for f in glob.glob(d + "/*.yaml")}; \
		assert len(ms) == 3 and all(m["PackageIdentifier"] == "Easel.Easel" and m["PackageVersion"] == "$(VERSION)" for m in ms.values()), ms; \
		i = ms["Easel.Easel.installer.yaml"]["Installers"][0]; \
		assert i["InstallerSha256"] == hashlib.sha256(open("$(WIN_ZIP)", "rb").read()).hexdigest().upper(), i' "$$dir"

unit-windows:
	$(WIN_ENV) go vet -trimpath -tags release ./...
	$(WIN_ENV) go test -count=1 -overlay $(WINE_OVERLAY) -exec $(abspath e2e/wine/exec) ./internal/...
	$(WIN_ENV) go test -count=1 -overlay $(WINE_OVERLAY) -exec $(abspath e2e/wine/exec) -tags keyring -run Keyring ./internal/secrets/ ./internal/cli/

XVFB_LAPTOP := xvfb-run -a -s "-screen 0 1366x768x24"

# The native demo service the command line talks to is the Linux release
# binary make test built, or a plain build when there is none. The OLE
# drag's own tests (tag wingui) put windows of their own on the display.
e2e-windows:
	@[ -x $(RELEASE_BIN) ] || $(MAKE) --no-print-directory build
	EASEL_BIN=$$([ -x $(RELEASE_BIN) ] && echo $(abspath $(RELEASE_BIN)) || echo $(abspath $(BIN))) EASEL_WINDOWS_DIR=$(abspath $(WIN_DIR)) EASEL_WINDOWS_SETUP=$(abspath $(WIN_SETUP)) \
		WINE_EXEC=$(abspath e2e/wine/exec) $(XVFB_LAPTOP) go test -tags e2e -count=1 -v -timeout 15m -run Windows ./e2e/
	$(WIN_ENV) $(XVFB_LAPTOP) go test -count=1 -overlay $(WINE_OVERLAY) -exec $(abspath e2e/wine/exec) -tags wingui ./internal/oledrag/

deps-windows:
	@$(call ensure_pkgs,$(WIN_PKGS))

# macOS cannot be built here (no SDK), so this is a tripwire: every
# package that does not draw (internal/, cmd/: none imports Fyne) is
# type-checked and vetted for darwin, cgo included, with a stand-in C
# compiler (build/darwin/typecheck-cc) that answers for portable C. Fyne
# and the image clipboard (golang.design/x/clipboard) need Objective-C and
# Apple's headers on darwin, so the packages that import them (main, ui/)
# are listed as not checked; they are built by the macOS workflow
# (.github/workflows/release-macos.yml), not yet run.
DARWIN_ENV := GOOS=darwin GOARCH=amd64 CGO_ENABLED=1 CC=$(abspath build/darwin/typecheck-cc)
DARWIN_OBJC := ' (fyne\.io/fyne/v2|golang\.design/x/clipboard)( |/|$$)'

check-darwin: deps-go
	@pkgs=$$($(DARWIN_ENV) go list -f '{{.ImportPath}} {{join .Deps " "}}' ./... | grep -Ev $(DARWIN_OBJC) | cut -d' ' -f1); \
	 echo "darwin: vetting $$(echo $$pkgs | wc -w) packages; not checkable without Apple's SDK (Fyne, the clipboard): $$($(DARWIN_ENV) go list -f '{{.ImportPath}} {{join .Deps " "}}' ./... | grep -E $(DARWIN_OBJC) | wc -l)"; \
	 $(DARWIN_ENV) go vet $$pkgs

# PRISM lets the conformance test send the client's requests through a
# proxy that validates them, and the demo service's answers, against the spec.
unit:
	PRISM=$(abspath $(PRISM)) go test $(RACE) -count=1 $(UNIT_PKGS)

# The keyring tests talk to a real Secret Service: a private D-Bus session
# with gnome-keyring, its keyrings in a fresh folder, unlocked by a
# throw-away password.
WITH_KEYRING := dbus-run-session -- bash -c 'printf easel-test | XDG_DATA_HOME=$$(mktemp -d) gnome-keyring-daemon --unlock --components=secrets >/dev/null && "$$0" "$$@"'

keyring:
	$(WITH_KEYRING) go test $(RACE) -count=1 -tags keyring -run Keyring ./internal/secrets/ ./internal/cli/

# The real-window tests also run a -race build of easel: the window's
# widgets are built off the main thread (ui.Run), which only the real
# driver exercises. The drag-out protocol's tests (tag x11) put windows of
# their own on the same kind of display.
e2e: e2e-binaries
	$(MAKE) --no-print-directory e2e-run

# The two are built at once: each spends minutes in cgo's one-process
# reading of the OpenGL bindings (go-gl/gl), which leaves a core idle.
# Building main holds MAIN_LOCK, as the package and the Windows build do.
e2e-binaries:
	$(MAKE) --no-print-directory -j2 package race-binary

race-binary: deps-build deps-go
	@mkdir -p .cache
	go build $(RACE) $$(go list -f '{{join .Imports " "}}' .)
	$(MAIN_LOCK) go build $(RACE) -o $(RACE_BIN) .

e2e-run:
	$(XVFB) go test $(RACE) -count=1 -tags x11 ./internal/xdnd/
	EASEL_BIN=$(abspath $(RELEASE_BIN)) EASEL_RACE_BIN=$(abspath $(RACE_BIN)) EASEL_PACKAGE=$(abspath $(PACKAGE)) \
		$(XVFB) $(WITH_KEYRING) go test -tags e2e -count=1 -v -timeout 20m ./e2e/

bench: deps-build deps-test deps-go build
	go build -o $(BARE) ./bench/barewindow
	mkdir -p .cache/bench
	EASEL_BENCH_CACHE=$(abspath .cache/bench) go test -run '^$$' -bench . -benchmem $(UNIT_PKGS)
	EASEL_BIN=$(abspath $(BIN)) BARE_BIN=$(abspath $(BARE)) $(XVFB) $(WITH_KEYRING) \
		go test -tags e2e -run '^$$' -bench . -benchtime 20x -timeout 20m ./e2e/

# staticcheck reads staticcheck.conf (every check), and also the
# packages without a window as built for
# Windows, where other files are compiled in (and others left unused).
# vet, staticcheck, gosec and deadcode read the packages they do not
# analyse from compiled export data: they build with `make unit`'s flags
# (staticcheck for Windows with `make windows`' flags) so they read what
# those compiled rather than compiling every package (Fyne's C and
# SQLite among them) once more. Under -race, internal/quarantine's race_on.go is the
# file read of its pair; the rest of the tree is the same.
lint: deps-go deps-windows
	GOBIN=$(abspath bin) go install $(GOIMPORTS) $(DEADCODE)
	GOBIN=$(abspath bin) go install $(GOSEC)
	GOBIN=$(abspath bin) go install $(STATICCHECK)
	@out=$$(bin/goimports -local easel -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "goimports -local easel would change:"; echo "$$out"; exit 1; fi
	go vet $(RACE) $(UNIT_PKGS)
	GOFLAGS="$(RACE)" bin/staticcheck ./...
	$(WIN_ENV) GOFLAGS="-trimpath -tags=release" bin/staticcheck ./internal/... ./cmd/...
	GOFLAGS="$(RACE)" bin/gosec -quiet -exclude=$(GOSEC_SKIP) $(GOSEC_DIRS) ./...
	@out=$$(GOFLAGS="$(RACE)" bin/deadcode . ./cmd/... | { grep -v -F -f internal/architecture/testdata/unreached.txt || true; }); if [ -n "$$out" ]; then echo "code no program reaches (delete it, or move what only tests use into a _test.go file or a test-only package):"; echo "$$out"; exit 1; fi
	go test -count=1 ./internal/architecture/

# The fuzz targets, each for FUZZTIME (the seed corpora alone run with
# every `make unit`): what a service sends (the SSE reader, the streaming
# base64 decoder, the failure classifier, the gateways' JSON, the
# markdown parser), what a file holds (ICC profiles, SVG, GIF, C2PA
# manifests, Edit setups) and the multipart body Easel sends. What a run finds is kept under testdata/fuzz
# and fails `make unit` until fixed.
FUZZTIME ?= 60s
FUZZ_API := FuzzSSEReader FuzzWireStream FuzzWireStreamRoundTrip FuzzEditRequest FuzzClassifyHTTP FuzzUsage FuzzConsole FuzzBatchAnswers

fuzz: deps-go
	@for t in $(FUZZ_API); do echo "== $$t"; go test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) ./internal/api/ || exit 1; done
	@echo "== FuzzParse"; go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/markdown/
	@echo "== FuzzProfile"; go test -run '^$$' -fuzz '^FuzzProfile$$' -fuzztime $(FUZZTIME) ./internal/colour/
	@for t in FuzzSVG FuzzGIF; do echo "== $$t"; go test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) ./internal/imageio/ || exit 1; done
	@echo "== FuzzRead"; go test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./internal/c2pa/
	@echo "== FuzzReadSetup"; go test -run '^$$' -fuzz '^FuzzReadSetup$$' -fuzztime $(FUZZTIME) ./internal/editsession/

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
	@# The repository's pre-commit hook (formatting), in a clone only.
	@[ ! -d .git ] || [ "$$(git config core.hooksPath)" = .githooks ] || git config core.hooksPath .githooks

deps-node:
	@command -v npm >/dev/null || $(call apt_install,nodejs npm)
	@[ -x $(PRISM) ] || npm install --silent --no-audit --no-fund --prefix .cache/prism @stoplight/prism-cli@$(PRISM_VER)

# Installs take turns (flock): CI builds Windows beside the Linux tests,
# and two apt-gets at once would fail on dpkg's lock.
APT_LOCK := flock $${TMPDIR:-/tmp}/easel-apt.lock

define apt_install
	{ echo "Installing: $(1)"; $(APT_LOCK) $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -qq; \
	  $(APT_LOCK) $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $(1); }
endef

define ensure_pkgs
	missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then $(call apt_install,$$missing); fi
endef
