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

source "$(dirname "$0")/apt-install.sh"
if apt_install ffmpeg FFMPEG_PATH; then
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
