# fitiq-tui: set-up, build and test commands. Every target installs what is missing first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the build and the tests need (CONTRIBUTING.md "Set up").
APT_PACKAGES := libncursesw5-dev libsqlite3-dev zlib1g-dev libxml2-dev libcurl4-openssl-dev tinyproxy socat tmux openssh-server openssh-client python3-venv curl openssl strace man-db gettext
# Release builds (demo, install, dist, benchmarks): static Swift runtime, the fastest start
# (docs/ncurses.md "Startup costs").
RELEASE_FLAGS := -c release --static-swift-stdlib
# Extra Debian packages, installed through `deps` with APT_PACKAGES overridden.
SCREENSHOT_PACKAGES := tmux python3-venv fonts-dejavu-core fonts-wqy-microhei fonts-noto-color-emoji
BENCH_PACKAGES := nano gcc libncursesw5-dev libxml2-utils unzip python3-venv curl
# The comparison tool of `make bench-import`, pinned.
HEALTHKIT_TO_SQLITE := healthkit-to-sqlite==1.0.1

# make install / make dist: where, and what.
PREFIX ?= $(HOME)/.local
# Programs installed and shipped; the first is the one people run.
PROGRAMS := fitiq-tui fitiq-dev-server
# Release files laid out as installed (bin/, share/): what install copies and dist packs.
STAGE := .build/stage
ARCH := $(shell uname -m)

.PHONY: install uninstall stage dist dist-check
.PHONY: po po-check
.PHONY: deb deb-check help all deps build test check rebuilds fuzz-quick test-swift lint conformance clean demo screenshots bench bench-startup bench-keystroke bench-import bench-sync bench-scale bench-export bench-import-csv bench-import-apps bench-saves bench-offline release security badinput faults sanitize sanitize-quick soak fuzz

all: build

# The targets people use, one line each (`make help`).
help:
	@echo "make demo             try the editor against a local development server with a demo account"
	@echo "make test             one debug build, then every test: lint, Swift tests (security, faults and bad input too), conformance"
	@echo "make check            make test, 1,000 + 1,000 mutants, the release program's checks (no rebuilds, dist-check, deb-check, fuzz targets), ThreadSanitizer on 3 suites (CI)"
	@echo "make build            debug build"
	@echo "make release          release build (static Swift runtime)"
	@echo "make install          install into PREFIX (default ~/.local); make uninstall removes it"
	@echo "make dist             release tarball in dist/; make dist-check unpacks and checks it"
	@echo "make bench            every benchmark, each next to its comparison (bench-startup, bench-keystroke,"
	@echo "                      bench-import, bench-sync, bench-import-csv, bench-import-apps, bench-scale, bench-export, bench-saves,"
	@echo "                      bench-offline)"
	@echo "make deb              Debian packages of fitiq-tui and fitiq-dev-server in dist/ (lintian-clean)"
	@echo "make deb-check        installs them into a clean Debian 12 root and uses them (part of make check)"
	@echo "make fuzz             run the libFuzzer targets (FUZZ_SECONDS, FUZZ_TARGETS)"
	@echo "make sanitize         the tests under ThreadSanitizer and AddressSanitizer"
	@echo "make soak             the release editor under a scripted user and a failing server for SOAK_MINUTES (60)"
	@echo "make faults           the fault-injection scenarios with 200 edits each (5 in every swift test)"
	@echo "make badinput         1,000 random mutants of cache files and of server answers; make security: the security tests alone"
	@echo "make screenshots      regenerate screenshots/ from real runs"
	@echo "make lint             swift format lint"
	@echo "make po               extract po/fitiq-tui.pot from the code and merge it into po/*.po (then translate)"
	@echo "make po-check         the template is what the code says; every catalog complete; msgfmt --check"
	@echo "make clean            remove every build folder, virtual environment and dist/"

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
		case " $$missing " in *" openssh-server "*) \
			if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then \
				echo "The tests start sshd of their own; the system's SSH service that openssh-server started is stopped and disabled again."; \
				$(SUDO) systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true; \
			fi;; \
		esac; \
	fi

build: deps
	$(SWIFT) build

# Fuzzing (CONTRIBUTING.md "Fuzzing"): seconds per target, which targets, how many run at once.
FUZZ_SECONDS ?= 60
# Every file of Fuzz/Targets when empty.
FUZZ_TARGETS ?=
FUZZ_JOBS ?= 1

# Builds the libFuzzer targets of Fuzz/Targets into .build/fuzz/bin and runs each for FUZZ_SECONDS on a
# copy of its seeds (Fuzz/corpus), printing executions, crashes and corpus size; fails on any crash.
fuzz: deps
	bash scripts/fuzz/build.sh $(FUZZ_TARGETS)
	python3 scripts/fuzz/run.py --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) $(FUZZ_TARGETS)

# Phases of `make test`: one debug build, and every check that needs no release program. The table of
# how long each phase took comes at the end (scripts/test/phases.sh).
TEST_PHASES := lint po-check test-swift conformance
# `make check` (CI): `make test`, the 1,000 + 1,000 mutants of `make badinput` (make test runs 100 + 100),
# then the release program: built once, then nothing built again (rebuilds), the tarball unpacked,
# installed and run (dist-check), every fuzz target for a few seconds, and the sync, HTTP and editor-loop
# suites under ThreadSanitizer (make sanitize runs every suite under both sanitizers).
CHECK_PHASES := $(TEST_PHASES) badinput release rebuilds dist-check deb-check fuzz-quick sanitize-quick

test: deps
	bash scripts/test/phases.sh $(TEST_PHASES)

check: deps
	bash scripts/test/phases.sh $(CHECK_PHASES)

# After `make release`: a second release build, `make stage` (what install, dist and demo build) and a
# version-only change compile nothing, nothing, and one file; the staged program keeps its static runtime.
rebuilds: deps
	bash scripts/test/rebuilds.sh

# Every fuzz target built and run for a few seconds, so a target list that drifts fails `make check`.
fuzz-quick: deps
	bash scripts/fuzz/build.sh
	python3 scripts/fuzz/run.py --seconds 5

test-swift: deps
	bash scripts/health/check-libxml2-abi.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Every suite under ThreadSanitizer, then AddressSanitizer with LeakSanitizer (scratch folders .build-tsan,
# .build-asan), the programs they start too; fails on any report.
sanitize: deps
	SWIFT="$(SWIFT)" bash scripts/sanitize/run.sh

# Part of make check: the suites where threads meet (the sync engine in the core's, the libcurl thread
# and its wake pipe in the HTTP's, the editor's loop) under ThreadSanitizer.
sanitize-quick: deps
	SWIFT="$(SWIFT)" SANITIZE_SUITES="FitIQCoreTests FitIQHTTPTests FitIQEditorTests" bash scripts/sanitize/run.sh thread

# An afternoon in one run: edits, imports and resizes against a server that goes away (CONTRIBUTING.md, Soak).
SOAK_MINUTES ?= 60
soak: release
	python3 scripts/soak/soak.py --bin-dir .build/release --minutes $(SOAK_MINUTES)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Plugins Fuzz Package.swift
	python3 scripts/docs/check-links.py

# The catalogs (CONTRIBUTING.md "Languages"): po/fitiq-tui.pot extracted from the code (xgettext), merged into every
# po/*.po (msgmerge; new and changed messages come in untranslated, so po-check fails until they are translated).
po: deps
	sh scripts/po/extract.sh
	for catalog in po/*.po; do msgmerge --quiet --update --backup=none --no-wrap --no-fuzzy-matching \
		"$$catalog" po/fitiq-tui.pot || exit 1; msgattrib --no-obsolete --no-wrap -o "$$catalog" "$$catalog" || exit 1; done

# The template is what the code says, every catalog translates all of it (none fuzzy, none extra) and
# `msgfmt --check` passes on each (scripts/po/check.sh).
po-check: deps
	sh scripts/po/check.sh

conformance: deps
	$(SWIFT) build --product fitiq-dev-server
	bash scripts/conformance/run.sh "$$($(SWIFT) build --show-bin-path)/fitiq-dev-server"

# Try the editor: a development server with a demo account, a throw-away cache, release build.
demo: release
	.build/release/fitiq-tui demo

# Regenerates screenshots/*.png from real runs in tmux, taken by the end-to-end tests' driver
# (ScreenshotTests; debug build; pyte + Pillow in .venv-screenshots paint them).
screenshots: deps
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(SCREENSHOT_PACKAGES)"
	$(SWIFT) build --build-tests
	bash scripts/screenshots/run.sh

# Release builds of every program (what demo, install, dist and the benchmarks run).
# The argument parser's generate-manual tool is built with the same flags, for `make stage`: its plugin would
# build every product again without the static runtime, into the same folder.
release: deps
	for product in $(PROGRAMS) generate-manual; do $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; done

# Time from exec to the first frame with the cached profile (release build) next to C ncurses and nano.
bench-startup: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_PACKAGES)"
	python3 scripts/bench/startup.py --bin-dir .build/release

# Keystroke-to-screen latency through a pty with 1,000 history entries, next to nano; and the progress
# screen's range and metric keys over 10 years of daily weights and monthly body fat.
bench-keystroke: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_PACKAGES)"
	python3 scripts/bench/keystroke.py --bin-dir .build/release

# 1,000 edits queued on this machine, then synced: the time and the requests it took.
bench-sync: release
	python3 scripts/bench/sync.py --bin-dir .build/release

# Export's time and peak RSS at 1,000 and 100,000 entries: the export is streamed.
bench-export: release
	python3 scripts/bench/export.py --bin-dir .build/release

# 0, 10,000 and 100,000 height history entries, spread evenly and shaped as a production account: first
# frame (× trivial C), key → echo (× nano), first sync (× curl fetching the same pages), Ctrl-S → request,
# command times, peak RSS, cache bytes per save (strace), and a first sync from a server 50 ms away.
bench-scale: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_PACKAGES)"
	python3 scripts/bench/scale.py --bin-dir .build/release

# import-csv of 10,000 rows of fitiq-tui's export format with --no-sync (the local part: reading, checking,
# deduplicating, queueing): time and peak RSS, new rows and the same file again, next to Python's csv module
# and wc -l on the same file.
bench-import-csv: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="time"
	python3 scripts/bench/import_csv.py --bin-dir .build/release

bench-import-apps: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="time python3-venv"
	[ -x .venv-bench/bin/healthkit-to-sqlite ] || { python3 -m venv .venv-bench && \
		.venv-bench/bin/pip install -q "$(HEALTHKIT_TO_SQLITE)"; }
	python3 scripts/bench/import_apps.py --bin-dir .build/release --healthkit-to-sqlite .venv-bench/bin/healthkit-to-sqlite

# Every benchmark (or those of BENCHES), each next to its target and its comparison figure from the same run;
# what they print is written into docs/benchmarks.md with the date and the machine (scripts/bench/report.py).
BENCHES ?= bench-startup bench-keystroke bench-import bench-sync bench-import-csv bench-import-apps bench-scale bench-export bench-saves bench-offline
bench: release
	python3 scripts/bench/report.py $(BENCHES)

# A write with the server stopped (one refused attempt, the change kept) beside the same write with it up.
bench-offline: release
	python3 scripts/bench/offline.py --bin-dir .build/release

# One save sent at once under strace: the cache's writes before its request and after its answer (target
# one each), for every metric and the profile, next to the build of COMPARE_BIN_DIR when given; and the
# first import-csv of 3,700 new weights (time, peak RSS).
bench-saves: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="strace time"
	python3 scripts/bench/saves.py --bin-dir .build/release $(if $(COMPARE_BIN_DIR),--compare-bin-dir $(COMPARE_BIN_DIR))

# Health export reading: 200 MB (xml and zip) and 1 GB, next to healthkit-to-sqlite and xmllint.
bench-import: release
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_PACKAGES)"
	[ -x .venv-bench/bin/healthkit-to-sqlite ] || { python3 -m venv .venv-bench && \
		.venv-bench/bin/pip install -q "$(HEALTHKIT_TO_SQLITE)"; }
	python3 scripts/bench/import.py --bin-dir .build/release --healthkit-to-sqlite .venv-bench/bin/healthkit-to-sqlite

# Secrets stay secret: file modes, no secret in logs, cache, output, screens or argv, http:// and TLS rules
# (Tests/EndToEndTests/SecurityEndToEndTests.swift, part of every `swift test`).
security: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter SecurityEndToEndTests

# Fault injection against the built programs (Tests/EndToEndTests/FaultEndToEndTests.swift) with 200 edits a
# scenario; every `swift test` runs the same scenarios with 5.
faults: deps
	$(SWIFT) build --build-tests
	FITIQ_FAULT_EDITS=200 $(SWIFT) test --skip-build --filter FaultEndToEndTests

# 1,000 random mutants of the cache files and 1,000 mutated server answers, tallied by kind
# (Tests/FitIQCLITests/BadInputMutationTests.swift; every `swift test` runs 100 of each). FITIQ_MUTATION_SEED
# replays another seed. (The tables of bad values through every field, the editor and plain mode, CSV files
# and server answers are Swift tests too: BadInputCLITests, BadServerAnswerCLITests, BadInputEndToEndTests.)
MUTANTS ?= 1000
badinput: deps
	$(SWIFT) build --build-tests
	FITIQ_MUTANTS=$(MUTANTS) $(SWIFT) test --skip-build --filter BadInputMutationTests

# The release programs (static Swift runtime) with their man pages and shell completions, laid out
# under $(STAGE) as they are installed. Man pages come from the command definitions (the argument
# parser's generate-manual tool, built by `make release`), completions from the argument parser itself.
stage: release
	rm -rf $(STAGE)
	mkdir -p $(STAGE)/bin $(STAGE)/share/man/man1 $(STAGE)/share/bash-completion/completions \
		$(STAGE)/share/zsh/site-functions $(STAGE)/share/fish/vendor_completions.d
	@if nm .build/release/fitiq-tui | grep -qE 'ucal_|ucol_|icudt'; then \
		echo "error: .build/release/fitiq-tui links ICU (README \"Libraries\"); refusing to install it" >&2; exit 1; fi
	for program in $(PROGRAMS); do cp .build/release/$$program $(STAGE)/bin/; strip $(STAGE)/bin/$$program; done
	for program in $(PROGRAMS); do .build/release/generate-manual .build/release/$$program \
		--output-directory $(STAGE)/share/man/man1; done
	# generate-manual writes a blank line between paragraphs; mdoc wants .Pp (man and lintian warn).
	sed -i 's/^$$/.Pp/' $(STAGE)/share/man/man1/*.1
	$(STAGE)/bin/fitiq-tui --generate-completion-script bash > $(STAGE)/share/bash-completion/completions/fitiq-tui
	$(STAGE)/bin/fitiq-tui --generate-completion-script zsh > $(STAGE)/share/zsh/site-functions/_fitiq-tui
	$(STAGE)/bin/fitiq-tui --generate-completion-script fish > $(STAGE)/share/fish/vendor_completions.d/fitiq-tui.fish
	cp scripts/install/install.sh $(STAGE)/

# Installs into $(PREFIX) (default ~/.local; `sudo make install PREFIX=/usr/local` for everyone).
install: stage
	sh $(STAGE)/install.sh "$(PREFIX)"

# Removes exactly what `make install` wrote into $(PREFIX).
uninstall:
	sh scripts/install/install.sh --uninstall "$(PREFIX)"

# dist/fitiq-tui-VERSION-linux-ARCH.tar.gz: the programs, man pages, completions, README, LICENSE and
# install.sh, for a Debian 12 machine without Swift (README "Install").
dist: stage
	version="$$(sh scripts/version.sh)"; name="fitiq-tui-$$version-linux-$(ARCH)"; \
	rm -rf .build/dist && mkdir -p .build/dist/$$name dist && \
	cp -R $(STAGE)/bin $(STAGE)/share $(STAGE)/install.sh README.md LICENSE .build/dist/$$name/ && \
	tar -C .build/dist -czf dist/$$name.tar.gz --owner=0 --group=0 $$name && \
	echo "dist/$$name.tar.gz"
	@$(MAKE) --no-print-directory deb
	cd dist && sha256sum fitiq-tui-$$(sh ../scripts/version.sh)-linux-$(ARCH).tar.gz \
		*_$$(sh ../scripts/deb/version.sh)-1_*.deb > SHA256SUMS && cat SHA256SUMS

# dist/fitiq-tui_VERSION_ARCH.deb and dist/fitiq-dev-server_VERSION_ARCH.deb: Debian packages of the release
# build (scripts/deb/build.sh), checked by lintian.
deb: stage
	@$(MAKE) --no-print-directory deps APT_PACKAGES="dpkg-dev patchelf lintian"
	sh scripts/deb/build.sh $(STAGE) dist
	lintian --fail-on error,warning dist/fitiq-tui_$$(sh scripts/deb/version.sh)-1_$$(dpkg --print-architecture).deb \
		dist/fitiq-dev-server_$$(sh scripts/deb/version.sh)-1_$$(dpkg --print-architecture).deb

# Installs the packages into a clean Debian 12 root (mmdebstrap) and uses them there: install, the server,
# sync, demo, upgrade, purge (scripts/deb/check.sh).
deb-check: deb
	@$(MAKE) --no-print-directory deps APT_PACKAGES="mmdebstrap"
	sh scripts/deb/check.sh dist $(STAGE)

# Unpacks the tarball into a temporary folder and runs it with a bare environment; installs and
# uninstalls it; checks the man page and bash completion (Tests/EndToEndTests/DistCheckTests.swift, enabled
# by FITIQ_DIST_TARBALL; part of `make check`). The debug test build is `make test`'s, else made here.
dist-check: dist
	$(SWIFT) build --build-tests
	FITIQ_DIST_TARBALL="$(CURDIR)/dist/fitiq-tui-$$(sh scripts/version.sh)-linux-$(ARCH).tar.gz" \
		$(SWIFT) test --skip-build --filter DistCheckTests

clean:
	rm -rf .build .build-* .venv-conformance .venv-screenshots .venv-bench dist
