#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build, test and run Caddie. Idempotent: packages that are
# already present are left alone. Needs root (or sudo) for apt-get.
#
# avahi-daemon is installed with service starts disabled: Caddie's tests start Avahi only inside network
# namespaces they create, never in the machine's own namespace.
set -euo pipefail

packages=(libsodium-dev libssl-dev libsqlite3-dev libavahi-client-dev libqrencode-dev zlib1g-dev avahi-daemon dbus iproute2 procps util-linux python3
          python3-venv chromium chromium-driver nodejs systemd libnss3-tools openssl)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    policy=/usr/sbin/policy-rc.d
    had_policy=0
    [ -e "$policy" ] && had_policy=1
    if [ $had_policy -eq 0 ]; then
        printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
        $SUDO chmod +x "$policy"
    fi
    trap '[ $had_policy -eq 0 ] && $SUDO rm -f "$policy"' EXIT
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    echo "setup: system packages already present"
fi

# An avahi-daemon in the machine's own namespace would advertise on the real network: stop any that the
# package install started.
if pgrep -x avahi-daemon >/dev/null 2>&1; then
    for pid in $(pgrep -x avahi-daemon); do
        grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null && continue
        if [ "$(readlink /proc/$pid/ns/net)" = "$(readlink /proc/1/ns/net)" ]; then
            echo "setup: stopping avahi-daemon (pid $pid) in the root network namespace"
            $SUDO kill "$pid" || true
        fi
    done
fi

if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "setup: swift is at /opt/swift/usr/bin (add it to PATH)"
    else
        echo "setup: Swift 6 is required and was not found; install a Swift 6 toolchain and put it on PATH" >&2
        exit 1
    fi
fi
echo "setup: done"
