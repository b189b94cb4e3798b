// SPDX-License-Identifier: MIT
//
// A Go program over our header through cgo, the way Go bindings use the
// library: the provider's and probes' fields read directly (errno, error,
// _fire, argCount, name), variadic calls behind C wrappers, a provider and
// probes named with '-', a repeated probe name, a double load, an unload
// and a reload. It checks what it can alone, prints "ready PID", then
// fires; cgo.sh traces it with bpftrace.
package main

/*
#cgo LDFLAGS: -lstapsdt
#include <stdint.h>
#include <stdlib.h>
#include <libstapsdt.h>

static SDTProbe_t *add2(SDTProvider_t *p, const char *name, ArgType_t a,
			ArgType_t b)
{
	return providerAddProbe(p, name, 2, a, b);
}

static SDTProbe_t *add1(SDTProvider_t *p, const char *name, ArgType_t a)
{
	return providerAddProbe(p, name, 1, a);
}

static void fire2(SDTProbe_t *p, uint64_t a, uint64_t b)
{
	probeFire(p, a, b);
}

static void fire1(SDTProbe_t *p, uint64_t a)
{
	probeFire(p, a);
}
*/
import "C"

import (
	"fmt"
	"os"
	"time"
	"unsafe"
)

func check(ok bool, what string) {
	if !ok {
		fmt.Println("FAIL:", what)
		os.Exit(1)
	}
}

func cstr(s string) *C.char { return C.CString(s) }

func main() {
	name := cstr("go-demo")
	p := C.providerInit(name)
	C.free(unsafe.Pointer(name))
	check(p != nil && C.GoString(p.name) == "go-demo", "providerInit")
	check(p.errno == C.noError && p.error == nil, "errno after init")

	bad := C.add1(p, cstr("bad:name"), C.int64)
	check(bad == nil && p.errno == C.invalidNameError && p.error != nil,
		"a name with ':' is refused with invalidNameError")
	fmt.Println("refused:", C.GoString(p.error))

	tick := C.add2(p, cstr("tick-1"), C.int64, C.uint64)
	dupA := C.add1(p, cstr("dup"), C.int64)
	dupB := C.add1(p, cstr("dup"), C.int64)
	check(tick != nil && dupA != nil && dupB != nil, "providerAddProbe")
	check(p.errno == C.noError && p.error == nil, "a success clears errno")
	check(tick.argCount == 2 && C.GoString(tick.name) == "tick-1",
		"probe fields")

	check(C.providerLoad(p) == 0, "providerLoad")
	check(C.providerLoad(p) == 0, "a second providerLoad is 0")
	check(C.providerUnload(p) == 0 && tick._fire == nil, "providerUnload")
	check(C.providerUnload(p) == 0, "a second providerUnload is 0")
	check(C.providerLoad(p) == 0, "reload")
	check(tick._fire != nil && dupA._fire != dupB._fire,
		"each repeat of a name has its own stub")
	// The idle test Go bindings make without a call.
	check(*(*uint8)(tick._fire) == 0x90, "idle stub starts with a nop")

	fmt.Println("ready", os.Getpid())
	for i := 0; i < 3000; i++ {
		msg := cstr(fmt.Sprintf("msg-%d", i))
		C.fire2(tick, C.uint64_t(i), C.uint64_t(uintptr(unsafe.Pointer(msg))))
		C.fire1(dupA, C.uint64_t(1000+i))
		C.fire1(dupB, C.uint64_t(2000+i))
		C.free(unsafe.Pointer(msg))
		time.Sleep(10 * time.Millisecond)
	}
	C.providerDestroy(p)
}
