# Sourced by ensure-ffmpeg.sh and ensure-chromium.sh: `apt_install <package> <override variable>`
# installs a Debian package with apt-get (apt-get update first: a fresh image has no package
# lists), as root or through sudo; quiet on success, the apt log shown only when it fails.
# Returns 2 when this is not Debian/Ubuntu (the caller prints how to install by hand), and exits
# the script with 1 when it cannot install.
apt_install() {
  local package=$1 override=$2
  if ! [[ -r /etc/debian_version ]] || ! command -v apt-get >/dev/null; then return 2; fi
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then sudo=(sudo); else
      echo "$package is missing and installing it needs root: run as root, or install sudo, or: apt-get install -y $package" >&2
      exit 1
    fi
  fi
  local log
  log=$(mktemp)
  # The variable is set by env after sudo, whose env_reset would drop it if it came before.
  if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$package"; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "installing $package with apt-get failed (see above); install it by hand or set $override" >&2
    exit 1
  fi
  rm -f "$log"
}
