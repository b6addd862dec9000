# fitiq-tui: set-up, build and test commands. Every target installs what is missing first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the build and the tests need (DESIGN.md "Fresh machine").
APT_PACKAGES := libncursesw5-dev libsqlite3-dev zlib1g-dev libxml2-dev tmux python3-venv curl
SHARED ?= ../shared

.PHONY: all deps build test test-swift lint conformance clean

all: build

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

build: deps
	$(SWIFT) build

# Builds everything, runs every test target, checks formatting and the server's conformance to the spec.
test: deps lint test-swift conformance

test-swift: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

conformance: deps
	$(SWIFT) build --product fitiq-dev-server
	bash scripts/conformance/run.sh "$$($(SWIFT) build --show-bin-path)/fitiq-dev-server"

clean:
	rm -rf .build .venv-conformance
