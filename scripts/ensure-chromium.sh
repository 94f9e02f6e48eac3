#!/usr/bin/env bash
# Makes sure a chromium is there for the report's browser test (issue 15,
# test/e2e/report-browser.test.ts, driven by playwright-core, which downloads no browser); used by
# .ci/run. Does nothing when CHROMIUM_PATH names an executable or /usr/bin/chromium exists;
# installs Debian's chromium with apt-get otherwise (apt-get update first: a fresh image has no
# package lists); elsewhere says how to install it and fails. Prints one line on success.
set -euo pipefail

if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  if [[ -f "$CHROMIUM_PATH" && -x "$CHROMIUM_PATH" ]]; then
    echo "chromium: using CHROMIUM_PATH=$CHROMIUM_PATH"
    exit 0
  fi
  echo "CHROMIUM_PATH is set to \"$CHROMIUM_PATH\", which is not an executable file; fix or unset it" >&2
  exit 1
fi

# The test looks for /usr/bin/chromium unless CHROMIUM_PATH says otherwise.
if [[ -x /usr/bin/chromium ]]; then
  echo "chromium: found /usr/bin/chromium"
  exit 0
fi

source "$(dirname "$0")/apt-install.sh"
if apt_install chromium CHROMIUM_PATH; then
  if [[ ! -x /usr/bin/chromium ]]; then
    echo "apt-get installed chromium, but /usr/bin/chromium is not there; set CHROMIUM_PATH to the browser" >&2
    exit 1
  fi
  echo "chromium: installed /usr/bin/chromium with apt-get"
  exit 0
fi

cat >&2 <<'HINT'
chromium is missing and this is not Debian/Ubuntu, so it was not installed. The report's browser
test needs a Chromium or Chrome binary; install one and point CHROMIUM_PATH at it, e.g.
  macOS:   CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
  Fedora:  sudo dnf install chromium   (then CHROMIUM_PATH=/usr/bin/chromium-browser)
Outside CI the test is skipped without it.
HINT
exit 1
