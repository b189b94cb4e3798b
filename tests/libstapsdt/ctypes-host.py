# SPDX-License-Identifier: MIT
"""A Python program over the library through ctypes, the way Python
bindings use it: the structures declared in Python and their fields read
directly, providerAddProbe called variadically, names with '-', a double
load, an unload and a reload, a probe named `9.lives'. It checks what it can alone, prints
"ready PID", then fires; python.sh traces it with bpftrace.
`ctypes-host.py LIBSTAPSDT.so'."""
import ctypes
import os
import sys
import time
from ctypes import (POINTER, Structure, c_char_p, c_int, c_uint64, c_void_p)


class Probe(Structure):
    _fields_ = [("name", c_char_p), ("argFmt", c_int * 6),
                ("_fire", c_void_p), ("provider", c_void_p),
                ("argCount", c_int)]


class Provider(Structure):
    _fields_ = [("name", c_char_p), ("probes", c_void_p), ("errno", c_int),
                ("error", c_char_p), ("_handle", c_void_p),
                ("_filename", c_char_p), ("_memfd", c_int),
                ("_use_memfd", c_int)]


lib = ctypes.CDLL(sys.argv[1])
lib.providerInit.argtypes = [c_char_p]
lib.providerInit.restype = POINTER(Provider)
lib.providerAddProbe.restype = POINTER(Probe)
for f in ("providerLoad", "providerUnload"):
    getattr(lib, f).argtypes = [POINTER(Provider)]
lib.probeIsEnabled.argtypes = [POINTER(Probe)]

NO_ERROR, INVALID_NAME, INT64, UINT64 = -1, 5, -8, 8


def check(ok, what):
    if not ok:
        print("FAIL:", what, flush=True)
        sys.exit(1)


p = lib.providerInit(b"py-app")
prov = p.contents
check(prov.name == b"py-app" and prov.errno == NO_ERROR, "providerInit")
bad = lib.providerAddProbe(p, b"bad:name", 0)
check(not bad and prov.errno == INVALID_NAME and prov.error,
      "a name with ':' is refused with invalidNameError")
print("refused:", prov.error.decode(), flush=True)
probe = lib.providerAddProbe(p, b"probe-1", 2, INT64, UINT64)
check(bool(probe) and prov.errno == NO_ERROR and prov.error is None,
      "providerAddProbe, and a success clears errno")
check(probe.contents.argCount == 2 and probe.contents.name == b"probe-1",
      "probe fields")
odd = lib.providerAddProbe(p, b"9.lives", 1, INT64)
check(bool(odd), "a probe name with a leading digit and a '.'")
check(lib.providerLoad(p) == 0 and lib.providerLoad(p) == 0,
      "load, and a second load, are 0")
check(lib.providerUnload(p) == 0 and probe.contents._fire is None,
      "unload clears _fire")
check(lib.providerUnload(p) == 0, "a second unload is 0")
check(lib.providerLoad(p) == 0 and probe.contents._fire, "reload")
check(lib.probeIsEnabled(probe) == 0, "untraced probe is disabled")
print("ready", os.getpid(), flush=True)
for i in range(3000):
    msg = ctypes.create_string_buffer(b"py-%d" % i)
    if lib.probeIsEnabled(probe):
        lib.probeFire(probe, c_uint64(i), msg)
    lib.probeFire(odd, c_uint64(i))
    time.sleep(0.01)
