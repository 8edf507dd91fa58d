// Compiled into every executable that links kinevo_symbolic (an INTERFACE source, see
// symbolic/CMakeLists.txt). Without sanitizers nothing here is used.
//
// CLN, GiNaC's number library, keeps 26 bytes from its own static initialisation that
// LeakSanitizer reports as a leak in every process that loads it. A suppression alone costs
// every process a symbolization of that leak's stack at exit (about 0.16 s of a 0.35 s start of
// the sanitizer `kinevo`, paid by every test and every process a test starts; docs/build.md), so
// the allocations the shared libraries make in their static initialisers, before any kinevo code
// runs, are not tracked at all: leak tracking is off from the executable's pre-initialisation
// (which runs after the sanitizer's own and before any shared library's initialiser) until its
// first constructor (which runs after every shared library's initialisers).
// GiNaC leaks the object it is building when that object's evaluation throws while parsing
// (a pole_error for "1/0 + x": 40 bytes in its parser), an error path inside the library that
// the model-file tests and the fuzz harness take on purpose: that one stays a suppression, and
// libcln's for processes where the pre-initialisation does not run.
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libginac.so\n";
}

// GCC says -fsanitize=address with __SANITIZE_ADDRESS__, clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define KINEVO_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KINEVO_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(KINEVO_ADDRESS_SANITIZER)
#include <sanitizer/lsan_interface.h>

namespace {
void stop_tracking_leaks_during_library_initialisers() {
  __lsan_disable();
}
__attribute__((constructor(101))) void track_leaks_from_the_executables_initialisers() {
  __lsan_enable();
}
}  // namespace

// The pre-initialisation array of an executable is run before the initialisers of its shared
// libraries (the System V ABI's DT_PREINIT_ARRAY); the sanitizer runtime's entry precedes this.
__attribute__((section(".preinit_array"),
               used)) void (*const kinevo_preinit_stop_tracking_leaks)() =
    stop_tracking_leaks_during_library_initialisers;
#endif
