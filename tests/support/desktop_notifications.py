"""A phone's or desktop's notification centre, stood in for: the freedesktop.org Notifications service on a D-Bus
session bus of the test's own. Chromium on Linux shows a web page's notifications through that service, and a tap
on one is the service's `ActionInvoked(id, "default")` signal, which Chromium turns into the service worker's
trusted `notificationclick` (the one event that may focus a window or open one), as when a person taps it.

    desktop = NotificationDesktop(folder)      # a dbus-daemon of its own, and the service on it
    launch Chromium with env DBUS_SESSION_BUS_ADDRESS=desktop.address
    shown = desktop.wait_for_shown(title)      # {id, title, body, actions} as Chromium asked it shown
    desktop.tap(shown)                         # the person's tap
    desktop.close()

Chromium routes a tap back to the profile that showed the notification only for a real profile: a page must be in
a persistent context (`launch_persistent_context`), not in one of Playwright's off-the-record contexts."""

import os
import queue
import shutil
import subprocess
import threading

import pytest
from jeepney import DBusAddress, HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

NAME = "org.freedesktop.Notifications"
OBJECT = DBusAddress("/org/freedesktop/Notifications", interface=NAME)
CAPABILITIES = ["actions", "body", "persistence"]  # "actions": Chromium offers the tap ("default") as one


def dbus_daemon():
    """Debian's dbus-daemon, or a skip when there is none here (CI installs it: .ci/run)."""
    found = shutil.which("dbus-daemon")
    if found is None and os.environ.get("CI"):
        pytest.fail("no dbus-daemon in CI: .ci/run installs Debian's dbus-daemon package")
    if found is None:
        pytest.skip(
            "no dbus-daemon on this machine (apt-get install dbus-daemon) to stand in for a notification centre"
        )
    return found


class NotificationDesktop:
    def __init__(self, folder):
        socket = folder / "bus"
        self.address = f"unix:path={socket}"
        self.daemon = subprocess.Popen(
            [dbus_daemon(), "--session", "--nofork", f"--address={self.address}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # it says that it could not raise its open-files limit: not ours to care
        )
        # the socket's file is there a moment before the daemon listens on it: until then a connection is refused
        self.connection = wait_for(self.connected, SLOW_MACHINE_SECONDS)
        self.connection.send_and_get_reply(message_bus.RequestName(NAME, 4))  # 4: do not queue for the name
        self.shown = []
        self.taps = queue.Queue()  # sent from the serving thread: the connection is not shared between threads
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def connected(self):
        try:
            return open_dbus_connection(bus=self.address)
        except (FileNotFoundError, ConnectionRefusedError):
            return None

    def serve(self):
        while not self.stopping.is_set():
            while not self.taps.empty():
                self.connection.send(new_signal(OBJECT, "ActionInvoked", "us", (self.taps.get(), "default")))
            try:
                message = self.connection.receive(timeout=0.05)
            except TimeoutError:
                continue
            if message.header.message_type == MessageType.method_call:
                self.connection.send(self.answer(message))

    def answer(self, call):
        member = call.header.fields.get(HeaderFields.member)
        if member == "GetCapabilities":
            return new_method_return(call, "as", (CAPABILITIES,))
        if member == "GetServerInformation":
            return new_method_return(call, "ssss", ("Stand-in notification centre", "tests", "1", "1.2"))
        if member == "Notify":
            _app, _replaces, _icon, title, body, actions, _hints, _timeout = call.body
            notification = {"id": len(self.shown) + 1, "title": title, "body": body, "actions": actions}
            self.shown.append(notification)
            return new_method_return(call, "u", (notification["id"],))
        if member == "CloseNotification":
            return new_method_return(call)
        return new_error(call, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"no {member} here",))

    def wait_for_shown(self, title):
        """The notification titled `title` once Chromium has asked it shown (a push takes a moment)."""
        return wait_for(lambda: next((one for one in self.shown if one["title"] == title), None), SLOW_MACHINE_SECONDS)

    def tap(self, notification):
        self.taps.put(notification["id"])

    def close(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        self.connection.close()
        self.daemon.terminate()
        try:
            self.daemon.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.daemon.kill()
