// Compiled into every executable that links kinevo_symbolic (an INTERFACE source, see
// symbolic/CMakeLists.txt). CLN, GiNaC's number library, keeps 26 bytes from its static
// initialisation that LeakSanitizer reports as a leak in every process that loads it, which
// fails every sanitizer run (and every test under it). LeakSanitizer calls this hook for its
// default suppressions; without sanitizers nothing calls it.
extern "C" const char* __lsan_default_suppressions();
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\n";
}
