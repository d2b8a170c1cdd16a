"""Whether an address others chose is public (SPEC §2.3): push endpoints that users register must not send the
office's requests into its own LAN. Loopback, private, link-local, unique-local, multicast and reserved addresses
are not public, in any spelling a resolver takes (`2130706433`, `0x7f000001`, `[::ffff:7f00:1]`, a name that
resolves to one); `Allowed` (BAND_PUSH_PRIVATE_HOSTS) names the hosts and networks that may be private all the same.

A host is checked when an endpoint is registered (`refusal`) and again on every connection a push opens
(`PublicOnly`, the connections' network backend): that one resolves the name, checks every address and connects to
those it checked, so that a name that changes its answer between the check and the connection gains nothing."""

import asyncio
import ipaddress
import socket
from dataclasses import dataclass

NOT_PUBLIC = "The push endpoint's host is not a public address (a host of the office's own network)."
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # IPv4 addresses embedded in IPv6 by a NAT64 gateway


class NotPublic(Exception):
    """A connection refused: its host is not a public address. Not an httpx error: a push says so as it is."""


@dataclass(frozen=True)
class Allowed:
    """The hosts that may be private: names (lower case, no trailing dot) and networks."""

    names: frozenset = frozenset()
    networks: tuple = ()

    @classmethod
    def parse(cls, text):
        """`nas.local, 192.168.1.20, 10.0.0.0/8, [fd00::1]`; ValueError naming an entry that is neither."""
        names, networks = set(), []
        for entry in (part.strip() for part in text.split(",")):
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry.removeprefix("[").removesuffix("]"), strict=False))
                continue
            except ValueError:
                pass
            name = normal_name(entry)
            if not name or any(c in name for c in "/:@[] ") or not name.isascii():
                raise ValueError(f"{entry!r} is neither a host name nor an address")
            names.add(name)
        return cls(frozenset(names), tuple(networks))

    def names_host(self, host):
        return normal_name(host) in self.names

    def holds(self, address):
        return any(address in network for network in self.networks if network.version == address.version)


def normal_name(host):
    return host.strip().lower().removesuffix(".")


def is_public(address):
    """Whether `address` (an ipaddress object) is one of the internet's: an IPv4 address inside IPv6 is judged as
    the IPv4 address it carries."""
    if address.version == 6:
        inner = address.ipv4_mapped or address.sixtofour
        if inner is None and address in NAT64:
            inner = ipaddress.IPv4Address(address.packed[-4:])
        if inner is not None:
            return is_public(inner)
    return address.is_global and not (address.is_multicast or address.is_reserved)


def judged(host, addresses, allowed):
    """Whether every one of `addresses` (strings, as a resolver gives them) of `host` may be connected to."""
    found = [ipaddress.ip_address(address.split("%", 1)[0]) for address in addresses]
    if is_localhost(host):
        return bool(found) and all(allowed.holds(address) for address in found)
    return all(is_public(address) or allowed.holds(address) for address in found)


def is_localhost(host):
    """`localhost` and the names under it are loopback whatever a resolver says (RFC 6761)."""
    name = normal_name(host)
    return name == "localhost" or name.endswith(".localhost")


def refusal(host, allowed):
    """Why an endpoint on `host` may not be registered, or None. A name that does not resolve now is taken: each
    push checks it again."""
    if allowed.names_host(host):
        return None
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)}
    except (OSError, ValueError):  # no such name, or none a resolver takes (an empty label, say)
        addresses = set()
    if not addresses and not is_localhost(host):
        return None
    return None if judged(host, addresses, allowed) else NOT_PUBLIC


class PublicOnly:
    """An httpcore network backend that connects to public addresses only, but for the hosts `allowed` names: the
    name resolved, every address it gives checked (NotPublic if one is not), then those addresses connected to
    (TLS still verifies the certificate against the name). httpcore's own backend does the connecting."""

    def __init__(self, allowed):
        import httpcore  # here: made with the first push (outgoing.ClientOnFirstUse), as httpx is loaded

        self.allowed, self.inner, self.connect_error = allowed, httpcore.AnyIOBackend(), httpcore.ConnectError

    async def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        host = host.removeprefix("[").removesuffix("]")
        options = {"timeout": timeout, "local_address": local_address, "socket_options": socket_options}
        if self.allowed.names_host(host):
            return await self.inner.connect_tcp(host, port, **options)
        addresses = await self.resolve(host, port)
        if not judged(host, addresses, self.allowed):
            raise NotPublic(NOT_PUBLIC)
        error = None
        for address in addresses:
            try:
                return await self.inner.connect_tcp(address, port, **options)
            except self.connect_error as failed:
                error = failed
        raise error

    async def resolve(self, host, port):
        """The addresses of `host` in the resolver's order, each once."""
        try:
            found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, ValueError) as error:
            raise self.connect_error(f"The push endpoint's host does not resolve ({error}).") from None
        return list(dict.fromkeys(info[4][0] for info in found))

    async def connect_unix_socket(self, path, timeout=None, socket_options=None):
        raise NotPublic(NOT_PUBLIC)

    async def sleep(self, seconds):
        await self.inner.sleep(seconds)
