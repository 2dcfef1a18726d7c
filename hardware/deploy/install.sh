#!/bin/sh
# Install the table controller as a service on the table's Raspberry Pi (issue 16).
#
#   git clone ... /opt/chicago-table && sudo /opt/chicago-table/hardware/deploy/install.sh
#
# It makes the user `chicago` (in the dialout group, for the seat controller), the
# virtualenv /opt/chicago-table/.venv with the controller in it, the udev rule (the
# seat controller as /dev/chicago-seat-controller), the configuration folder
# /etc/chicago-table with table.toml (kept if it exists), the data folder
# /var/lib/chicago-table (the event log: its user's alone), and the systemd unit,
# enabled.  Run it again to update: the configuration and the data stay.
#
# Environment (for packaging and for the tests):
#   PREFIX=/opt/chicago-table   where the source is and the venv goes (default: this checkout)
#   DESTDIR=/some/root          install the files under this root only: no user, no
#                               systemctl, no udevadm, no chown (what they would do is printed)
#   CHICAGO_NO_VENV=1           leave the virtualenv out (the tests have their own)
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
PREFIX=${PREFIX:-$SRC}
DESTDIR=${DESTDIR:-}
USER_NAME=chicago
CONF=$DESTDIR/etc/chicago-table
DATA=$DESTDIR/var/lib/chicago-table
UNIT_DIR=$DESTDIR/etc/systemd/system
UDEV_DIR=$DESTDIR/etc/udev/rules.d

say() { printf '%s\n' "$*"; }
system() {  # a change to the running system: only on a real install
    if [ -n "$DESTDIR" ]; then say "(DESTDIR) would run: $*"; else "$@"; fi
}

if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    say "install.sh: run it as root (sudo $0)" >&2
    exit 2
fi

# 1. the user: a system account, no login, in dialout for the serial port
if [ -n "$DESTDIR" ] || id "$USER_NAME" >/dev/null 2>&1; then
    system usermod -a -G dialout "$USER_NAME"
else
    useradd --system --home-dir /var/lib/chicago-table --no-create-home --shell /usr/sbin/nologin \
        --groups dialout "$USER_NAME"
fi

# 2. the virtualenv with the controller (Python 3.11 or newer)
if [ "${CHICAGO_NO_VENV:-0}" != 1 ]; then
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        say "install.sh: Python 3.11 or newer is needed (python3 is $(python3 -V 2>&1))" >&2; exit 2; }
    python3 -m venv "$DESTDIR$PREFIX/.venv"
    "$DESTDIR$PREFIX/.venv/bin/pip" install --quiet --upgrade pip
    "$DESTDIR$PREFIX/.venv/bin/pip" install --quiet "$SRC"
fi

# 3. the udev rule: /dev/chicago-seat-controller, group dialout, no ModemManager
install -d -m 755 "$UDEV_DIR"
install -m 644 "$HERE/99-chicago-seat-controller.rules" "$UDEV_DIR/"
system udevadm control --reload
system udevadm trigger --subsystem-match=tty

# 4. the configuration (kept when it exists: it is the club's): readable by the service's
#    group only, as the deck, the TLS key and the event's tokens will lie there too
install -d -m 750 "$CONF"
system chgrp "$USER_NAME" "$CONF"
if [ ! -e "$CONF/table.toml" ]; then
    install -m 640 "$HERE/table.toml" "$CONF/table.toml"
    system chgrp "$USER_NAME" "$CONF/table.toml"
    say "wrote $CONF/table.toml: set the table's name and register its deck"
else
    say "kept $CONF/table.toml"
fi

# 5. the data folder: the event log holds every dealt hand, so its user's alone
install -d -m 700 "$DATA"
system chown "$USER_NAME:$USER_NAME" "$DATA"

# 6. the unit, pointing at this installation
install -d -m 755 "$UNIT_DIR"
sed "s#/opt/chicago-table#$PREFIX#g" "$HERE/chicago-table.service" > "$UNIT_DIR/chicago-table.service"
chmod 644 "$UNIT_DIR/chicago-table.service"
system systemctl daemon-reload
system systemctl enable chicago-table.service

say "installed.  Next:"
say "  1. register the deck:  sudo $PREFIX/.venv/bin/chicago-table deck register --port /dev/chicago-seat-controller --out /etc/chicago-table/deck.json"
say "  2. edit /etc/chicago-table/table.toml (name, dashboard, camera); after adding files there:"
say "     sudo chgrp -R $USER_NAME /etc/chicago-table && sudo chmod -R g+rX,o-rwx /etc/chicago-table"
say "  3. sudo systemctl restart chicago-table && journalctl -u chicago-table -f"
