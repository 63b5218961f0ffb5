#!/usr/bin/env bash
# The network lab: N hosts, each a network namespace with its own D-Bus and Avahi daemon restricted to
# its one interface, joined by a bridge in a namespace of its own. Multicast never leaves the lab: no
# daemon runs in the machine's own namespace and every address is on the lab's private bridge.
#
#   Deploy/lab.sh up N            bring up hosts 1..N (10.251.0.1 ... 10.251.0.N)
#   Deploy/lab.sh exec I CMD...   run CMD inside host I (its network and its D-Bus/Avahi)
#   Deploy/lab.sh cut I           unplug host I from the bridge
#   Deploy/lab.sh restore I       plug it back
#   Deploy/lab.sh down            stop everything and remove every namespace and interface
#   Deploy/lab.sh status          list the lab's namespaces and daemons
#
# Needs root (network namespaces). CADDIE_LAB_PREFIX (default "cl") names the namespaces so that two
# labs can coexist; CADDIE_LAB_DIR (default /tmp/caddie-lab-PREFIX) holds configs and pid files.
set -euo pipefail

prefix="${CADDIE_LAB_PREFIX:-cl}"
dir="${CADDIE_LAB_DIR:-/tmp/caddie-lab-$prefix}"
bridge_ns="${prefix}br"

die() { echo "lab: $*" >&2; exit 1; }
# Long-lived processes must not keep the caller's descriptors open (a test harness may wait for them to
# close to learn that this script ended): close everything but stdin, stdout and stderr.
close_inherited() {
    local fd
    for fd in /proc/$BASHPID/fd/*; do
        fd="${fd##*/}"
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
    done
}
need_root() { [ "$(id -u)" -eq 0 ] || die "needs root (network namespaces); run as root or in CI"; }
host_ns() { echo "${prefix}h$1"; }
keeper_pid() { cat "$dir/h$1/keeper.pid" 2>/dev/null || true; }

up() {
    local count="$1"
    [[ "$count" =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] && [ "$count" -le 32 ] || die "up takes a host count 1...32"
    need_root
    command -v avahi-daemon >/dev/null || die "avahi-daemon is missing: run Deploy/setup.sh"
    command -v dbus-daemon >/dev/null || die "dbus-daemon is missing: run Deploy/setup.sh"
    down >/dev/null 2>&1 || true
    mkdir -p "$dir"
    ip netns add "$bridge_ns"
    ip -n "$bridge_ns" link add br0 type bridge
    ip -n "$bridge_ns" link set br0 type bridge mcast_snooping 0 2>/dev/null || true
    ip -n "$bridge_ns" link set br0 up
    ip -n "$bridge_ns" link set lo up
    for i in $(seq 1 "$count"); do
        local ns; ns="$(host_ns "$i")"
        mkdir -p "$dir/h$i"
        ip netns add "$ns"
        ip link add "${prefix}v$i" netns "$ns" type veth peer name "${prefix}b$i" netns "$bridge_ns"
        ip -n "$ns" link set "${prefix}v$i" name eth0
        ip -n "$ns" addr add "10.251.0.$i/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
        ip -n "$bridge_ns" link set "${prefix}b$i" master br0
        ip -n "$bridge_ns" link set "${prefix}b$i" up
        cat > "$dir/h$i/avahi.conf" <<CONF
[server]
host-name=${prefix}h$i
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000

[wide-area]
enable-wide-area=no

[publish]
publish-workstation=no
publish-hinfo=no
publish-addresses=yes

[reflector]
enable-reflector=no
CONF
        # A keeper process holds the host's private mount namespace: /run/dbus and /run/avahi-daemon are
        # its own tmpfs, so each host has its own system bus and Avahi daemon.
        ( close_inherited; exec ip netns exec "$ns" unshare -m --propagation private sh -c "
            mount -t tmpfs none /run/dbus 2>/dev/null || { mkdir -p /run/dbus && mount -t tmpfs none /run/dbus; }
            mkdir -p /run/avahi-daemon && mount -t tmpfs none /run/avahi-daemon
            dbus-daemon --system --fork --nopidfile
            avahi-daemon -f '$dir/h$i/avahi.conf' --daemonize --no-drop-root --no-chroot
            exec sleep infinity" ) </dev/null >"$dir/h$i/keeper.log" 2>&1 &
        echo $! > "$dir/h$i/keeper.pid"
    done
    echo "$count" > "$dir/count"
    for i in $(seq 1 "$count"); do
        local pid; pid="$(keeper_pid "$i")"
        for _ in $(seq 1 100); do
            nsenter -t "$pid" -m -n test -f /run/avahi-daemon/pid 2>/dev/null && break
            sleep 0.05
        done
        nsenter -t "$pid" -m -n test -f /run/avahi-daemon/pid || die "Avahi did not start on host $i: $(cat "$dir/h$i/keeper.log")"
    done
    echo "lab: $count hosts up (10.251.0.1-$count)"
}

run_in() {
    local i="$1"; shift
    local pid; pid="$(keeper_pid "$i")"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || die "host $i is not up"
    exec nsenter -t "$pid" -m -n -- "$@"
}

link() {
    need_root
    local state="$1" i="$2"
    ip -n "$bridge_ns" link set "${prefix}b$i" "$state"
}

down() {
    need_root
    local count=0
    [ -f "$dir/count" ] && count="$(cat "$dir/count")"
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${prefix}(h[0-9]+|br)$" || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null || true; done
    done
    sleep 0.3
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${prefix}(h[0-9]+|br)$" || true); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
        ip netns delete "$ns" 2>/dev/null || true
    done
    rm -rf "$dir"
    # Nothing of the lab may outlive it, and no Avahi may ever run in the machine's own namespace.
    for pid in $(pgrep -x avahi-daemon || true); do
        grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null && continue  # an exited daemon awaiting reaping
        if [ "$(readlink "/proc/$pid/ns/net")" = "$(readlink /proc/1/ns/net)" ]; then
            echo "lab: stopping an avahi-daemon found in the root namespace (pid $pid)" >&2
            kill "$pid" 2>/dev/null || true
        fi
    done
    echo "lab: down ($count hosts removed)"
}

status() {
    ip netns list 2>/dev/null | grep -E "^${prefix}(h[0-9]+|br)" || echo "lab: no hosts"
}

case "${1:-}" in
    up) up "${2:-4}" ;;
    exec) shift; [ $# -ge 2 ] || die "exec takes a host number and a command"; run_in "$@" ;;
    cut) link down "${2:?host number}" ;;
    restore) link up "${2:?host number}" ;;
    down) down ;;
    status) status ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
esac
