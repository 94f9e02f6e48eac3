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

if [[ -r /etc/debian_version ]] && command -v apt-get >/dev/null; then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then sudo=(sudo); else
      echo "chromium is missing and installing it needs root: run as root, or install sudo, or: apt-get install -y chromium" >&2
      exit 1
    fi
  fi
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # Quiet on success; the apt log is shown only when something fails. The variable is set by env
  # after sudo, whose env_reset would drop it if it came before.
  if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "installing chromium with apt-get failed (see above); install it by hand or set CHROMIUM_PATH" >&2
    exit 1
  fi
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
