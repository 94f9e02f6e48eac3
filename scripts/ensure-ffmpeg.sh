#!/usr/bin/env bash
# Makes sure ffmpeg (with libx264) is there for video rendering (issue 4); used by the README's
# quick start and by .ci/run. Does nothing when FFMPEG_PATH names an executable or ffmpeg is on
# PATH; installs Debian's ffmpeg with apt-get otherwise (apt-get update first: a fresh image has
# no package lists); elsewhere says how to install it and fails. Prints one line on success.
set -euo pipefail

if [[ -n "${FFMPEG_PATH:-}" ]]; then
  if [[ -f "$FFMPEG_PATH" && -x "$FFMPEG_PATH" ]]; then
    echo "ffmpeg: using FFMPEG_PATH=$FFMPEG_PATH"
    exit 0
  fi
  echo "FFMPEG_PATH is set to \"$FFMPEG_PATH\", which is not an executable file; fix or unset it" >&2
  exit 1
fi

if found=$(command -v ffmpeg); then
  echo "ffmpeg: found $found"
  exit 0
fi

if [[ -r /etc/debian_version ]] && command -v apt-get >/dev/null; then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then sudo=(sudo); else
      echo "ffmpeg is missing and installing it needs root: run as root, or install sudo, or: apt-get install -y ffmpeg" >&2
      exit 1
    fi
  fi
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # Quiet on success; the apt log is shown only when something fails. The variable is set by env
  # after sudo, whose env_reset would drop it if it came before.
  if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ffmpeg; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "installing ffmpeg with apt-get failed (see above); install it by hand or set FFMPEG_PATH" >&2
    exit 1
  fi
  if ! found=$(command -v ffmpeg); then
    echo "apt-get installed ffmpeg, but no ffmpeg is on PATH ($PATH); set FFMPEG_PATH to it" >&2
    exit 1
  fi
  echo "ffmpeg: installed $found with apt-get"
  exit 0
fi

cat >&2 <<'HINT'
ffmpeg is missing and this is not Debian/Ubuntu, so it was not installed. Install ffmpeg with libx264:
  macOS:          brew install ffmpeg
  Fedora/RHEL:    sudo dnf install ffmpeg   (from RPM Fusion)
  other:          https://ffmpeg.org/download.html
or set FFMPEG_PATH to an ffmpeg binary, or remove the render-video stage from the pipeline to render no video.
HINT
exit 1
